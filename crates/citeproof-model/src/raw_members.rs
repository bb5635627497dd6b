//! Member values read out of bytes that may not parse as JSON (a torn or damaged JSON-lines
//! record): the one scanner the ledger reader (which ledger a damaged line belongs to,
//! LEDGER-008) and the variant generator (which ids to rename in such a line) share, so that
//! both find exactly the same values.

use std::ops::Range;

/// The byte ranges of the string values of member `name` in `bytes`: every `"name"` followed,
/// after optional JSON whitespace, by `:`, optional whitespace and a complete JSON string of
/// at most `max_len` bytes written without escapes, in order of appearance. An escaped quote
/// (`\"name\"` inside a string) never matches, and a torn value is no value. The closing quote
/// is looked for no further than `max_len + 1` bytes, so a line of many unclosed names costs
/// time linear in its length times `max_len`.
pub fn string_values(bytes: &[u8], name: &str, max_len: usize) -> Vec<Range<usize>> {
    let quoted = format!("\"{name}\"");
    let needle = quoted.as_bytes();
    let is_space = |b: Option<&u8>| matches!(b, Some(b' ' | b'\t' | b'\r' | b'\n'));
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = bytes
        .get(from..)
        .and_then(|rest| rest.windows(needle.len()).position(|w| w == needle))
    {
        let mut i = from + at + needle.len();
        from = i;
        while is_space(bytes.get(i)) {
            i += 1;
        }
        if bytes.get(i) != Some(&b':') {
            continue;
        }
        i += 1;
        while is_space(bytes.get(i)) {
            i += 1;
        }
        if bytes.get(i) != Some(&b'"') {
            continue;
        }
        let start = i + 1;
        let Some(len) = bytes
            .get(start..)
            .and_then(|r| r.iter().take(max_len + 1).position(|b| *b == b'"'))
        else {
            continue;
        };
        if !bytes[start..start + len].contains(&b'\\') {
            out.push(start..start + len);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values<'a>(bytes: &'a [u8], name: &str, max: usize) -> Vec<&'a [u8]> {
        string_values(bytes, name, max)
            .into_iter()
            .map(|r| &bytes[r])
            .collect()
    }

    #[test]
    fn complete_unescaped_values_only() {
        let line = br#"{"ledger_id" : "a1", "x": "\"ledger_id\": \"no\"", "ledger_id":"b2", "ledger_id": "torn"#;
        assert_eq!(values(line, "ledger_id", 128), [&b"a1"[..], b"b2"]);
        // Longer than the bound: not a value.
        assert!(values(br#"{"id": "abcd"}"#, "id", 3).is_empty());
        assert_eq!(values(br#"{"id": "abc"}"#, "id", 3), [&b"abc"[..]]);
        assert!(values(br#"{"id": 5}"#, "id", 3).is_empty());
    }
}
