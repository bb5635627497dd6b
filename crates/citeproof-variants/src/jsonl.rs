//! JSON texts and JSON-lines files rewritten without changing what a reader sees: strict
//! documents and records get their members permuted and new whitespace (records: spaces and
//! tabs only, [`Style::Inline`]), other texts only whitespace around them
//! ([`jsontext::pad`]). The line framing is kept byte for byte: which lines exist, their
//! endings (LF or CR LF), empty lines, a byte order mark at the start of a line, lines that are
//! not UTF-8 and lines of 64 KiB or more (far from every per-line bound).

use citeproof_conformance::variants::VariantRng;

use crate::jsontext::{self, Node, Style};

/// Lines this long or longer are kept as they are.
const LINE_BOUND: usize = 64 * 1024;

/// One text of the case: a JSON document, or the lines of a JSON-lines file.
pub(crate) enum Text {
    Document(Option<Node>, String),
    Lines(Vec<Line>),
}

/// A line of a JSON-lines file: a byte order mark it starts with (kept in place: LEDGER-008
/// reports it, and the record after it is still read), its content (bytes: a line that is not
/// UTF-8 is kept as it is), and its ending (empty for a torn last line).
pub(crate) struct Line {
    bom: &'static [u8],
    tree: Option<Node>,
    content: Vec<u8>,
    ending: &'static [u8],
}

const BOM: &[u8] = "\u{feff}".as_bytes();

/// The lines of a JSON-lines file. With `torn_is_record` a last line without its LF is a
/// record (ARCHIVE-025) and is rewritten; otherwise (LEDGER-008: it is not read) it is kept.
pub(crate) fn lines(bytes: &[u8], torn_is_record: bool) -> Vec<Line> {
    let mut out = Vec::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (piece, ending, next): (&[u8], &'static [u8], &[u8]) =
            match rest.iter().position(|b| *b == b'\n') {
                Some(i) if rest[..i].ends_with(b"\r") => (&rest[..i - 1], b"\r\n", &rest[i + 1..]),
                Some(i) => (&rest[..i], b"\n", &rest[i + 1..]),
                None => (rest, b"", b""),
            };
        let (bom, piece) = match piece.strip_prefix(BOM) {
            Some(rest) => (BOM, rest),
            None => (&b""[..], piece),
        };
        let tree = (piece.len() < LINE_BOUND && (torn_is_record || !ending.is_empty()))
            .then(|| std::str::from_utf8(piece).ok().and_then(jsontext::parse))
            .flatten();
        out.push(Line {
            bom,
            tree,
            content: piece.to_vec(),
            ending,
        });
        rest = next;
    }
    out
}

impl Text {
    pub(crate) fn document(text: &str) -> Text {
        Text::Document(jsontext::parse(text), text.to_owned())
    }

    /// The content of every line that is kept as bytes (no tree: not strict I-JSON, torn, or
    /// too long), for rewrites that must reach them too.
    pub(crate) fn raw_lines(&mut self) -> Vec<&mut Vec<u8>> {
        match self {
            Text::Document(..) => Vec::new(),
            Text::Lines(lines) => lines
                .iter_mut()
                .filter(|l| l.tree.is_none())
                .map(|l| &mut l.content)
                .collect(),
        }
    }

    pub(crate) fn trees(&mut self) -> Vec<&mut Node> {
        match self {
            Text::Document(tree, _) => tree.iter_mut().collect(),
            Text::Lines(lines) => lines.iter_mut().filter_map(|l| l.tree.as_mut()).collect(),
        }
    }

    /// The text rewritten (member order and whitespace, see the module docs).
    pub(crate) fn emit(mut self, rng: &mut VariantRng) -> Vec<u8> {
        for tree in self.trees() {
            jsontext::shuffle(tree, rng);
        }
        match self {
            Text::Document(Some(tree), _) => jsontext::emit(&tree, Style::Spaced, rng).into_bytes(),
            Text::Document(None, text) => jsontext::pad(&text, Style::Spaced, rng)
                .unwrap_or(text)
                .into_bytes(),
            Text::Lines(lines) => {
                let mut out = Vec::new();
                for line in lines {
                    let padded = match (&line.tree, std::str::from_utf8(&line.content)) {
                        (Some(tree), _) => Some(jsontext::emit(tree, Style::Inline, rng)),
                        (None, Ok(text))
                            if !line.ending.is_empty()
                                && text.len() < LINE_BOUND
                                && line.bom.is_empty() =>
                        {
                            jsontext::pad(text, Style::Inline, rng)
                        }
                        _ => None,
                    };
                    out.extend_from_slice(line.bom);
                    match padded {
                        Some(text) => out.extend_from_slice(text.as_bytes()),
                        None => out.extend_from_slice(&line.content),
                    }
                    out.extend_from_slice(line.ending);
                }
                out
            }
        }
    }

    /// [`Text::emit`] of a document (always UTF-8).
    pub(crate) fn emit_text(self, rng: &mut VariantRng) -> String {
        String::from_utf8_lossy(&self.emit(rng)).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn line_framing_is_kept() {
        let text = "{\"a\":1}\r\n{\"a\":1,\"a\":2}\n\n{\"b\":[1]}\n{\"torn\":1}";
        let mut rng = VariantRng::new(5);
        let out =
            String::from_utf8(Text::Lines(lines(text.as_bytes(), false)).emit(&mut rng)).unwrap();
        let pieces: Vec<&str> = out.split('\n').collect();
        assert_eq!(pieces.len(), 5, "{out:?}");
        assert!(pieces[0].ends_with('\r') && !pieces[1].ends_with('\r'));
        assert_eq!(pieces[1].trim_matches([' ', '\t']), "{\"a\":1,\"a\":2}");
        assert_eq!(pieces[2], "", "an empty line stays empty");
        assert_eq!(pieces[4], "{\"torn\":1}", "a torn last line is kept");
        let first: Value = serde_json::from_str(pieces[0].trim_end_matches('\r')).unwrap();
        assert_eq!(first, json!({"a": 1}));
        assert_ne!(pieces[0], "{\"a\":1}\r", "the record is rewritten");
    }
}
