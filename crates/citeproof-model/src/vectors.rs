//! The conformance vector file format: plain JSON that any language can read.
//! Modelled on Wycheproof (flags with explanations, `valid`/`invalid`; Wycheproof's third
//! result, `acceptable`, has no place here: a SHOULD-only violation is `valid` with its warning,
//! because warnings never lower a level) and
//! JSON-Schema-Test-Suite (a description and a requirement reference per case).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::incident::IncidentCode;

/// Pattern of an operation name.
pub const OPERATION_PATTERN: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";

/// Declares the specs: the one list of their names and id prefixes, from which the [`Spec`]
/// enum (serde and schemars), its accessors, [`CASE_ID_PATTERN`] and [`REQUIREMENT_ID_PATTERN`]
/// are made. The first spec is written apart only so that the patterns' alternations need no
/// leading `|`.
macro_rules! specs {
    (
        $first:ident = $first_name:literal [$first_req:literal $(, $first_more:literal)*],
        $( $variant:ident = $name:literal [$($req:literal),+], )*
    ) => {
        /// Which spec a vector file tests.
        #[derive(
            Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
            JsonSchema,
        )]
        pub enum Spec {
            #[serde(rename = $first_name)]
            $first,
            $( #[serde(rename = $name)] $variant, )*
        }

        impl Spec {
            /// Every spec, in report order.
            pub const ALL: &'static [Spec] = &[Spec::$first, $(Spec::$variant),*];

            /// The short name: vector directory, `spec` member, case-id prefix without its `-`.
            pub const fn name(self) -> &'static str {
                match self {
                    Spec::$first => $first_name,
                    $( Spec::$variant => $name, )*
                }
            }

            /// The prefix every case id of this spec starts with.
            pub const fn case_prefix(self) -> &'static str {
                match self {
                    Spec::$first => concat!($first_name, "-"),
                    $( Spec::$variant => concat!($name, "-"), )*
                }
            }

            /// The first segments of the requirement ids of `docs/PROFILE.md` this spec owns.
            pub const fn requirement_prefixes(self) -> &'static [&'static str] {
                match self {
                    Spec::$first => &[$first_req $(, $first_more)*],
                    $( Spec::$variant => &[$($req),+], )*
                }
            }

            /// The spec of a short name.
            pub fn from_name(name: &str) -> Option<Spec> {
                Spec::ALL.iter().copied().find(|s| s.name() == name)
            }
        }

        /// Pattern of a case id: a spec's case prefix, then kebab-case words/digits.
        pub const CASE_ID_PATTERN: &str =
            concat!("^(", $first_name, $("|", $name,)* ")-[a-z0-9]+(-[a-z0-9]+)*$");
        /// Pattern of a requirement id of `docs/PROFILE.md`: a spec's requirement prefix, then
        /// upper-case segments and a three-digit number.
        pub const REQUIREMENT_ID_PATTERN: &str = concat!(
            "^(", $first_req, $("|", $first_more,)* $($("|", $req,)+)* ")(-[A-Z0-9]+)*-[0-9]{3}$"
        );
    };
}

