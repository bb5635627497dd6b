//! Shared helpers of the integration tests.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use citeproof_jose::JoseError;
use serde_json::Value;

pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

pub fn read_data(rel: &str) -> Vec<u8> {
    std::fs::read(data_path(rel)).unwrap_or_else(|e| panic!("reading {rel}: {e}"))
}

pub fn read_json(rel: &str) -> Value {
    serde_json::from_slice(&read_data(rel)).unwrap()
}

/// The RFC 8037 Appendix A vectors.
pub fn rfc8037() -> Value {
    read_json("rfc8037/appendix_a.json")
}

pub fn s<'a>(v: &'a Value, pointer: &str) -> &'a str {
    v.pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {pointer}"))
}

/// Asserts that `result` is an error with this code, and returns the error.
#[track_caller]
pub fn expect_code<T: std::fmt::Debug>(result: Result<T, JoseError>, code: &str) -> JoseError {
    match result {
        Ok(v) => panic!("expected error {code}, got Ok({v:?})"),
        Err(e) => {
            assert_eq!(e.code(), code, "wrong code; error: {e:?} ({e})");
            e
        }
    }
}
