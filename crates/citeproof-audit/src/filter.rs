//! Which verifications a listing or a summary is about.

/// Which verifications to list or count. Times are the verification time (`--now`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filter {
    /// Only verifications at or after this Unix time.
    pub since: Option<i64>,
    /// Only verifications before this Unix time.
    pub until: Option<i64>,
    pub spec: Option<String>,
    pub subject: Option<String>,
    /// Only verifications with an incident of this code.
    pub code: Option<String>,
    /// `verified`, `not-verified` or `could-not-check`.
    pub outcome: Option<String>,
    /// At most this many, newest first (`None`: all).
    pub limit: Option<u32>,
}

/// `--since`/`--until`: RFC 3339 (`2026-05-01T00:00:00Z`), Unix seconds, or an age before
/// `now`: `7d`, `24h`, `30m`, `90s`, `2w`.
pub fn parse_since(text: &str, now: i64) -> Result<i64, String> {
    let text = text.trim();
    if let Ok(seconds) = text.parse::<i64>() {
        return Ok(seconds);
    }
    if let Some(unit) = text.chars().last()
        && let Some(number) = text.strip_suffix(unit)
        && let Ok(n) = number.parse::<i64>()
    {
        let per = match unit {
            's' => 1,
            'm' => 60,
            'h' => 3600,
            'd' => 86_400,
            'w' => 7 * 86_400,
            _ => 0,
        };
        if per > 0 && n >= 0 {
            return n
                .checked_mul(per)
                .and_then(|age| now.checked_sub(age))
                .ok_or_else(|| format!("`{text}` is out of range"));
        }
    }
    citeproof_model::Timestamp::parse(text)
        .map(|t| t.unix_seconds())
        .map_err(|e| {
            format!("`{text}`: {e}; give RFC 3339, Unix seconds, or an age like 7d, 24h, 30m")
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_and_dates() {
        let now = 1_777_593_600; // 2026-05-01T00:00:00Z
        assert_eq!(parse_since("7d", now), Ok(now - 604_800));
        assert_eq!(parse_since("24h", now), Ok(now - 86_400));
        assert_eq!(parse_since("30m", now), Ok(now - 1800));
        assert_eq!(parse_since("2026-04-30T00:00:00Z", now), Ok(now - 86_400));
        assert_eq!(parse_since("0", now), Ok(0));
        assert!(parse_since("7y", now).is_err());
        assert!(parse_since("-7d", now).is_err());
        assert!(parse_since("yesterday", now).is_err());
    }
}
