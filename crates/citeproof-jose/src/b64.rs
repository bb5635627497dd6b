//! base64url without padding (RFC 7515 §2, RFC 4648 §5), strict.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// `BASE64URL(bytes)` without padding.
pub fn encode(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes base64url without padding. Refuses `=` padding, the `+` and `/` characters of the
/// standard alphabet, whitespace, a length of 1 mod 4, and non-zero trailing bits (so every byte
/// string has exactly one accepted encoding).
pub fn decode(text: &str) -> Result<Vec<u8>, String> {
    URL_SAFE_NO_PAD.decode(text).map_err(|e| e.to_string())
}
