//! Offline web snapshot: the agent response and every URL's stored response, so a verification
//! can be reproduced without a network. The conformance vectors use the same shape.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "citeproof web snapshot")]
pub struct WebSnapshot {
    #[schemars(extend("const" = 1))]
    pub snapshot_version: u32,
    /// The agent response that carries `Citation-Source`.
    pub response: SnapshotResponse,
    /// Stored responses by absolute URL (manifests, sources, discovery, key sets).
    #[serde(default)]
    pub resources: BTreeMap<String, StoredResponse>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SnapshotResponse {
    pub url: String,
    #[schemars(range(min = 100, max = 599))]
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body_base64: String,
}

impl SnapshotResponse {
    /// The response without its URL.
    pub fn stored(&self) -> StoredResponse {
        StoredResponse {
            status: self.status,
            headers: self.headers.clone(),
            body_base64: self.body_base64.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StoredResponse {
    #[schemars(range(min = 100, max = 599))]
    pub status: u16,
    /// Header fields in order, `[name, value]`; names compare case-insensitively.
    pub headers: Vec<(String, String)>,
    /// The body bytes, standard base64 with padding.
    pub body_base64: String,
}

impl StoredResponse {
    /// Values of every field named `name` (case-insensitive), in order.
    pub fn header_values<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}
