//! Why the gate refused to assemble a bundle, as a registered incident code and a pointer into
//! the gate request: the CLI and the Python package report the same refusal the same way.

use citeproof_model::archive::GateRequest;
use citeproof_model::{Incident, IncidentCode, Location};

/// Why the gate refused to assemble a bundle.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("no snapshot of the archive is in force at {0}")]
    NoSnapshotInForce(String),
    #[error("tier `{0}` is not defined by the policy in force")]
    TierUnknown(String),
    #[error("claim id `{0}` is used twice")]
    DuplicateClaimId(String),
    #[error("a category refusal has no claims (the archive is never queried)")]
    CategoryWithClaims,
    #[error("the bundle would be signed at {signed_at}, before its created_at {created_at}")]
    SignedBeforeCreated {
        signed_at: String,
        created_at: String,
    },
    #[error("claim `{claim_id}`: citation {index} does not verify: [{code}] {message}")]
    Citation {
        claim_id: String,
        index: usize,
        code: IncidentCode,
        message: String,
    },
    #[error("claim `{0}`: even the neutral wording would reveal restricted archive text")]
    Reveals(String),
    #[error("claim `{0}`: a general-context claim has no citations")]
    GeneralContextCited(String),
}

impl BuildError {
    /// The registry code of the rule the request breaks; a citation that does not verify keeps
    /// the code its check raised.
    pub fn code(&self) -> IncidentCode {
        match self {
            BuildError::NoSnapshotInForce(_) => IncidentCode::ArchiveVersionNotInForce,
            BuildError::TierUnknown(_) => IncidentCode::ArchiveTierUnknown,
            BuildError::DuplicateClaimId(_) => IncidentCode::ArchiveClaimIdDuplicate,
            BuildError::CategoryWithClaims => IncidentCode::ArchiveRefusalInvalid,
            BuildError::SignedBeforeCreated { .. } => IncidentCode::ArchiveTimeInvalid,
            BuildError::Citation { code, .. } => *code,
            BuildError::Reveals(_) => IncidentCode::ArchiveRestrictedTextShown,
            BuildError::GeneralContextCited(_) => IncidentCode::ArchiveGeneralContextInvalid,
        }
    }

    /// Where in `request` (RFC 6901) the refusal points, when it is one place.
    pub fn pointer(&self, request: &GateRequest) -> Option<String> {
        let claim_at = |id: &str| request.claims.iter().position(|c| c.claim_id == id);
        let claim_pointer = |id: &str| claim_at(id).map(|i| format!("/claims/{i}"));
        match self {
            BuildError::NoSnapshotInForce(_) => None,
            BuildError::TierUnknown(_) => Some("/tier".into()),
            // The second use is the duplicate.
            BuildError::DuplicateClaimId(id) => request
                .claims
                .iter()
                .enumerate()
                .filter(|(_, c)| &c.claim_id == id)
                .nth(1)
                .map(|(i, _)| format!("/claims/{i}/claim_id")),
            BuildError::CategoryWithClaims => Some("/category_refusal".into()),
            BuildError::SignedBeforeCreated { .. } => Some("/created_at".into()),
            BuildError::Citation {
                claim_id, index, ..
            } => claim_pointer(claim_id).map(|p| format!("{p}/citations/{index}")),
            BuildError::Reveals(id) | BuildError::GeneralContextCited(id) => claim_pointer(id),
        }
    }

    /// The refusal as an incident about `request`.
    pub fn to_incident(&self, request: &GateRequest) -> Incident {
        let location = self
            .pointer(request)
            .map(Location::pointer)
            .unwrap_or_default();
        Incident::new(self.code(), self.to_string(), location)
    }
}
