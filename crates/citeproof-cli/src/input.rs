//! Reading a file argument (`-` is stdin) with a size bound.

use std::io::Read;

use citeproof_model::json::MAX_DOCUMENT_BYTES;

use crate::cmd::Failure;

/// Reads `path` (or stdin for `-`), refusing more than `limit` bytes.
pub fn read_limited(path: &str, limit: usize) -> Result<Vec<u8>, Failure> {
    let mut buf = Vec::new();
    let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
    let result = if path == "-" {
        std::io::stdin().lock().take(cap).read_to_end(&mut buf)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(cap).read_to_end(&mut buf))
    };
    result.map_err(|e| Failure::Unreadable(format!("cannot read {}: {e}", display(path))))?;
    if buf.len() > limit {
        return Err(Failure::Invalid(format!(
            "{} is larger than the {limit}-byte limit",
            display(path)
        )));
    }
    Ok(buf)
}

/// Reads a JSON document argument with the document size limit.
pub fn read_document(path: &str) -> Result<Vec<u8>, Failure> {
    read_limited(path, MAX_DOCUMENT_BYTES)
}

pub fn display(path: &str) -> &str {
    if path == "-" { "standard input" } else { path }
}
