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
use std::sync::Mutex;

use pyo3::prelude::*;
use serde_json::Value;

use crate::errors::{from_json, invalid_input, raise, to_json};

fn ledger_error(py: Python<'_>, e: &LedgerError) -> PyErr {
    raise(py, "LedgerError", e.to_string(), e.code(), None)
}

fn internal(py: Python<'_>, e: &serde_json::Error) -> PyErr {
    raise(py, "CiteproofError", e.to_string(), "internal", None)
}

/// The ledger of one agent run. Tool calls and captures are handed out as integers. Every
/// method runs without the GIL, one at a time (threads of one agent run may share a ledger).
#[derive(Debug)]
#[pyclass(module = "citeproof._native", name = "Ledger", frozen)]
pub struct PyLedger {
    state: Mutex<State>,
}

#[derive(Debug)]
struct State {
    inner: AttributionLedger,
    calls: Vec<ToolCallId>,
    captures: Vec<CaptureId>,
}

/// Why a ledger method refused, found without the GIL.
enum Refused {
    Input(String),
    Ledger(LedgerError),
}

impl Refused {
    fn into_py(self, py: Python<'_>) -> PyErr {
        match self {
            Refused::Input(m) => invalid_input(py, m),
            Refused::Ledger(e) => ledger_error(py, &e),
        }
    }
}

impl From<LedgerError> for Refused {
    fn from(e: LedgerError) -> Self {
        Refused::Ledger(e)
    }
}

