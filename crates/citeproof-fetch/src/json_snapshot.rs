//! Reading a JSON snapshot at hash speed: the base64 bodies are decoded straight from the
//! document's bytes (SIMD) and hashed while they are decoded, and only the rest of the document
//! (URLs, statuses, headers: a few kilobytes) goes through the strict parser.
//!
//! The fast path only ever serves a snapshot that the plain path ([`parse_snapshot`], then
//! [`SnapshotFetcher::new`]) serves identically; on anything unusual it steps aside and the
//! plain path runs, so every refusal is the plain path's, byte for byte:
//!
//! 1. a lexer finds each string value of a member written `"body_base64"` (strings skipped by
//!    their quotes and backslashes), and each such value is decoded as canonical padded standard
//!    base64 (the alphabet excludes quotes, backslashes, controls and non-ASCII bytes); a value
//!    with an escape or that does not decode makes the fast path step aside;
//! 2. the document is copied without those values' contents (each becomes `""`): the *reduced*
//!    document. Removing a run of base64 characters from inside a string token changes no
//!    token boundary, no UTF-8 validity, no member name and no nesting, so the strict parser
//!    accepts the reduced document exactly when it accepts the whole one;
//! 3. the strict token reader walks the reduced document and must find every removed value
//!    exactly where the lexer put it, as a string value at `/response/body_base64` or
//!    `/resources/<URL>/body_base64` (else the fast path steps aside: the lexer and the reader
//!    disagreed, or a body sits where the snapshot shape has none);
//! 4. the reduced document becomes the [`WebSnapshot`] as in [`parse_snapshot`]; its removed
//!    bodies are the decoded ones, every other body is decoded from its text as before.

use std::collections::BTreeMap;

use bytes::Bytes;
use citeproof_model::ContentHash;
use citeproof_model::json::{Event, Mode, Reader};
use citeproof_model::snapshot::WebSnapshot;
use sha2::{Digest as _, Sha256};

use crate::FetchPolicy;
use crate::error::FetchError;
use crate::snapshot::{MAX_SNAPSHOT_JSON_BYTES, SnapshotFetcher, parse_snapshot};

/// Why a JSON snapshot cannot be served.
#[derive(Debug)]
pub enum JsonSnapshotError {
    /// The bytes are not a snapshot document ([`parse_snapshot`] refused them).
    Unreadable(FetchError),
    /// The document was read, then a check of [`SnapshotFetcher::new`] failed; `agent_url` is
    /// the snapshot's `response.url`.
    Invalid {
        agent_url: String,
        error: FetchError,
    },
}

impl JsonSnapshotError {
    pub fn error(&self) -> &FetchError {
        match self {
            JsonSnapshotError::Unreadable(e) | JsonSnapshotError::Invalid { error: e, .. } => e,
        }
    }
}

/// [`parse_snapshot`] then [`SnapshotFetcher::new`], with the same result and errors, bodies
/// decoded without an intermediate copy and hashed while decoded (see the module docs).
pub fn read_json_snapshot(
    bytes: &[u8],
    policy: FetchPolicy,
) -> Result<SnapshotFetcher, JsonSnapshotError> {
    let invalid = |snapshot: &WebSnapshot| {
        let agent_url = snapshot.response.url.clone();
        move |error| JsonSnapshotError::Invalid { agent_url, error }
    };
    if let Some((snapshot, bodies)) = read_fast(bytes, DECODE_CHUNK) {
        return SnapshotFetcher::with_decoded(&snapshot, policy, bodies)
            .map_err(invalid(&snapshot));
    }
    let snapshot = parse_snapshot(bytes).map_err(JsonSnapshotError::Unreadable)?;
    SnapshotFetcher::new(&snapshot, policy).map_err(invalid(&snapshot))
}

/// Where a decoded body belongs in the snapshot.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Slot {
    Agent,
    Resource(String),
}

/// A body decoded from the document, with its SHA-256.
#[derive(Debug, Clone)]
pub(crate) struct Decoded {
    pub body: Bytes,
    pub sha256: ContentHash,
}

/// The bodies the fast path decoded, by where they belong.
pub(crate) type DecodedBodies = BTreeMap<Slot, Decoded>;

/// Base64 characters decoded (then hashed) per step: a multiple of 4, small enough that the
/// decoded bytes are still in the cache when they are hashed.
const DECODE_CHUNK: usize = 64 * 1024;

/// A body value found by the lexer: its content is `bytes[start..end]` (between the quotes).
struct Cut {
    start: usize,
    end: usize,
    decoded: Decoded,
}

