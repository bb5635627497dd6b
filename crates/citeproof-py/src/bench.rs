//! Helpers of the package's benchmark (benches/python_verify.py), underscore-named: a signed
//! synthetic run of any size as a web snapshot (the generator of `cargo xtask bench`), and the
//! time of the Rust verification alone on a snapshot, measured inside this process with the GIL
//! released, to compare a Python call with.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use citeproof_aca::sign::synthetic::{SyntheticSpec, build_synthetic_run};
use citeproof_jose::SigningKey;
use pyo3::prelude::*;

use crate::errors::{invalid_input, to_json};

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    add_functions!(
        m,
        _synthetic_snapshot,
        _time_verify_snapshot,
        _time_report_phases,
        _time_report_builds,
        _time_verify_threads
    );
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

/// Where one `citeproof.aca.verify_snapshot_report` call spends its time, read on `clock` (a
/// Python callable returning seconds: `time.perf_counter` for wall time, `time.thread_time`
/// for this thread's CPU time): `(verify, build, drop)`: the verification (without the GIL),
/// the building of the dict from the report (the only part that holds the GIL), and the
/// dropping of the Rust report (without the GIL). The dict built is freed after the timing.
#[pyfunction]
fn _time_report_phases(
    py: Python<'_>,
    snapshot_json: &str,
    now: i64,
    clock: &Bound<'_, PyAny>,
) -> PyResult<(f64, f64, f64)> {
    let read = || -> PyResult<f64> { clock.call0()?.extract() };
    let bytes = snapshot_json.as_bytes();
    let t0 = read()?;
    let report = py.detach(|| {
        citeproof_aca::verify_snapshot_bytes(bytes, &citeproof_aca::VerifyOptions::new(now))
    });
    let t1 = read()?;
    let built = crate::checks::aca_report_dict(py, &report)?;
    let t2 = read()?;
    drop(built);
    let t3 = read()?;
    py.detach(move || drop(report));
    let t4 = read()?;
    Ok((t1 - t0, t2 - t1, t4 - t3))
}

/// The times, read on `clock`, of `repeats` buildings of the report dict from one verification
/// of `snapshot_json` (each dict freed before the next is built).
#[pyfunction]
fn _time_report_builds(
    py: Python<'_>,
    snapshot_json: &str,
    now: i64,
    repeats: usize,
    clock: &Bound<'_, PyAny>,
) -> PyResult<Vec<f64>> {
    let read = || -> PyResult<f64> { clock.call0()?.extract() };
    let bytes = snapshot_json.as_bytes();
    let report = py.detach(|| {
        citeproof_aca::verify_snapshot_bytes(bytes, &citeproof_aca::VerifyOptions::new(now))
    });
    let mut times = Vec::with_capacity(repeats);
    for _ in 0..repeats {
        let t = read()?;
        let built = crate::checks::aca_report_dict(py, &report)?;
        times.push(read()? - t);
        drop(built);
    }
    py.detach(move || drop(report));
    Ok(times)
}

/// Seconds of `jobs` verifications of `snapshot_json` (each report dropped) shared by `threads`
/// Rust threads, without Python and without the GIL: what the machine itself gives a second
/// thread, the ceiling of the thread-pool figure measured through the package.
#[pyfunction]
fn _time_verify_threads(
    py: Python<'_>,
    snapshot_json: &str,
    now: i64,
    jobs: usize,
    threads: usize,
) -> f64 {
    let bytes = snapshot_json.as_bytes();
    py.detach(|| {
        let next = AtomicUsize::new(0);
        let t = Instant::now();
        std::thread::scope(|scope| {
            for _ in 0..threads.max(1) {
                scope.spawn(|| {
                    let opts = citeproof_aca::VerifyOptions::new(now);
                    while next.fetch_add(1, Ordering::Relaxed) < jobs {
                        drop(citeproof_aca::verify_snapshot_bytes(bytes, &opts));
                    }
                });
            }
        });
        t.elapsed().as_secs_f64()
    })
}
