//! Validated string newtypes shared by every document: timestamps, absolute URLs, extension maps.
//! Each keeps the exact input string, so a parsed document re-serializes to the same text.

use std::{collections::BTreeMap, fmt};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::format_description::well_known::Rfc3339;

/// An RFC 3339 date-time with a `Z` or numeric offset (e.g. `2026-04-28T10:00:00Z`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Timestamp {
    text: String,
    instant: time::OffsetDateTime,
}

impl Timestamp {
    /// Parses an RFC 3339 `date-time` exactly as the RFC's grammar (and JSON Schema's
    /// `date-time` format, which the AEF schema uses) allows: `t`/`z` in either case, a
    /// fraction of any length, a leap second `:60`. Use [`Timestamp::profile_violation`] for the
    /// stricter profile rule JSON-005.
    pub fn parse(text: &str) -> Result<Timestamp, String> {
        let bad = |why: &str| format!("`{text}` is not an RFC 3339 date-time: {why}");
        if !rfc3339_shape(text.as_bytes()) {
            return Err(bad("expected YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)"));
        }
        // `time` validates the calendar and offsets but refuses a leap second outside the real
        // ones; RFC 3339 §5.7 only requires 23:59:60 (in UTC). Parse a leap second as :59.
        let leap = &text[17..19] == "60";
        let parsed = if leap {
            let mut patched = text.to_owned();
            patched.replace_range(17..19, "59");
            time::OffsetDateTime::parse(&patched, &Rfc3339)
        } else {
            time::OffsetDateTime::parse(text, &Rfc3339)
        };
        let instant = parsed.map_err(|e| bad(&e.to_string()))?;
        if leap {
            let utc = instant.to_offset(time::UtcOffset::UTC);
            if (utc.hour(), utc.minute()) != (23, 59) {
                return Err(bad("a leap second must be 23:59:60 in UTC"));
            }
        }
        Ok(Timestamp {
            text: text.to_owned(),
            instant,
        })
    }

    /// Why this timestamp breaks profile rule JSON-005 (uppercase `T`/`Z`, no leap second,
    /// 1-9 fraction digits, year 0001-9999), or `None` when it conforms.
    pub fn profile_violation(&self) -> Option<&'static str> {
        let b = self.text.as_bytes();
        if b.get(10) != Some(&b'T') {
            return Some("the date and time must be separated by an uppercase `T`");
        }
        if b.ends_with(b"z") {
            return Some("UTC must be written as an uppercase `Z`");
        }
        if &self.text[17..19] == "60" {
            return Some("leap seconds are not allowed");
        }
        if &self.text[..4] == "0000" {
            return Some("the year must be 0001 to 9999");
        }
        let fraction_digits = match b.get(19) {
            Some(b'.') => b[20..].iter().take_while(|c| c.is_ascii_digit()).count(),
            _ => 0,
        };
        if fraction_digits > 9 {
            return Some("a fraction of a second has at most 9 digits");
        }
        None
    }

    pub fn from_unix(seconds: i64) -> Result<Timestamp, String> {
        let instant =
            time::OffsetDateTime::from_unix_timestamp(seconds).map_err(|e| e.to_string())?;
        let text = instant
            .format(&time::format_description::well_known::Rfc3339)
            .map_err(|e| e.to_string())?;
        Ok(Timestamp { text, instant })
    }
    pub fn as_str(&self) -> &str {
        &self.text
    }
    /// Seconds since the Unix epoch.
    pub fn unix_seconds(&self) -> i64 {
        self.instant.unix_timestamp()
    }
    /// The instant, whatever offset the text was written in (`Z` and `+00:00` are the same
    /// instant; compare instants, never texts).
    pub fn instant(&self) -> time::OffsetDateTime {
        self.instant
    }
}

/// The clock skew every time comparison of the profile tolerates, seconds: a time up to this
/// far in the verifier's future is not "in the future" (RFC 9421 §7.2.2 style tolerance). One
/// constant for every spec.
pub const CLOCK_SKEW_SECONDS: i64 = 300;

