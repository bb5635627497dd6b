//! `citeproof._native`: the Rust side of the Python package `citeproof`.
//!
//! Every function here is a thin conversion layer over the spec crates (the same functions the
//! CLI and the reference implementation call), so Python and the CLI cannot disagree. Structured
//! values cross the boundary as JSON text (the pure-Python layer `citeproof/*.py` turns them into
//! dicts and documents the types), except the large ACA report, built straight into Python
//! objects (`pyobjects.rs`); bytes stay bytes. Work that may take long runs with the GIL
//! released (`Python::detach`). Errors are raised as the classes of `citeproof.errors`, each with
//! a stable `code` (an incident code of the registry where there is one) and a `location`.
//! Nothing here opens a connection: verification reads only what the caller passes.

use pyo3::prelude::*;

/// Adds each `#[pyfunction]` to the module `m`: what every `register` of the modules below does,
/// one name a function instead of one `m.add_function(wrap_pyfunction!(f, m)?)?` line each.
macro_rules! add_functions {
    ($m:expr, $($function:ident),+ $(,)?) => {
        $($m.add_function(pyo3::wrap_pyfunction!($function, $m)?)?;)+
    };
}

mod archive;
mod audit;
mod bench;
mod checks;
mod errors;
mod keys;
mod ledger;
mod produce;
mod pyobjects;

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<keys::PySigningKey>()?;
    m.add_class::<ledger::PyLedger>()?;
    checks::register(m)?;
    archive::register(m)?;
    audit::register(m)?;
    produce::register(m)?;
    bench::register(m)?;
    Ok(())
}
