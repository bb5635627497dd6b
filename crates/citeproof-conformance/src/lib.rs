//! Conformance runner (filled by the conformance issue).
