//! The conformance operations of the ledger (docs/ADAPTER.md), for `citeproof-reference`.

use citeproof_model::protocol::OperationFn;

/// Operation name and implementation, in document order.
pub const OPERATIONS: &[(&str, OperationFn)] = &[];
