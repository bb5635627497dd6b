//! Helpers of the package's benchmark (benches/python_verify.py), underscore-named: a signed
//! synthetic run of any size as a web snapshot (the generator of `cargo xtask bench`), and the
//! time of the Rust verification alone on a snapshot, measured inside this process with the GIL
//! released, to compare a Python call with.

use std::time::Instant;

use citeproof_aca::sign::synthetic::{SyntheticSpec, build_synthetic_run};
use citeproof_jose::SigningKey;
use pyo3::prelude::*;

use crate::errors::{invalid_input, to_json};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(_synthetic_snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(_time_verify_snapshot, m)?)?;
    m.add(
        "SYNTHETIC_NOW",
        citeproof_aca::sign::synthetic::SYNTHETIC_NOW,
    )?;
    Ok(())
}

/// A signed Level 3 run of `claims` claims over `sources` sources (one manifest), as the JSON
/// text of a web snapshot; verify it at `SYNTHETIC_NOW`.
#[pyfunction]
fn _synthetic_snapshot(py: Python<'_>, claims: usize, sources: usize) -> PyResult<String> {
    let spec = SyntheticSpec {
        sources,
        ..SyntheticSpec::new(claims)
    };
    let key = SigningKey::from_secret_bytes(&[42u8; 32]);
    let run = py
        .detach(|| build_synthetic_run(&spec, &key))
        .map_err(|e| invalid_input(py, e.to_string()))?;
    let snapshot = run
        .snapshot()
        .map_err(|e| invalid_input(py, e.to_string()))?;
    to_json(py, &snapshot)
}

/// Seconds of `citeproof_aca::verify_snapshot_bytes` on `snapshot_json` (best of `repeats`),
/// and the level it reached.
#[pyfunction]
fn _time_verify_snapshot(
    py: Python<'_>,
    snapshot_json: &str,
    now: i64,
    repeats: usize,
) -> (f64, u8) {
    let bytes = snapshot_json.as_bytes();
    py.detach(|| {
        let opts = citeproof_aca::VerifyOptions::new(now);
        let mut best = f64::INFINITY;
        let mut level = 0;
        for _ in 0..repeats.max(1) {
            let t = Instant::now();
            let report = citeproof_aca::verify_snapshot_bytes(bytes, &opts);
            best = best.min(t.elapsed().as_secs_f64());
            level = report.verdict.level;
        }
        (best, level)
    })
}
