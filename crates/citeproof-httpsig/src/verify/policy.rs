//! What the caller decides: the verification policy, and how `keyid`s become keys.

use ed25519_dalek::VerifyingKey;

use crate::component::ComponentId;
use crate::params::ParamName;

/// Clock skew tolerated by default for `created` and `expires`, in seconds.
pub const DEFAULT_CLOCK_SKEW: u64 = 300;

/// Why a `keyid` gives no key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyMiss {
    /// No usable key has this id; the text says why.
    Unresolved(String),
    /// The keys could not be read, or the key with this id is unusable, for a reason the caller
    /// has already reported: the label fails without a finding of its own.
    AlreadyReported,
}

/// How `keyid`s become keys (the caller's trust decision: a key set it chose).
pub trait KeyResolver {
    /// The one usable key for `keyid` (`None` when the signature has no `keyid`).
    fn resolve(&self, keyid: Option<&str>) -> std::result::Result<VerifyingKey, KeyMiss>;
}

/// One key for every `keyid`: what a caller that was handed a single public key uses.
#[derive(Debug, Clone, Copy)]
pub struct SingleKey(pub VerifyingKey);

impl KeyResolver for SingleKey {
    fn resolve(&self, _: Option<&str>) -> std::result::Result<VerifyingKey, KeyMiss> {
        Ok(self.0)
    }
}

/// What a verifier requires beyond a valid signature (RFC 9421 §1.4, §3.2.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyPolicy {
    /// Components every accepted signature covers, without component parameters.
    pub required_components: Vec<ComponentId>,
    /// Signature parameters every accepted signature carries.
    pub required_params: Vec<ParamName>,
    /// Tolerance in seconds for `created` in the future and `expires` in the past.
    pub max_clock_skew: u64,
    /// Maximum age of `created` in seconds (`None`: no limit): a `created` earlier than
    /// `now - max_age` fails.
    pub max_age: Option<u64>,
    /// Earliest acceptable `created` (Unix seconds), for example the emission time of what the
    /// signature signs minus the skew.
    pub not_before: Option<i64>,
    /// When a label covers `content-digest` (without parameters) and the field is present,
    /// check it against the content before accepting the label (RFC 9530).
    pub check_content_digest: bool,
}

impl Default for VerifyPolicy {
    fn default() -> Self {
        VerifyPolicy {
            required_components: Vec::new(),
            required_params: Vec::new(),
            max_clock_skew: DEFAULT_CLOCK_SKEW,
            max_age: None,
            not_before: None,
            check_content_digest: true,
        }
    }
}