/// RFC 3339 `date-time` character layout (digits and separators only; the calendar is checked
/// by `time`). Hand-written because `time` also accepts a space for `T`, which RFC 3339's
/// grammar (and JSON Schema's `date-time`) does not.
fn rfc3339_shape(b: &[u8]) -> bool {
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|s| s.iter().all(u8::is_ascii_digit));
    if !(digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10))
    {
        return false;
    }
    if !matches!(b.get(10), Some(b'T' | b't')) {
        return false;
    }
    if !(digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16)
        && b.get(16) == Some(&b':')
        && digits(17..19))
    {
        return false;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return false;
        }
        i += 1 + n;
    }
    match b.get(i) {
        Some(b'Z' | b'z') => i + 1 == b.len(),
        Some(b'+' | b'-') => {
            i + 6 == b.len() && digits(i + 1..i + 3) && b[i + 3] == b':' && digits(i + 4..i + 6)
        }
        _ => false,
    }
}

impl PartialOrd for Timestamp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Timestamp {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.instant
            .cmp(&other.instant)
            .then_with(|| self.text.cmp(&other.text))
    }
}

impl fmt::Debug for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.text, f)
    }
}
impl fmt::Display for Timestamp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl Serialize for Timestamp {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}
/// Deserializing a `Timestamp` applies profile rule JSON-005; see [`Rfc3339DateTime`] for the
/// plain RFC 3339 form AEF documents use.
impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        let t = Timestamp::parse(&s).map_err(serde::de::Error::custom)?;
        match t.profile_violation() {
            Some(why) => Err(serde::de::Error::custom(format!("`{s}`: {why}"))),
            None => Ok(t),
        }
    }
}

/// JSON-005 as a pattern: uppercase `T` and `Z`, seconds 00-59, 1-9 fraction digits, year
/// 0001-9999 (`format: date-time` checks the calendar).
pub const TIMESTAMP_PATTERN: &str = "^(000[1-9]|00[1-9][0-9]|0[1-9][0-9]{2}|[1-9][0-9]{3})-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-][0-9]{2}:[0-9]{2})$";

impl JsonSchema for Timestamp {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Timestamp".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "date-time",
            "pattern": TIMESTAMP_PATTERN,
            "description": "RFC 3339 date-time restricted by profile rule JSON-005.",
        })
    }
}

/// Any RFC 3339 `date-time` (JSON Schema `format: date-time`), as the published AEF schema
/// accepts: lowercase `t`/`z`, leap seconds and long fractions included (JSON-005 exception).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rfc3339DateTime(pub Timestamp);

impl fmt::Debug for Rfc3339DateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
impl Serialize for Rfc3339DateTime {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}
impl<'de> Deserialize<'de> for Rfc3339DateTime {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Timestamp::parse(&s)
            .map(Rfc3339DateTime)
            .map_err(serde::de::Error::custom)
    }
}
impl JsonSchema for Rfc3339DateTime {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Rfc3339DateTime".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "date-time",
            "description": "RFC 3339 date-time (JSON Schema `date-time`).",
        })
    }
}

/// Longest URL accepted anywhere in a document, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// A web URL (profile "Definitions", [`crate::weburl`]) that the `url` crate parses too, with
/// scheme `http` or `https` and a host: what every verifier accepts, so that a producer built
/// on this type cannot emit a URL the verifiers reject.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HttpUrl(String);

impl HttpUrl {
    pub fn parse(text: &str) -> Result<HttpUrl, String> {
        if text.len() > MAX_URL_BYTES {
            return Err(format!(
                "URL is {} bytes; the limit is {MAX_URL_BYTES}",
                text.len()
            ));
        }
        if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(format!(
                "URL `{text}` contains whitespace or control characters"
            ));
        }
        if let Some(problem) = crate::weburl::web_url_problem(text) {
            return Err(format!("`{text}` is not a web URL: {problem}"));
        }
        let url =
            url::Url::parse(text).map_err(|e| format!("`{text}` is not an absolute URL: {e}"))?;
        if !matches!(url.scheme(), "http" | "https") {
            return Err(format!(
                "URL `{text}` must use http or https, not `{}`",
                url.scheme()
            ));
        }
        if url.host_str().is_none_or(str::is_empty) {
            return Err(format!("URL `{text}` has no host"));
        }
        Ok(HttpUrl(text.to_owned()))
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for HttpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}
impl fmt::Display for HttpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}
impl Serialize for HttpUrl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}
impl<'de> Deserialize<'de> for HttpUrl {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        HttpUrl::parse(&s).map_err(serde::de::Error::custom)
    }
}
impl JsonSchema for HttpUrl {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "HttpUrl".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "uri",
            "pattern": "^[hH][tT][tT][pP][sS]?://[^\\s]+$",
            "maxLength": MAX_URL_BYTES,
            "description": "Absolute http(s) URL, at most 2048 bytes, no whitespace.",
        })
    }
}

