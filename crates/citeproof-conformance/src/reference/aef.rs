//! AI Evidence Format operations. Implemented: `aef-validate` (Level 1 document validation).
//! Pending (announced in docs/ADAPTER.md, not yet in the table): `aef-verify-span`,
//! `aef-jws-sign`, `aef-jws-verify`, `aef-verify`.

use citeproof_schema::DocumentKind;
use serde_json::Value;

use super::{OperationFn, validate_document_input};
use crate::protocol::Reply;

pub(super) const OPERATIONS: &[(&str, OperationFn)] = &[("aef-validate", aef_validate)];

fn aef_validate(input: &Value) -> Reply {
    validate_document_input(DocumentKind::AefEvidence, input)
}

