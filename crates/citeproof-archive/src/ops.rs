//! The conformance operations of this spec (docs/ADAPTER.md §5.4), for `citeproof-reference`.

use citeproof_model::protocol::{Reply, bad_input as bad, from_incidents, str_member};
use citeproof_model::spec::{Operation, Spec, SpecDescriptor};
use citeproof_model::{ContentHash, Incident};
use serde_json::Value;

use crate::log::{LogOptions, verify_log};
use crate::signature::Trust;
use crate::store::Store;
use crate::verify::verify_bundle;

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: input members, output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Archive,
    documents: &[],
    operations: &[
        Operation::new(
            "archive-verify",
            &["bundle", "display", "archive", "now"],
            &["keys", "secrets"],
            &[],
            archive_verify,
        ),
        Operation::new(
            "archive-log-verify",
            &["log", "archive", "now"],
            &["bundles", "head"],
            &[],
            archive_log_verify,
        ),
    ],
};

fn now_member(input: &Value) -> Result<i64, Reply> {
    input
        .get("now")
        .and_then(Value::as_i64)
        .ok_or_else(|| bad("`now` must be an integer (Unix seconds)"))
}

/// The archive of the input, or the reply that ends the case (a broken archive is reported).
fn store_member(input: &Value) -> Result<Store, Reply> {
    let Some(archive) = input.get("archive") else {
        return Err(bad("`archive` is required"));
    };
    match Store::load(archive) {
        (Some(store), _) => Ok(store),
        (None, findings) => Err(from_incidents(&findings.into_vec(), None)),
    }
}

fn archive_verify(input: &Value) -> Reply {
    let (bundle, display) = match (str_member(input, "bundle"), str_member(input, "display")) {
        (Ok(b), Ok(d)) => (b, d),
        (Err(r), _) | (_, Err(r)) => return r,
    };
    let now = match now_member(input) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let store = match store_member(input) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let trust = match Trust::from_json(input.get("keys"), input.get("secrets")) {
        Ok(t) => t,
        Err(incidents) => return from_incidents(&incidents, None),
    };
    let report = verify_bundle(bundle.as_bytes(), display.as_bytes(), &store, &trust, now);
    from_incidents(&report.plain_incidents(), None)
}

fn archive_log_verify(input: &Value) -> Reply {
    let log = match str_member(input, "log") {
        Ok(l) => l,
        Err(r) => return r,
    };
    let now = match now_member(input) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let store = match store_member(input) {
        Ok(s) => s,
        Err(r) => return r,
    };
    let mut bundles = Vec::new();
    if let Some(list) = input.get("bundles") {
        let Some(items) = list.as_array() else {
            return bad("`bundles` must be an array of JSON texts");
        };
        for b in items {
            match b.as_str() {
                Some(s) => bundles.push(s.as_bytes().to_vec()),
                None => return bad("`bundles` must be an array of JSON texts"),
            }
        }
    }
    let head = match input.get("head") {
        None => None,
        Some(h) => {
            let seq = h.get("seq").and_then(Value::as_u64);
            let hash = h
                .get("hash")
                .and_then(Value::as_str)
                .and_then(|s| s.parse::<ContentHash>().ok());
            match (seq, hash) {
                (Some(s), Some(h)) => Some((s, h)),
                _ => return bad("`head` must be {\"seq\": integer, \"hash\": \"sha256:…\"}"),
            }
        }
    };
    let report = verify_log(log.as_bytes(), &store, &bundles, &LogOptions { now, head });
    let incidents: Vec<Incident> = report.plain_incidents();
    from_incidents(&incidents, None)
}
