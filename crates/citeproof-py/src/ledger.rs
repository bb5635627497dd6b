//! The attribution ledger of seed 003 (`citeproof_ledger::AttributionLedger`): claims registered
//! at the tool boundary with the bytes they come from, the coverage gate, the ledger document,
//! the JSONL audit records, the seed's `export_for_api` and the ACA manifest of the run (byte
//! offsets and hashes computed from the captured bytes).

use citeproof_aca::sign::StepInputs;
use citeproof_ledger::{
    AttributionLedger, CaptureId, CaptureSpec, ClaimInput, Clock, Excerpt, LedgerConfig,
    LedgerError, RunId, SteppingClock, SystemClock, ToolCallId,
};
use citeproof_model::aca::Confidence;
use citeproof_model::primitives::Timestamp;
use pyo3::prelude::*;
use serde_json::Value;

use crate::errors::{from_json, invalid_input, raise, to_json};

fn ledger_error(py: Python<'_>, e: &LedgerError) -> PyErr {
    raise(py, "LedgerError", e.to_string(), e.code(), None)
}

/// The ledger of one agent run. Tool calls and captures are handed out as integers.
#[derive(Debug)]
#[pyclass(module = "citeproof._native", name = "Ledger")]
pub struct PyLedger {
    inner: AttributionLedger,
    calls: Vec<ToolCallId>,
    captures: Vec<CaptureId>,
}

fn object(py: Python<'_>, text: &str, what: &str) -> PyResult<serde_json::Map<String, Value>> {
    match from_json(py, text, what)? {
        Value::Object(m) => Ok(m),
        _ => Err(invalid_input(py, format!("{what} must be an object"))),
    }
}

#[pymethods]
impl PyLedger {
    #[new]
    #[pyo3(signature = (run_id=None, mode="strict", threshold=None, clock_start=None, clock_step=1))]
    fn new(
        py: Python<'_>,
        run_id: Option<&str>,
        mode: &str,
        threshold: Option<f64>,
        clock_start: Option<i64>,
        clock_step: i64,
    ) -> PyResult<PyLedger> {
        let e = |err: LedgerError| ledger_error(py, &err);
        let config = match (mode, threshold) {
            ("strict", None) => LedgerConfig::strict(),
            ("strict", Some(1.0)) => LedgerConfig::strict(),
            ("strict", Some(t)) => {
                return Err(invalid_input(
                    py,
                    format!("strict mode requires a threshold of 1.0, not {t} (LEDGER-005)"),
                ));
            }
            ("lenient", None) => LedgerConfig::lenient_default(),
            ("lenient", Some(t)) => LedgerConfig::lenient(t).map_err(e)?,
            (other, _) => {
                return Err(invalid_input(
                    py,
                    format!("mode must be `strict` or `lenient`, not `{other}`"),
                ));
            }
        };
        let run_id = match run_id {
            Some(id) => RunId::new(id).map_err(e)?,
            None => RunId::random().map_err(e)?,
        };
        let clock: Box<dyn Clock> = match clock_start {
            Some(start) => Box::new(SteppingClock::new(start, clock_step)),
            None => Box::new(SystemClock),
        };
        Ok(PyLedger {
            inner: AttributionLedger::new(config, run_id, clock),
            calls: Vec::new(),
            captures: Vec::new(),
        })
    }

    #[getter]
    fn run_id(&self) -> String {
        self.inner.run_id().as_str().to_owned()
    }

    /// Records a tool call; returns its handle.
    #[pyo3(signature = (tool, inputs_json=None, private=false, inputs_from=Vec::new()))]
    fn tool_call(
        &mut self,
        py: Python<'_>,
        tool: &str,
        inputs_json: Option<&str>,
        private: bool,
        inputs_from: Vec<usize>,
    ) -> PyResult<usize> {
        let inputs = match inputs_json {
            None => StepInputs::None,
            Some(text) if private => StepInputs::Private(object(py, text, "inputs")?),
            Some(text) => StepInputs::Public(object(py, text, "inputs")?),
        };
        let mut from = Vec::with_capacity(inputs_from.len());
        for h in inputs_from {
            from.push(
                self.calls
                    .get(h)
                    .ok_or_else(|| invalid_input(py, format!("no tool call {h}")))?,
            );
        }
        let id = self
            .inner
            .tool_call(tool, inputs, &from)
            .map_err(|e| ledger_error(py, &e))?;
        self.calls.push(id);
        Ok(self.calls.len() - 1)
    }