/// Extension members of a document: only names starting with `x-` are allowed
/// (profile: unknown members that are not extensions are an error).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Extensions(pub BTreeMap<String, Value>);

impl Extensions {
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<'de> Deserialize<'de> for Extensions {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let map = BTreeMap::<String, Value>::deserialize(deserializer)?;
        if let Some(name) = map.keys().find(|k| !k.starts_with("x-")) {
            return Err(serde::de::Error::custom(format!(
                "unknown member `{name}` (only `x-` extension members may be added)"
            )));
        }
        Ok(Extensions(map))
    }
}

impl JsonSchema for Extensions {
    fn inline_schema() -> bool {
        true
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Extensions".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "object",
            "patternProperties": { "^x-": {} },
            "additionalProperties": false,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected results: RFC 3339 §5.6 grammar and §5.7 restrictions, by hand; they agree with
    // the `date-time` format of the `jsonschema` crate on every row (measured 2026-11-22).
    #[test]
    fn timestamps_follow_rfc_3339() {
        for ok in [
            "2026-05-12T03:45:00Z",
            "2026-05-12t03:45:00z",
            "2016-12-31T23:59:60Z",
            "2026-05-12T23:59:60Z",
            "2026-05-12T18:29:60-05:30",
            "2026-05-12T03:45:00.1234567891Z",
            "2026-05-12T03:45:00-00:00",
            "2024-02-29T00:00:00Z",
        ] {
            assert!(
                Timestamp::parse(ok).is_ok(),
                "{ok} rejected: {:?}",
                Timestamp::parse(ok)
            );
        }
        for bad in [
            "2026-05-12 03:45:00Z",
            "2026-05-12T03:45Z",
            "2026-05-12T03:45:00",
            "2026-05-12T03:45:00+24:00",
            "2026-02-29T00:00:00Z",
            "2026-05-12T12:00:60Z",
            "2026-05-12T03:45:00.Z",
            "2026-05-12T03:45:00+0530",
            "+2026-05-12T03:45:00Z",
            "2026-05-12T03:45:00Z ",
            "",
        ] {
            assert!(Timestamp::parse(bad).is_err(), "{bad} accepted");
        }
    }

    #[test]
    fn profile_rule_json_005_is_stricter() {
        let violation = |s: &str| Timestamp::parse(s).unwrap().profile_violation();
        assert_eq!(violation("2026-05-12T03:45:00Z"), None);
        assert_eq!(violation("2026-05-12T03:45:00.123456789+05:30"), None);
        assert!(violation("2026-05-12t03:45:00Z").is_some());
        assert!(violation("2026-05-12T03:45:00z").is_some());
        assert!(violation("2016-12-31T23:59:60Z").is_some());
        assert!(violation("2026-05-12T03:45:00.1234567891Z").is_some());
        assert!(violation("0000-05-12T03:45:00Z").is_some());
    }

    /// Strings the `url` crate (WHATWG) repairs and accepts but RFC 3986 `absolute-URI`, and so
    /// the profile's web URL, rejects (by hand: no `//` authority, userinfo, a non-ASCII
    /// character, `%` not followed by two hex digits, a second `#`): a producer typed on
    /// `HttpUrl` must not emit them.
    #[test]
    fn http_url_is_a_web_url() {
        for bad in [
            "https:example.com",
            "https://user@example.com/",
            "https://example.com/\u{e9}",
            "https://example.com/%zz",
            "https://example.com/a#b#c",
        ] {
            assert!(
                url::Url::parse(bad).is_ok(),
                "{bad}: the url crate accepts it"
            );
            assert!(HttpUrl::parse(bad).is_err(), "{bad}");
        }
        assert!(HttpUrl::parse("HTTPS://Example.COM:8443/a?b#c").is_ok());
    }
}
