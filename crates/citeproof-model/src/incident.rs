//! The one registry of incident / error codes shared by the verifier, the vectors and the
//! conformance runner. `docs/PROFILE.md` ("Incident code registry") lists the same codes; a test
//! keeps the two identical.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How bad an incident is. `Error` makes the affected level fail; `Warning` never does.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

macro_rules! incident_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $sev:ident, $meaning:literal; )+) => {
        /// A stable, kebab-case incident code. The string form never changes once published.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum IncidentCode {
            $( $(#[$doc])* $variant, )+
        }

        impl IncidentCode {
            /// Every registered code, in registry order.
            pub const ALL: &'static [IncidentCode] = &[ $( IncidentCode::$variant, )+ ];

            /// The stable string form, e.g. `json-duplicate-member`.
            pub const fn as_str(self) -> &'static str {
                match self { $( IncidentCode::$variant => $code, )+ }
            }

            /// Default severity of the code.
            pub const fn severity(self) -> Severity {
                match self { $( IncidentCode::$variant => Severity::$sev, )+ }
            }

            /// One-sentence meaning, as in the registry of `docs/PROFILE.md`.
            pub const fn meaning(self) -> &'static str {
                match self { $( IncidentCode::$variant => $meaning, )+ }
            }

            /// Looks a code up by its string form.
            pub fn from_code(code: &str) -> Option<IncidentCode> {
                match code { $( $code => Some(IncidentCode::$variant), )+ _ => None }
            }
        }
    };
}

incident_codes! {
    // ---- JSON input (any document) ----
    JsonSyntax = "json-syntax", Error, "The input is not well-formed JSON (RFC 8259).";
    JsonDuplicateMember = "json-duplicate-member", Error, "An object has two members with the same name (forbidden by I-JSON, RFC 7493 §2.3).";
    JsonLoneSurrogate = "json-lone-surrogate", Error, "A string contains an unpaired UTF-16 surrogate escape (forbidden by I-JSON, RFC 7493 §2.1).";
    JsonNumberOutOfRange = "json-number-out-of-range", Error, "A number is not representable as a finite IEEE 754 double (RFC 7493 §2.2).";
    JsonInvalidUtf8 = "json-invalid-utf8", Error, "The input is not valid UTF-8.";
    JsonTooLarge = "json-too-large", Error, "The input exceeds the size or nesting-depth limit.";
    // ---- schema ----
    SchemaViolation = "schema-violation", Error, "The document does not validate against its citeproof JSON Schema.";
    UnknownMember = "unknown-member", Error, "An object has a member that is neither defined nor an `x-` extension.";
}

impl fmt::Display for IncidentCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for IncidentCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for IncidentCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        IncidentCode::from_code(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown incident code `{s}`")))
    }
}

impl JsonSchema for IncidentCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "IncidentCode".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = IncidentCode::ALL.iter().map(|c| c.as_str()).collect();
        schemars::json_schema!({
            "type": "string",
            "description": "A code from the incident registry of docs/PROFILE.md.",
            "enum": codes,
        })
    }
}

/// Where an incident happened. Every field is optional; verifiers fill what they know.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Location {
    /// RFC 6901 JSON pointer into the document the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Byte offset into the raw input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// URL of the resource the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Claim id the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    /// Chain step number the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
}

impl Location {
    pub fn is_empty(&self) -> bool {
        *self == Location::default()
    }
    pub fn pointer(pointer: impl Into<String>) -> Location {
        Location {
            pointer: Some(pointer.into()),
            ..Location::default()
        }
    }
}

/// One finding of a check: a registered code, its severity, a human message and a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Incident {
    pub code: IncidentCode,
    pub severity: Severity,
    pub message: String,
    #[serde(default, skip_serializing_if = "Location::is_empty")]
    pub location: Location,
}

impl Incident {
    /// An incident with the code's default severity.
    pub fn new(code: IncidentCode, message: impl Into<String>, location: Location) -> Incident {
        Incident {
            code,
            severity: code.severity(),
            message: message.into(),
            location,
        }
    }
}

impl fmt::Display for Incident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.severity, self.code)?;
        if let Some(p) = &self.location.pointer {
            write!(f, " at {}", if p.is_empty() { "/" } else { p })?;
        }
        if let Some(o) = self.location.offset {
            write!(f, " at byte {o}")?;
        }
        if let Some(u) = &self.location.url {
            write!(f, " ({u})")?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for code in IncidentCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "duplicate code {s}");
            assert!(
                s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !s.starts_with('-')
                    && !s.ends_with('-')
                    && !s.contains("--"),
                "{s} is not kebab-case"
            );
            assert_eq!(IncidentCode::from_code(s), Some(*code));
            assert!(
                code.meaning().ends_with('.'),
                "{s}: meaning must be a sentence"
            );
        }
        assert_eq!(IncidentCode::from_code("no-such-code"), None);
    }
}
