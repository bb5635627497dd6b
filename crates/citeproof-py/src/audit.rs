//! The audit store (`citeproof_audit`): the CLI's `--record` and `citeproof audit --db` from
//! Python. One store per object behind a mutex; every operation runs with the GIL released.
//! Values cross as JSON text, as everywhere in the package.

use std::sync::Mutex;

use citeproof_audit::{
    Access, AuditError, AuditStore, DocumentUse, Filter, Record, chain::parse_head, redact,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde_json::Value;

use crate::errors::{from_json, invalid_input, raise, to_json};

/// The members `--json` wraps a report in (`citeproof.aca.verify_snapshot_report` returns the
/// same); the store keeps the report without them, as the CLI records it.
const ENVELOPE: [&str; 2] = ["command", "ok"];

type Store = Box<dyn AuditStore + Send>;

/// An audit store: a SQLite file or a `postgres://` URL.
#[pyclass(module = "citeproof._native", name = "AuditStore", frozen)]
pub struct PyAuditStore {
    /// `None` once closed.
    store: Mutex<Option<Store>>,
    target: String,
}

impl std::fmt::Debug for PyAuditStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuditStore").finish_non_exhaustive()
    }
}

fn audit_error(py: Python<'_>, e: &AuditError) -> PyErr {
    raise(py, "AuditError", e.to_string(), e.code(), None)
}

/// JSON text of a store's answer, written without the GIL (a long listing is large).
fn json_text<T: serde::Serialize>(value: &T) -> Result<String, AuditError> {
    serde_json::to_string(value).map_err(|e| AuditError::Record(e.to_string()))
}

fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// The documents (ACA manifests, by digest) a report saw: recorded so that a later
/// verification, from Python or the CLI, finds a manifest reused across responses (ACA-L2-022).
fn documents_of(report: &Value) -> Vec<DocumentUse> {
    let text = |v: &Value, name: &str| v.get(name).and_then(Value::as_str).map(str::to_owned);
    report
        .get("manifests")
        .and_then(Value::as_array)
        .map(|ms| {
            ms.iter()
                .filter_map(|m| {
                    Some(DocumentUse {
                        url: text(m, "url")?,
                        digest: text(m, "digest")?,
                        run_id: text(m, "run_id"),
                    })
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The record of a report dict (the `--json` envelope removed; its `ok` must agree).
fn record_of(report: Value, verified_at: i64) -> Result<Record, AuditError> {
    let Value::Object(mut members) = report else {
        return Err(AuditError::Record("the report is not an object".into()));
    };
    if let Some(ok) = members.get("ok")
        && Some(ok) != members.get("verified")
    {
        return Err(AuditError::Record(
            "the report's `ok` and `verified` disagree".into(),
        ));
    }
    for name in ENVELOPE {
        members.remove(name);
    }
    let report = Value::Object(members);
    let documents =
        if report.get("spec").and_then(Value::as_str) == Some(citeproof_aca::SPEC.name()) {
            documents_of(&report)
        } else {
            Vec::new()
        };
    Ok(Record::from_report(report, unix_now(), verified_at)?.with_documents(documents))
}

fn filter_of(py: Python<'_>, filters_json: &str) -> PyResult<Filter> {
    let f = from_json(py, filters_json, "filters")?;
    let text = |name: &str| f.get(name).and_then(Value::as_str).map(str::to_owned);
    let time = |name: &str| -> PyResult<Option<i64>> {
        match f.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Number(n)) => n
                .as_i64()
                .map(Some)
                .ok_or_else(|| invalid_input(py, format!("`{name}`: not a Unix time"))),
            Some(Value::String(s)) => citeproof_audit::parse_since(s, unix_now())
                .map(Some)
                .map_err(|e| invalid_input(py, format!("`{name}`: {e}"))),
            Some(_) => Err(invalid_input(py, format!("`{name}`: a Unix time or text"))),
        }
    };
    let limit = match f.get("limit") {
        None | Some(Value::Null) => None,
        Some(v) => Some(
            v.as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| invalid_input(py, "`limit`: a count"))?,
        ),
    };
    Ok(Filter {
        since: time("since")?,
        until: time("until")?,
        spec: text("spec"),
        subject: text("subject"),
        code: text("code"),
        outcome: text("outcome"),
        limit,
    })
}

impl PyAuditStore {
    /// Runs `op` on the open store without the GIL; its error becomes `AuditError`.
    fn with<T: Send>(
        &self,
        py: Python<'_>,
        op: impl FnOnce(&mut dyn AuditStore) -> Result<T, AuditError> + Send,
    ) -> PyResult<T> {
        let result = py.detach(|| {
            let mut guard = self.store.lock().unwrap_or_else(|p| p.into_inner());
            guard.as_mut().map(|s| op(s.as_mut()))
        });
        match result {
            None => Err(raise(
                py,
                "AuditError",
                "the audit store is closed",
                "audit-closed",
                None,
            )),
            Some(r) => r.map_err(|e| audit_error(py, &e)),
        }
    }
}

#[pymethods]
impl PyAuditStore {
    /// Opens `target` (a SQLite file, created when missing unless `read_only`, or a
    /// `postgres://` URL); a file that is not a citeproof store is refused untouched.
    #[new]
    #[pyo3(signature = (target, read_only=false))]
    fn new(py: Python<'_>, target: String, read_only: bool) -> PyResult<PyAuditStore> {
        let access = if read_only {
            Access::Read
        } else {
            Access::Write
        };
        let opened = py.detach(|| citeproof_audit::open(&target, access));
        let store = opened.map_err(|e| audit_error(py, &e))?;
        Ok(PyAuditStore {
            store: Mutex::new(Some(store)),
            target,
        })
    }

    /// Records a report (JSON text of a verify function's full report) verified at
    /// `verified_at`; returns the new head as JSON text.
    fn record(&self, py: Python<'_>, report_json: &str, verified_at: i64) -> PyResult<String> {
        let parsed = py.detach(|| serde_json::from_str::<Value>(report_json));
        let report = parsed.map_err(|e| invalid_input(py, format!("report: {e}")))?;
        let record = py
            .detach(|| record_of(report, verified_at))
            .map_err(|e| audit_error(py, &e))?;
        let head = self.with(py, |s| s.record(&record))?;
        to_json(py, &head)
    }

    /// Verifies an ACA web snapshot and records it in one transaction under the store's write
    /// lock, with the manifest-reuse check (ACA-L2-022) against the store applied first, as
    /// `citeproof aca verify --snapshot FILE --record DB` does; `(report, head_json)`, the
    /// report as `citeproof.aca.verify_snapshot_report` returns it.
    #[pyo3(signature = (snapshot, now, required_level=None, allow_private=false))]
    fn record_aca_snapshot<'py>(
        &self,
        py: Python<'py>,
        snapshot: &Bound<'py, PyAny>,
        now: i64,
        required_level: Option<u8>,
        allow_private: bool,
    ) -> PyResult<(Bound<'py, PyDict>, String)> {
        let bytes = crate::checks::json_bytes(snapshot, "snapshot")?;
        let (report, head) = self.with(py, |store| {
            let mut opts = citeproof_aca::VerifyOptions::new(now);
            opts.required_level = required_level;
            opts.allow_private = allow_private;
            let mut report = citeproof_aca::verify_snapshot_bytes(bytes, &opts);
            let head =
                citeproof_audit::aca::check_and_record(store, &mut report, unix_now(), now, None)?;
            Ok((report, head))
        })?;
        let head = to_json(py, &head)?;
        Ok((crate::checks::aca_report_object(py, report)?, head))
    }

    /// Verifications matching the filters (JSON object: `since`, `until`, `spec`, `subject`,
    /// `code`, `outcome`, `limit`), newest first, as JSON text.
    fn list(&self, py: Python<'_>, filters_json: &str) -> PyResult<String> {
        let filter = filter_of(py, filters_json)?;
        self.with(py, |s| s.list(&filter).and_then(|l| json_text(&l)))
    }

    /// Counts over the verifications matching the filters, as JSON text.
    fn summary(&self, py: Python<'_>, filters_json: &str) -> PyResult<String> {
        let filter = filter_of(py, filters_json)?;
        self.with(py, |s| s.summary(&filter).and_then(|l| json_text(&l)))
    }

    /// One verification with its chain fields (`id`, `record`, `prev_hash`, `row_hash`) as
    /// JSON text, or `None`.
    fn get(&self, py: Python<'_>, id: i64) -> PyResult<Option<String>> {
        self.with(py, |store| {
            let stored = store.get(id)?;
            stored
                .map(|s| {
                    json_text(&serde_json::json!({
                        "id": s.id, "record": s.record, "prev_hash": s.prev_hash,
                        "row_hash": s.row_hash,
                    }))
                })
                .transpose()
        })
    }

    /// The newest row as JSON text, or `None` for an empty store.
    fn head(&self, py: Python<'_>) -> PyResult<Option<String>> {
        let head = self.with(py, |s| s.head())?;
        head.map(|h| to_json(py, &h)).transpose()
    }

    /// Recomputes the whole chain; `head`: a head written down earlier (`ID:sha256:HEX`) that
    /// the chain must still contain. JSON text `{"rows", "head", "broken"}`.
    #[pyo3(signature = (head=None))]
    fn verify_chain(&self, py: Python<'_>, head: Option<&str>) -> PyResult<String> {
        let expected = head
            .map(parse_head)
            .transpose()
            .map_err(|e| invalid_input(py, e))?;
        self.with(py, |s| {
            s.verify_chain(expected.as_ref())
                .and_then(|c| json_text(&c))
        })
    }

    /// Closes the store (a closed store raises `AuditError` with code `audit-closed`).
    fn close(&self, py: Python<'_>) {
        let taken = py.detach(|| self.store.lock().unwrap_or_else(|p| p.into_inner()).take());
        drop(taken);
    }

    fn __repr__(&self) -> String {
        format!("AuditStore({:?})", redact(&self.target))
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyAuditStore>()
}
