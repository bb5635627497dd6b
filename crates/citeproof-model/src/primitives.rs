//! Validated string newtypes shared by every document: timestamps, absolute URLs, extension maps.
//! Each keeps the exact input string, so a parsed document re-serializes to the same text.

use std::{collections::BTreeMap, fmt};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An RFC 3339 date-time with a `Z` or numeric offset (e.g. `2026-04-28T10:00:00Z`).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Timestamp {
    text: String,
    instant: time::OffsetDateTime,
}

impl Timestamp {
    pub fn parse(text: &str) -> Result<Timestamp, String> {
        // `time`'s RFC 3339 parser is the strictest measured (shared/CRATES.md): it rejects a
        // missing offset, a space for `T` and other forms chrono and jiff accept.
        let instant =
            time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339)
                .map_err(|e| format!("`{text}` is not an RFC 3339 date-time: {e}"))?;
        Ok(Timestamp {
            text: text.to_owned(),
            instant,
        })
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
impl<'de> Deserialize<'de> for Timestamp {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        Timestamp::parse(&s).map_err(serde::de::Error::custom)
    }
}
impl JsonSchema for Timestamp {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Timestamp".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "format": "date-time",
            "description": "RFC 3339 date-time with `Z` or a numeric offset.",
        })
    }
}

/// Longest URL accepted anywhere in a document, in bytes.
pub const MAX_URL_BYTES: usize = 2048;

/// An absolute URL (RFC 3986) whose scheme is `http` or `https`.
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
