//! The dates and timestamps of an envelope (JSON-005, CHAIN-016, CHAIN-017): profile
//! timestamps, RFC 3339 full-dates and their earliest instant, reduced-precision dates.

use citeproof_model::{IncidentCode, Timestamp};
use serde_json::Value;

/// Seconds from the start of a day in UTC to its start at UTC+14:00, the earliest offset in
/// use: a date written without offset denotes no instant earlier than its start minus this.
pub const EARLIEST_OFFSET_SECONDS: i64 = 14 * 3600;

pub(crate) use citeproof_model::members::{kind, timestamp};

/// A date (RFC 3339 `full-date`) or a profile timestamp; Unix seconds of its start (a date
/// starts at 00:00:00Z).
pub(crate) fn date_or_timestamp(v: &Value) -> Result<i64, (IncidentCode, String)> {
    date_or_timestamp_kind(v).map(|(t, _)| t)
}

/// The earliest instant a date or timestamp value denotes (CHAIN-016): a timestamp is its
/// instant, a date its start at UTC+14:00.
pub(crate) fn earliest_instant(t: i64, is_date: bool) -> i64 {
    if is_date {
        t.saturating_sub(EARLIEST_OFFSET_SECONDS)
    } else {
        t
    }
}

/// `YYYY` or `YYYY-MM` with year 0001-9999 and month 01-12 (CHAIN-017): a reduced-precision
/// ISO 8601 calendar date, as bibliographic records write publication dates.
pub(crate) fn reduced_precision_date(s: &str) -> bool {
    let b = s.as_bytes();
    let year_ok = |y: &[u8]| y.iter().all(u8::is_ascii_digit) && y != b"0000";
    match b.len() {
        4 => year_ok(b),
        7 => {
            year_ok(&b[..4])
                && b[4] == b'-'
                && b[5..].iter().all(u8::is_ascii_digit)
                && (1..=12).contains(&((b[5] - b'0') * 10 + (b[6] - b'0')))
        }
        _ => false,
    }
}

/// [`date_or_timestamp`], and whether the value was a date.
pub(crate) fn date_or_timestamp_kind(v: &Value) -> Result<(i64, bool), (IncidentCode, String)> {
    let Some(s) = v.as_str() else {
        return Err((
            IncidentCode::SchemaViolation,
            format!("expected a date or timestamp string, found {}", kind(v)),
        ));
    };
    if s.len() == 10 {
        let b = s.as_bytes();
        let shape = b.iter().enumerate().all(|(i, c)| match i {
            4 | 7 => *c == b'-',
            _ => c.is_ascii_digit(),
        });
        let t = if shape {
            Timestamp::parse(&format!("{s}T00:00:00Z")).ok()
        } else {
            None
        };
        return match t {
            Some(t) if t.profile_violation().is_none() => Ok((t.unix_seconds(), true)),
            _ => Err((
                IncidentCode::SchemaTimestampInvalid,
                format!("`{s}` is not an RFC 3339 full-date (YYYY-MM-DD, year 0001-9999)"),
            )),
        };
    }
    timestamp(v).map(|t| (t.unix_seconds(), false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_timestamps() {
        assert_eq!(date_or_timestamp(&Value::from("1970-01-02")), Ok(86400));
        assert_eq!(
            date_or_timestamp(&Value::from("1970-01-02T00:00:01Z")),
            Ok(86401)
        );
        for bad in [
            "1970-02-30",
            "0000-01-01",
            "1970-1-02",
            "2026-05-16T00:00:00z",
            "yesterday",
        ] {
            assert_eq!(
                date_or_timestamp(&Value::from(bad)).unwrap_err().0,
                IncidentCode::SchemaTimestampInvalid,
                "{bad}"
            );
        }
    }

    #[test]
    fn reduced_precision_dates() {
        for ok in ["2017", "2017-06", "0001", "9999-12"] {
            assert!(reduced_precision_date(ok), "{ok}");
        }
        for bad in [
            "17",
            "0000",
            "2017-13",
            "2017-00",
            "2017-6",
            "2017/06",
            "２０１７",
            "",
        ] {
            assert!(!reduced_precision_date(bad), "{bad}");
        }
    }
}
