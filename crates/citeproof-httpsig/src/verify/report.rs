//! What the verifier says: a report per label.

use crate::component::ComponentId;
use crate::error::HttpSigError;
use crate::params::SignatureParams;

/// A signature that passed every check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedSignature {
    /// Its label.
    pub label: String,
    /// Its covered components and parameters.
    pub params: SignatureParams,
    /// The signature base that verified.
    pub signature_base: String,
}

/// Why one label did not verify.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LabelFailure {
    /// The first check that failed.
    Failed(HttpSigError),
    /// Its key is unusable for a reason the key resolver's owner already reported.
    KeyAlreadyReported,
}

impl LabelFailure {
    /// A message naming the label once.
    pub fn describe(&self, label: &str) -> String {
        match self {
            LabelFailure::Failed(e) => {
                let text = e.to_string();
                if text.contains(&format!("`{label}`")) {
                    text
                } else {
                    format!("signature `{label}`: {text}")
                }
            }
            LabelFailure::KeyAlreadyReported => {
                format!("signature `{label}`: its key is unusable (reported separately)")
            }
        }
    }
}

/// The outcome for one label of `Signature-Input`, in field order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelReport {
    /// The label.
    pub label: String,
    /// The `keyid` parameter, when it is a string.
    pub keyid: Option<String>,
    /// The signature, verified, or the first check it failed.
    pub outcome: std::result::Result<VerifiedSignature, LabelFailure>,
    /// The signature base of the label, when its covered components could be read from the
    /// message: also for a label that failed a later check (a bad signature, an unknown key, a
    /// date), which is when an implementer compares it with the base they signed.
    pub signature_base: Option<String>,
}

/// The report of [`verify_message`](crate::verify_message): every label that was examined.
/// Labels after the first that verified are not examined (one is enough).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MessageReport {
    /// The labels examined, in `Signature-Input` order.
    pub labels: Vec<LabelReport>,
}

impl MessageReport {
    /// The first label that verified.
    pub fn verified(&self) -> Option<&VerifiedSignature> {
        self.labels.iter().find_map(|l| l.outcome.as_ref().ok())
    }

    /// Whether any label covers `content-digest` without parameters.
    pub fn covers_digest(&self) -> bool {
        self.labels.iter().any(|l| match &l.outcome {
            Ok(v) => v.params.components.iter().any(is_plain_digest),
            Err(_) => false,
        })
    }
}

/// `content-digest` without component parameters (the one whose value the verifier checks).
pub(super) fn is_plain_digest(c: &ComponentId) -> bool {
    c.name() == "content-digest" && c.params().is_empty()
}
