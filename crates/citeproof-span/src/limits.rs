//! The bounds the engines run under (the "Limits" table of `docs/PROFILE.md`): every selector and
//! every body is hostile, so each engine is bounded in time and memory, and a bound that is hit
//! is a [`SpanError`](crate::SpanError) with an incident code, never a hang, an abort or a panic.

/// Longest XPath expression accepted, in bytes (AEF-L2-007): longer is `aef-selector-invalid`.
pub const MAX_XPATH_BYTES: usize = 16 * 1024;

/// Deepest nesting of an XPath expression (AEF-L2-007): parentheses, predicates and function
/// arguments each add one level, and so does each binary operator of a chain (`a or b or c` is
/// two levels), so that both parsing and evaluation recurse at most this deep. Deeper is
/// `aef-selector-invalid`.
pub const MAX_XPATH_DEPTH: usize = 100;

/// Work budget of one XPath evaluation (node visits, comparisons, characters copied): an
/// evaluation that needs more is `aef-selector-invalid`.
pub const XPATH_BUDGET: u64 = 50_000_000;

/// Deepest element nesting read in an HTML document. The WHATWG tree builder scans its stack of
/// open elements on many tags, so parsing `<div>` nested n deep costs n²; browsers cap the depth
/// (Blink at 512) for the same reason. A deeper document is `aef-source-unparseable` rather than
/// minutes of CPU.
pub const MAX_HTML_DEPTH: usize = 512;

/// Largest number a positional selector may contain (2^53 - 1, the largest integer every JSON
/// implementation reads exactly).
pub const MAX_SELECTOR_NUMBER: u64 = (1 << 53) - 1;
