//! Agent Citation Attribution operations. Implemented: `aca-manifest-validate`,
//! `aca-discovery-validate` (document validation). Pending (announced in docs/ADAPTER.md, not
//! yet in the table): `aca-header-parse`, `aca-header-emit`, `aca-verify-snapshot`,
//! `aca-manifest-sign`, `httpsig-verify`.

use citeproof_schema::DocumentKind;
use serde_json::Value;

use super::{OperationFn, validate_document_input};
use crate::protocol::Reply;

pub(super) const OPERATIONS: &[(&str, OperationFn)] = &[
    ("aca-manifest-validate", manifest_validate),
    ("aca-discovery-validate", discovery_validate),
];

fn manifest_validate(input: &Value) -> Reply {
    validate_document_input(DocumentKind::AcaManifest, input)
}

fn discovery_validate(input: &Value) -> Reply {
    validate_document_input(DocumentKind::AcaDiscovery, input)
}