impl PyLedger {
    /// Runs `op` on the ledger without the GIL. The lock is taken without the GIL too: a thread
    /// waiting for the ledger must not hold the GIL the thread holding it needs to return.
    fn with<T: Send>(&self, py: Python<'_>, op: impl FnOnce(&mut State) -> T + Send) -> T {
        py.detach(|| {
            let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
            op(&mut state)
        })
    }
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
            state: Mutex::new(State {
                inner: AttributionLedger::new(config, run_id, clock),
                calls: Vec::new(),
                captures: Vec::new(),
            }),
        })
    }

    #[getter]
    fn run_id(&self, py: Python<'_>) -> String {
        self.with(py, |s| s.inner.run_id().as_str().to_owned())
    }

    /// Records a tool call; returns its handle.
    #[pyo3(signature = (tool, inputs_json=None, private=false, inputs_from=Vec::new()))]
    fn tool_call(
        &self,
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
        self.with(py, |s| {
            let mut from = Vec::with_capacity(inputs_from.len());
            for h in inputs_from {
                let call = s.calls.get(h);
                from.push(call.ok_or_else(|| Refused::Input(format!("no tool call {h}")))?);
            }
            let id = s.inner.tool_call(tool, inputs, &from)?;
            s.calls.push(id);
            Ok(s.calls.len() - 1)
        })
        .map_err(|e: Refused| e.into_py(py))
    }

    /// Captures the bytes a tool call fetched from `url`; returns the capture's handle.
    #[pyo3(signature = (call, url, body, category="web_fetch", fetched_at=None, identifier=None, metadata_json=None))]
    #[allow(clippy::too_many_arguments)]
    fn capture(
        &self,
        py: Python<'_>,
        call: usize,
        url: &str,
        body: &[u8],
        category: &str,
        fetched_at: Option<&str>,
        identifier: Option<String>,
        metadata_json: Option<&str>,
    ) -> PyResult<usize> {
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
        self.with(py, |s| {
            let handle = call;
            let call = s.calls.get(handle).cloned();
            let call = call.ok_or_else(|| Refused::Input(format!("no tool call {handle}")))?;
            let spec = CaptureSpec {
                url: url.to_owned(),
                body: body.to_vec(),
                category: category.to_owned(),
                identifier,
                fetched_at,
                metadata,
            };
            let id = s.inner.capture_with(&call, spec)?;
            s.captures.push(id);
            Ok(s.captures.len() - 1)
        })
        .map_err(|e: Refused| e.into_py(py))
    }

    /// Registers a claim; returns its claim id. With a capture, exactly one of `quote` (text
    /// found once in the captured bytes) or `start`/`end` (byte offsets) locates the excerpt.
    #[pyo3(signature = (text, capture=None, quote=None, start=None, end=None, requires_attribution=true, claim_id=None, confidence=None))]
    #[allow(clippy::too_many_arguments)]
    fn register(
        &self,
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
        let excerpt = match (capture, quote, start, end) {
            (None, None, None, None) => None,
            (None, ..) => return Err(invalid_input(py, "an excerpt needs a capture")),
            (Some(c), Some(q), None, None) => Some((c, Excerpt::quote(q))),
            (Some(c), None, Some(start), Some(end)) => Some((c, Excerpt::Bytes { start, end })),
            (Some(_), ..) => {
                return Err(invalid_input(
                    py,
                    "give either `quote` or both `start` and `end`",
                ));
            }
        };
        let confidence = match confidence {
            None => None,
            Some(c) => Some(
                serde_json::from_value::<Confidence>(Value::String(c.to_owned())).map_err(
                    |_| {
                        invalid_input(
                            py,
                            format!("confidence must be high, medium or low, not `{c}`"),
                        )
                    },
                )?,
            ),
        };
        // Locating a quote in a large capture: without the GIL.
        self.with(py, |s| {
            let mut input = match excerpt {
                None => ClaimInput::unattributed(text, requires_attribution),
                Some((c, excerpt)) => {
                    let cap = s.captures.get(c).copied();
                    let cap = cap.ok_or_else(|| Refused::Input(format!("no capture {c}")))?;
                    let mut i = ClaimInput::attributed(text, cap, excerpt);
                    i.requires_attribution = requires_attribution;
                    i
                }
            };
            if let Some(id) = claim_id {
                input = input.with_id(id);
            }
            if let Some(c) = confidence {
                input = input.with_confidence(c);
            }
            Ok(s.inner.register(input)?)
        })
        .map_err(|e: Refused| e.into_py(py))
    }

    /// The seed's `audit_coverage()`: coverage of the claims registered so far, as JSON text.
    fn audit_coverage(&self, py: Python<'_>) -> PyResult<String> {
        let text = self.with(py, |s| serde_json::to_string(&s.inner.audit()));
        text.map_err(|e| internal(py, &e))
    }

    /// The coverage gate: the coverage as JSON text, or `LedgerError` (code
    /// `ledger-coverage-below-threshold`) when the response must not be emitted.
    fn gate(&self, py: Python<'_>) -> PyResult<String> {
        let report = self
            .with(py, |s| s.inner.gate())
            .map_err(|e| ledger_error(py, &e))?;
        to_json(py, &report)
    }

    /// The ledger document of an emitted response (LEDGER-001), as JSON text.
    fn to_document(&self, py: Python<'_>) -> PyResult<String> {
        let doc = self.with(py, |s| {
            s.inner.to_document().map(|d| serde_json::to_string(&d))
        });
        doc.map_err(|e| ledger_error(py, &e))?
            .map_err(|e| internal(py, &e))
    }

    /// The ledger document of a refused response, as JSON text.
    fn document_of_refused(&self, py: Python<'_>) -> PyResult<String> {
        let doc = self.with(py, |s| {
            s.inner
                .document_of_refused()
                .map(|d| serde_json::to_string(&d))
        });
        doc.map_err(|e| ledger_error(py, &e))?
            .map_err(|e| internal(py, &e))
    }

    /// The seed's `export_for_api()` dictionary, as JSON text.
    fn export_for_api(&self, py: Python<'_>) -> PyResult<String> {
        let text = self.with(py, |s| serde_json::to_string(&s.inner.export_for_api()));
        text.map_err(|e| internal(py, &e))
    }

    /// The JSONL audit records of the run (one JCS line per claim), as text to append to an
    /// audit file.
    fn export_audit_log(&self, py: Python<'_>) -> PyResult<String> {
        let mut out = Vec::new();
        self.with(py, |s| s.inner.write_audit_jsonl(&mut out))
            .map_err(|e| ledger_error(py, &e))?;
        String::from_utf8(out).map_err(|e| invalid_input(py, e.to_string()))
    }

    /// The ACA manifest of the run after the coverage gate, as JSON text.
    #[pyo3(signature = (agent_id, with_chain=true))]
    fn build_manifest(&self, py: Python<'_>, agent_id: &str, with_chain: bool) -> PyResult<String> {
        let m = self.with(py, |s| {
            s.inner
                .build_manifest(agent_id, with_chain)
                .map(|m| serde_json::to_string(&m))
        });
        m.map_err(|e| ledger_error(py, &e))?
            .map_err(|e| internal(py, &e))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        self.with(py, |s| format!("{:?}", s.inner))
    }
}