/// Steps 1 to 4 of the module docs; `None` when the plain path must decide.
fn read_fast(bytes: &[u8], chunk: usize) -> Option<(WebSnapshot, DecodedBodies)> {
    if bytes.len() > MAX_SNAPSHOT_JSON_BYTES {
        return None;
    }
    let cuts = find_bodies(bytes, chunk)?;
    let mut reduced =
        Vec::with_capacity(bytes.len() - cuts.iter().map(|c| c.end - c.start).sum::<usize>());
    // Offsets in the reduced document of each cut's opening quote.
    let mut quotes = Vec::with_capacity(cuts.len());
    let mut from = 0;
    for cut in &cuts {
        reduced.extend_from_slice(bytes.get(from..cut.start)?);
        quotes.push(reduced.len() - 1);
        from = cut.end;
    }
    reduced.extend_from_slice(bytes.get(from..)?);
    let slots = slots_of(&reduced, &quotes)?;
    let value =
        citeproof_model::json::parse_strict_limited(&reduced, MAX_SNAPSHOT_JSON_BYTES).ok()?;
    let snapshot: WebSnapshot = serde_json::from_value(value).ok()?;
    let mut bodies = DecodedBodies::new();
    for (slot, cut) in slots.into_iter().zip(cuts) {
        bodies.insert(slot, cut.decoded);
    }
    Some((snapshot, bodies))
}

/// JSON whitespace (RFC 8259 §2).
fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// The first `"` or `\` of `hay`.
fn find_quote_or_backslash(hay: &[u8]) -> Option<usize> {
    memchr::memchr2(b'"', b'\\', hay)
}

/// The offset of the closing quote of the string whose opening quote is at `open`.
fn string_end(bytes: &[u8], open: usize) -> Option<usize> {
    let mut at = open + 1;
    loop {
        let hit = at + find_quote_or_backslash(bytes.get(at..)?)?;
        if bytes.get(hit) == Some(&b'"') {
            return Some(hit);
        }
        at = hit + 2; // the backslash and the character it escapes
    }
}

/// Step 1: every string value of a member written `"body_base64"`, decoded and hashed, in
/// document order. `None` when a value has an escape or does not decode, or the lexer runs out
/// of input inside a string (the plain path reports what is wrong).
fn find_bodies(bytes: &[u8], chunk: usize) -> Option<Vec<Cut>> {
    const NAME: &[u8] = b"\"body_base64\"";
    let mut cuts = Vec::new();
    let mut at = 0;
    while let Some(open) = bytes
        .get(at..)?
        .iter()
        .position(|&b| b == b'"')
        .map(|p| at + p)
    {
        let close = string_end(bytes, open)?;
        at = close + 1;
        if bytes.get(open..=close) != Some(NAME) {
            continue;
        }
        let mut v = at;
        while bytes.get(v).copied().is_some_and(is_ws) {
            v += 1;
        }
        if bytes.get(v) != Some(&b':') {
            continue;
        }
        v += 1;
        while bytes.get(v).copied().is_some_and(is_ws) {
            v += 1;
        }
        if bytes.get(v) != Some(&b'"') {
            continue;
        }
        let start = v + 1;
        let end = start + find_quote_or_backslash(bytes.get(start..)?)?;
        if bytes.get(end) != Some(&b'"') {
            return None;
        }
        let decoded = decode_hashing(bytes.get(start..end)?, chunk)?;
        cuts.push(Cut {
            start,
            end,
            decoded,
        });
        at = end + 1;
    }
    Some(cuts)
}

/// Canonical padded standard base64, decoded `chunk` characters at a time, each piece hashed
/// while it is still in the cache. Only the last piece may end with padding: a piece that does
/// would decode on its own but not as part of the whole.
pub(crate) fn decode_hashing(text: &[u8], chunk: usize) -> Option<Decoded> {
    debug_assert!(chunk.is_multiple_of(4) && chunk > 0);
    let mut body = Vec::with_capacity(text.len() / 4 * 3);
    let mut hasher = Sha256::new();
    let mut pieces = text.chunks(chunk).peekable();
    while let Some(piece) = pieces.next() {
        if pieces.peek().is_some() && piece.last() == Some(&b'=') {
            return None;
        }
        let before = body.len();
        base64_simd::STANDARD.decode_append(piece, &mut body).ok()?;
        hasher.update(body.get(before..)?);
    }
    Some(Decoded {
        body: body.into(),
        sha256: ContentHash::from_digest(hasher.finalize().into()),
    })
}