// Variant docs would turn the schema's `enum` into a `oneOf`; the names say enough. `canon` owns
// the core requirements every spec shares (JSON, canonical forms, signatures, fetching).
specs! {
    Canon = "canon" ["JSON", "CANON", "SIG", "FETCH"],
    Aca = "aca" ["ACA"],
    Aef = "aef" ["AEF"],
    Archive = "archive" ["ARCHIVE"],
    Ledger = "ledger" ["LEDGER"],
    Chain = "chain" ["CHAIN"],
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One file of vectors: one spec, one operation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "citeproof conformance vector file")]
pub struct VectorFile {
    #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<String>,
    pub spec: Spec,
    /// The operation every case of the file exercises (see docs/ADAPTER.md).
    #[schemars(regex(pattern = OPERATION_PATTERN))]
    pub operation: String,
    #[schemars(length(min = 1))]
    pub description: String,
    /// Where external data in the file comes from, with its license.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attribution: Option<String>,
    /// Every flag used by a case, with what it means (Wycheproof style).
    #[serde(default)]
    pub flags: BTreeMap<String, String>,
    #[schemars(length(min = 1))]
    pub cases: Vec<VectorCase>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct VectorCase {
    /// Permanent id, prefixed by the spec's short name.
    #[schemars(regex(pattern = CASE_ID_PATTERN))]
    pub id: String,
    #[schemars(length(min = 1))]
    pub description: String,
    /// Requirement ids of docs/PROFILE.md this case tests.
    #[schemars(length(min = 1))]
    pub requirements: Vec<RequirementId>,
    /// Conformance level of the spec the case belongs to (0 = core rules that apply to all).
    #[schemars(range(max = 3))]
    pub level: u8,
    #[serde(default)]
    pub flags: Vec<String>,
    /// Operation input; its shape depends on the operation.
    pub input: Value,
    pub expected: Expected,
    /// How the expected result was derived, independently of the code under test.
    pub derivation: Derivation,
}

/// A requirement id such as `ACA-L2-007`.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct RequirementId(#[schemars(regex(pattern = REQUIREMENT_ID_PATTERN))] pub String);

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Validity {
    /// Must be accepted.
    Valid,
    /// Must be rejected, with every listed error code.
    Invalid,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub result: Validity,
    /// Error codes of an `invalid` answer: exactly these unless `errors_match` is `superset`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<IncidentCode>,
    /// `exact` (default): the answer's error codes equal `errors` as a set. `superset`: they
    /// include every code of `errors` (for inputs where an implementation may find more).
    #[serde(default, skip_serializing_if = "ErrorsMatch::is_exact")]
    pub errors_match: ErrorsMatch,
    /// When present, the answer's warning codes equal these as a set, whatever the result; `[]`
    /// asserts that no warning is raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<IncidentCode>>,
    /// The exact output, for operations that produce one (canonical form, hash, header, signature).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

/// How the error codes of an `invalid` answer are compared with `expected.errors`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ErrorsMatch {
    /// The same set of codes.
    #[default]
    Exact,
    /// Every listed code, and possibly more.
    Superset,
}

impl ErrorsMatch {
    pub fn is_exact(&self) -> bool {
        *self == ErrorsMatch::Exact
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum DerivationKind {
    /// Published data: an RFC appendix, a reference test suite.
    Published,
    /// Worked out by hand; the working is in `detail`.
    Hand,
    /// Computed by an independent tool (named in `detail`, e.g. `python3 hashlib`).
    IndependentTool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Derivation {
    pub kind: DerivationKind,
    #[schemars(length(min = 1))]
    pub detail: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        regex::Regex::new(pattern)
            .map(|r| r.is_match(text))
            .unwrap_or(false)
    }

    #[test]
    fn the_id_patterns_accept_every_spec_and_nothing_else() {
        for spec in Spec::ALL {
            let case = format!("{}x-1", spec.case_prefix());
            assert!(matches(CASE_ID_PATTERN, &case), "{case}");
            assert_eq!(Spec::from_name(spec.name()), Some(*spec));
            for prefix in spec.requirement_prefixes() {
                for id in [format!("{prefix}-001"), format!("{prefix}-L2-007")] {
                    assert!(matches(REQUIREMENT_ID_PATTERN, &id), "{id}");
                }
            }
        }
        for case in ["mystery-x-1", "canonx-1", "aca-", "Aca-x", "-x-1", "aca-X"] {
            assert!(!matches(CASE_ID_PATTERN, case), "{case}");
        }
        for id in [
            "MYSTERY-001",
            "ACAX-001",
            "ACA-01",
            "aca-001",
            "CHAIN-L1-1234",
        ] {
            assert!(!matches(REQUIREMENT_ID_PATTERN, id), "{id}");
        }
        assert_eq!(Spec::from_name("mystery"), None);
    }

    #[test]
    fn spec_serializes_as_its_name() {
        for spec in Spec::ALL {
            let text = serde_json::to_string(spec).unwrap_or_default();
            assert_eq!(text, format!("\"{}\"", spec.name()));
        }
    }
}