    /// Captures the bytes a tool call fetched from `url`; returns the capture's handle.
    #[pyo3(signature = (call, url, body, category="web_fetch", fetched_at=None, identifier=None, metadata_json=None))]
    #[allow(clippy::too_many_arguments)]
    fn capture(
        &mut self,
        py: Python<'_>,
        call: usize,
        url: &str,
        body: &[u8],
        category: &str,
        fetched_at: Option<&str>,
        identifier: Option<String>,
        metadata_json: Option<&str>,
    ) -> PyResult<usize> {
        let call = self
            .calls
            .get(call)
            .ok_or_else(|| invalid_input(py, format!("no tool call {call}")))?
            .clone();
        let fetched_at = match fetched_at {
            Some(t) => Some(
                Timestamp::parse(t).map_err(|r| invalid_input(py, format!("fetched_at: {r}")))?,
            ),
            None => None,
        };
        let metadata = match metadata_json {
            Some(m) => Some(object(py, m, "metadata")?),
            None => None,
        };
        let spec = CaptureSpec {
            url: url.to_owned(),
            body: body.to_vec(),
            category: category.to_owned(),
            identifier,
            fetched_at,
            metadata,
        };
        let id = self
            .inner
            .capture_with(&call, spec)
            .map_err(|e| ledger_error(py, &e))?;
        self.captures.push(id);
        Ok(self.captures.len() - 1)
    }

    /// Registers a claim; returns its claim id. With a capture, exactly one of `quote` (text
    /// found once in the captured bytes) or `start`/`end` (byte offsets) locates the excerpt.
    #[pyo3(signature = (text, capture=None, quote=None, start=None, end=None, requires_attribution=true, claim_id=None, confidence=None))]
    #[allow(clippy::too_many_arguments)]
    fn register(
        &mut self,
        py: Python<'_>,
        text: &str,
        capture: Option<usize>,
        quote: Option<&str>,
        start: Option<u64>,
        end: Option<u64>,
        requires_attribution: bool,
        claim_id: Option<&str>,
        confidence: Option<&str>,
    ) -> PyResult<String> {
        let mut input = match capture {
            None => {
                if quote.is_some() || start.is_some() || end.is_some() {
                    return Err(invalid_input(py, "an excerpt needs a capture"));
                }
                ClaimInput::unattributed(text, requires_attribution)
            }
            Some(c) => {
                let cap = *self
                    .captures
                    .get(c)
                    .ok_or_else(|| invalid_input(py, format!("no capture {c}")))?;
                let excerpt = match (quote, start, end) {
                    (Some(q), None, None) => Excerpt::quote(q),
                    (None, Some(start), Some(end)) => Excerpt::Bytes { start, end },
                    _ => {
                        return Err(invalid_input(
                            py,
                            "give either `quote` or both `start` and `end`",
                        ));
                    }
                };
                let mut i = ClaimInput::attributed(text, cap, excerpt);
                i.requires_attribution = requires_attribution;
                i
            }
        };
        if let Some(id) = claim_id {
            input = input.with_id(id);
        }
        if let Some(c) = confidence {
            let c: Confidence =
                serde_json::from_value(Value::String(c.to_owned())).map_err(|_| {
                    invalid_input(
                        py,
                        format!("confidence must be high, medium or low, not `{c}`"),
                    )
                })?;
            input = input.with_confidence(c);
        }
        self.inner.register(input).map_err(|e| ledger_error(py, &e))
    }

    /// The seed's `audit_coverage()`: coverage of the claims registered so far, as JSON text.
    fn audit_coverage(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, &self.inner.audit())
    }

    /// The coverage gate: the coverage as JSON text, or `LedgerError` (code
    /// `ledger-coverage-below-threshold`) when the response must not be emitted.
    fn gate(&self, py: Python<'_>) -> PyResult<String> {
        let report = self.inner.gate().map_err(|e| ledger_error(py, &e))?;
        to_json(py, &report)
    }

    /// The ledger document of an emitted response (LEDGER-001), as JSON text.
    fn to_document(&self, py: Python<'_>) -> PyResult<String> {
        let doc = self.inner.to_document().map_err(|e| ledger_error(py, &e))?;
        to_json(py, &doc)
    }

    /// The ledger document of a refused response, as JSON text.
    fn document_of_refused(&self, py: Python<'_>) -> PyResult<String> {
        let doc = self
            .inner
            .document_of_refused()
            .map_err(|e| ledger_error(py, &e))?;
        to_json(py, &doc)
    }

    /// The seed's `export_for_api()` dictionary, as JSON text.
    fn export_for_api(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, &self.inner.export_for_api())
    }

    /// The JSONL audit records of the run (one JCS line per claim), as text to append to an
    /// audit file.
    fn export_audit_log(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = Vec::new();
        self.inner
            .write_audit_jsonl(&mut out)
            .map_err(|e| ledger_error(py, &e))?;
        String::from_utf8(out).map_err(|e| invalid_input(py, e.to_string()))
    }

    /// The ACA manifest of the run after the coverage gate, as JSON text.
    #[pyo3(signature = (agent_id, with_chain=true))]
    fn build_manifest(&self, py: Python<'_>, agent_id: &str, with_chain: bool) -> PyResult<String> {
        let m = self
            .inner
            .build_manifest(agent_id, with_chain)
            .map_err(|e| ledger_error(py, &e))?;
        to_json(py, &m)
    }

    fn __repr__(&self) -> String {
        format!("{:?}", self.inner)
    }
}
