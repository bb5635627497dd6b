//! The conformance operations of this spec (docs/ADAPTER.md §5.4), for `citeproof-reference`.
//! Each operation reads its input into one typed struct.

use citeproof_model::operation_input;
use citeproof_model::protocol::{Reply, from_incidents};
use citeproof_model::spec::{Operation, OperationInput, Optional, Spec, SpecDescriptor};
use citeproof_model::{ContentHash, Incident};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::log::{LogOptions, verify_log};
use crate::signature::Trust;
use crate::store::Store;
use crate::verify::verify_bundle;

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: the typed input, the output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Archive,
    documents: &[],
    operations: &[
        Operation::new::<ArchiveVerify>(&[]),
        Operation::new::<ArchiveLogVerify>(&[]),
    ],
};

/// The archive of the input, or the reply that ends the case (a broken archive is reported).
fn load_store(archive: &Value) -> Result<Store, Reply> {
    match Store::load(archive) {
        (Some(store), _) => Ok(store),
        (None, findings) => Err(from_incidents(&findings.into_vec(), None)),
    }
}

operation_input! {
    /// `archive-verify`: the raw texts of a bundle and its display view, the archive, the time, and
    /// the trusted keys and secrets (judged by the verifier: a malformed one is a finding).
    struct ArchiveVerify = "archive-verify" {
        bundle: String,
        display: String,
        archive: Value,
        /// Unix seconds.
        now: i64,
        #[serde(default)]
        keys: Optional<Value>,
        #[serde(default)]
        secrets: Optional<Value>,
    }
}

impl OperationInput for ArchiveVerify {
    fn run(self) -> Reply {
        let store = match load_store(&self.archive) {
            Ok(s) => s,
            Err(r) => return r,
        };
        let trust = match Trust::from_json(self.keys.0.as_ref(), self.secrets.0.as_ref()) {
            Ok(t) => t,
            Err(incidents) => return from_incidents(&incidents, None),
        };
        let report = verify_bundle(
            self.bundle.as_bytes(),
            self.display.as_bytes(),
            &store,
            &trust,
            self.now,
        );
        from_incidents(&report.plain_incidents(), None)
    }
}

operation_input! {
    /// `archive-log-verify`: the raw text of a bundle log, the archive, the time, the logged
    /// bundles' raw texts and a head obtained earlier.
    struct ArchiveLogVerify = "archive-log-verify" {
        log: String,
        archive: Value,
        /// Unix seconds.
        now: i64,
        #[serde(default)]
        bundles: Optional<Vec<String>>,
        #[serde(default)]
        head: Optional<Head>,
    }
}

/// A log head obtained independently (ARCHIVE-026).
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Head {
    seq: u64,
    hash: ContentHash,
}

impl OperationInput for ArchiveLogVerify {
    fn run(self) -> Reply {
        let store = match load_store(&self.archive) {
            Ok(s) => s,
            Err(r) => return r,
        };
        let bundles: Vec<Vec<u8>> = self
            .bundles
            .0
            .unwrap_or_default()
            .into_iter()
            .map(String::into_bytes)
            .collect();
        let options = LogOptions {
            now: self.now,
            head: self.head.0.map(|h| (h.seq, h.hash)),
        };
        let report = verify_log(self.log.as_bytes(), &store, &bundles, &options);
        let incidents: Vec<Incident> = report.plain_incidents();
        from_incidents(&incidents, None)
    }
}
