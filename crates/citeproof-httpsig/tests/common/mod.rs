//! Shared helpers for the integration tests.
#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

pub fn data_path(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

pub fn read_bytes(rel: &str) -> Vec<u8> {
    std::fs::read(data_path(rel)).unwrap_or_else(|e| panic!("read {rel}: {e}"))
}

pub fn read_text(rel: &str) -> String {
    String::from_utf8(read_bytes(rel)).expect("utf-8")
}
