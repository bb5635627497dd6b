//! Batch verification: many inputs in one process, on every core, with results in input order.
//!
//! Each line of a batch list ([`read_list`]; `-`: standard input) is one input, as a verify
//! command would take it as its argument (a URL, a snapshot or document path); empty lines and
//! lines starting with `#` are skipped; lines and line counts are bounded ([`MAX_LINE_BYTES`],
//! [`MAX_LINES`]). [`run`] verifies the inputs in parallel (rayon); their results are then
//! taken in input order, so that anything order-dependent (ACA's manifest reuse against the
//! audit store and the earlier lines, recording) does not depend on timing. Each input writes
//! one JSON line to an [`Output`]: the report's object ([`report_value`]) plus `input` (the line
//! as given) and `line` (its number); an input that could not be verified at all (a
//! [`LineFailure`]: an unreadable file) writes `error: {code, message}` with its `outcome`.
//!
//! The exit status ([`Summary::exit_status`]) is the worst over the inputs, worst last: 0 (all
//! verified), 3 (some could not be checked, none found wanting), 1 (some not verified), 2 (some
//! input was a usage error).
//!
//! A [`Settle`] runs on each report in input order before its line is written: [`Recorder`]
//! records into an audit store (or nothing without one); [`AcaReuseThenRecord`] settles ACA's
//! manifest reuse check and the record in one store transaction. Each report is recorded as
//! soon as every line before it is done, before its line is written: a batch killed mid-way
//! keeps every line it wrote, and running it again skips the inputs the store already holds for
//! the same input ([`input_key`]: the URL, or the SHA-256 of the file) and configuration; a
//! skipped line says `skipped`, `recorded_as` and `verified_at` with the outcome recorded then:
//! a verdict of that time, not of now. A record that failed is said through
//! [`Output::record_failed`] and in the line (`record_error`), and the exit status is 3
//! whatever the verdicts.
//!
//! *Deliberately not*: it parses no arguments, prints nothing itself (the caller's [`Output`]
//! writes the lines and says failed records; [`Summary`] displays the summary line), draws no
//! progress bar (the caller's `progress` callback is told of each input verified), knows no
//! spec's verification (the caller's `verify` closure verifies a line as its command verifies
//! an argument) and reads no clock (the caller passes the verification time and a clock for
//! the record time).

mod engine;
mod input;
mod recorder;

pub use engine::{
    Batch, LineFailure, Output, Rank, Recorded, Resumed, SerializeError, Settle, Summary,
    report_value, run,
};
pub use input::{Input, InputError, MAX_LINE_BYTES, MAX_LINES, read_inputs, read_list};
pub use recorder::{AcaReuseThenRecord, Recorder, StoreError, input_key, is_url, not_recorded};