/// Step 3: walks the reduced document and returns the slot of each removed value, in order.
/// `None` unless every removed value (its opening quote at `quotes[i]`) is a string value at
/// `/response/body_base64` or `/resources/<URL>/body_base64`.
fn slots_of(reduced: &[u8], quotes: &[usize]) -> Option<Vec<Slot>> {
    /// An open container and, for an object, the name of the member being read.
    enum Open<'a> {
        Array,
        Object(Option<std::borrow::Cow<'a, str>>),
    }
    let mut reader = Reader::new(reduced, Mode::Strict, MAX_SNAPSHOT_JSON_BYTES).ok()?;
    let mut stack: Vec<Open<'_>> = Vec::new();
    let mut slots = Vec::with_capacity(quotes.len());
    let mut next = quotes.iter().peekable();
    while let Some(token) = reader.next_token().ok()? {
        match token.event {
            Event::BeginObject => stack.push(Open::Object(None)),
            Event::BeginArray => stack.push(Open::Array),
            Event::EndObject | Event::EndArray => {
                stack.pop();
            }
            Event::Name(name) => {
                if let Some(Open::Object(current)) = stack.last_mut() {
                    *current = Some(name);
                }
            }
            Event::String(_) if next.peek() == Some(&&token.offset) => {
                next.next();
                let names: Vec<Option<&str>> = stack
                    .iter()
                    .map(|o| match o {
                        Open::Object(n) => n.as_deref(),
                        Open::Array => None,
                    })
                    .collect();
                slots.push(match names.as_slice() {
                    [Some("response"), Some("body_base64")] => Slot::Agent,
                    [Some("resources"), Some(url), Some("body_base64")] => {
                        Slot::Resource((*url).to_owned())
                    }
                    _ => return None,
                });
            }
            _ => {}
        }
    }
    (next.next().is_none()).then_some(slots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use base64::Engine as _;
    use base64::engine::general_purpose::STANDARD;

    /// base64-simd accepts exactly what the `base64` crate's strict STANDARD engine accepts
    /// (padding required and canonical, no non-zero trailing bits, no whitespace), decodes to
    /// the same bytes, and the chunked decoding agrees with the whole one at every chunk size.
    #[test]
    fn chunked_simd_decoding_agrees_with_the_base64_crate() {
        let mut texts: Vec<String> = vec![
            "".into(),
            "QQ==".into(),
            "QR==".into(),
            "QQ=".into(),
            "QQ".into(),
            "Q===".into(),
            "====".into(),
            "QUFB".into(),
            "QUE=".into(),
            "QUF=".into(),
            "QQ==QUFB".into(),
            "QUFBQQ==".into(),
            "QUFB QUFB".into(),
            "QUFB\nQUFB".into(),
            "QU-B".into(),
            "QU_B".into(),
            "QUFBQ".into(),
            "QUFBQUFBQUFB".into(),
            "QUFBQUFBQUE=".into(),
            "QUFBQUFBQQ==".into(),
            "QUFBQQ==QUFB".into(),
            "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUF".into(),
        ];
        for n in 0..200u32 {
            let bytes: Vec<u8> = (0..n)
                .map(|i| (i.wrapping_mul(2654435761) >> 7) as u8)
                .collect();
            let text = STANDARD.encode(&bytes);
            texts.push(text.clone());
            // One character changed at every position, to every alphabet and padding byte.
            if n % 17 == 3 {
                for (i, c) in text.char_indices() {
                    for r in ['A', 'B', '/', '+', '=', 'z', '0', '"', '\\', 'é'] {
                        if r != c {
                            let mut t = text.clone();
                            t.replace_range(i..i + c.len_utf8(), &r.to_string());
                            texts.push(t);
                        }
                    }
                }
            }
        }
        for text in &texts {
            let want = STANDARD.decode(text.as_bytes()).ok();
            for chunk in [4, 8, 12, 64, DECODE_CHUNK] {
                let got = decode_hashing(text.as_bytes(), chunk);
                assert_eq!(
                    got.as_ref().map(|d| d.body.to_vec()),
                    want,
                    "{text:?} in chunks of {chunk}"
                );
                if let (Some(got), Some(want)) = (got, &want) {
                    assert_eq!(got.sha256, citeproof_model::sha256_bytes(want));
                }
            }
        }
    }

    #[test]
    fn the_quote_search_finds_the_first_in_every_block_position() {
        for len in [0usize, 1, 63, 64, 65, 200] {
            for at in 0..len {
                let mut hay = vec![b'A'; len];
                hay[at] = if at % 2 == 0 { b'"' } else { b'\\' };
                if at + 1 < len {
                    hay[len - 1] = b'"';
                }
                assert_eq!(find_quote_or_backslash(&hay), Some(at), "{len} {at}");
            }
            assert_eq!(find_quote_or_backslash(&vec![b'A'; len]), None);
        }
    }
}
