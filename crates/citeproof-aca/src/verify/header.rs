//! ACA Level 1: the `Citation-Source` header (ACA-L1-001 to ACA-L1-008).
//!
//! ```text
//! Citation-Source = [ entry ] *( OWS "," OWS [ entry ] )
//! entry           = "<" url ">" *( OWS ";" OWS param )
//! url             = 1*( %x21-3B / %x3D / %x3F-7E )
//! param           = token BWS "=" BWS ( token / quoted-string )
//! ```
//!
//! The parser never panics and is linear in the input; values over 8192 bytes are refused
//! before parsing.

use citeproof_model::{Incident, IncidentCode, Location};
use serde::Serialize;

use super::url::{equality_key, web_url_problem};

/// Longest combined `Citation-Source` value, in bytes (ACA-L1-003).
pub const MAX_HEADER_BYTES: usize = 8192;
/// Most non-empty entries in one combined value (ACA-L1-003).
pub const MAX_HEADER_ENTRIES: usize = 256;

/// One entry as written, before the semantic rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct HeaderEntry {
    /// The source URL between `<` and `>`.
    pub source: String,
    /// The `manifest` parameter's content, when it is a quoted-string without backslash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub manifest: Option<String>,
    /// The `run` parameter's content, when it is a quoted-string without backslash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub run: Option<String>,
    /// Other parameters: lowercased name and value (token, or quoted-string content unescaped).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub params: Vec<(String, String)>,
    /// Byte offset of the entry's `<` in the combined value.
    #[serde(skip)]
    pub offset: usize,
    /// True when the source and manifest URLs are usable for Level 2 (web URLs, manifest
    /// present and well-formed).
    #[serde(skip)]
    pub usable: bool,
}

/// The result of parsing every `Citation-Source` field line of a response.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct HeaderParse {
    /// Entries in order (empty when the value does not match the grammar).
    pub entries: Vec<HeaderEntry>,
    /// Level 1 incidents.
    pub incidents: Vec<Incident>,
    /// Incidents that count toward Level 2: an entry without `manifest` (a Level 1 header-only
    /// entry, ACA-L1-005) or without `run` (ACA-L2-004).
    pub level2: Vec<Incident>,
    /// The `run` value all entries agree on, if any and consistent.
    pub run: Option<String>,
}

impl HeaderParse {
    pub fn is_valid(&self) -> bool {
        self.incidents
            .iter()
            .all(|i| i.severity != citeproof_model::Severity::Error)
    }
}

/// A parameter as written.
#[derive(Debug, Clone, PartialEq, Eq)]
struct RawParam {
    name: String,
    value: String,
    quoted: bool,
    backslash: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct RawEntry {
    url: String,
    offset: usize,
    params: Vec<RawParam>,
}

/// Parses the `Citation-Source` field lines of one response (in order; names already matched
/// case-insensitively by the caller). No lines means the header is missing.
pub fn parse_citation_source(lines: &[&str]) -> HeaderParse {
    let mut out = HeaderParse::default();
    if lines.is_empty() {
        out.incidents.push(incident(
            IncidentCode::AcaHeaderMissing,
            "the response has no Citation-Source field".into(),
            None,
            None,
        ));
        return out;
    }
    let combined = lines.join(", ");
    if combined.len() > MAX_HEADER_BYTES {
        out.incidents.push(incident(
            IncidentCode::AcaHeaderTooLong,
            format!(
                "the combined Citation-Source value is {} bytes; the limit is {MAX_HEADER_BYTES}",
                combined.len()
            ),
            None,
            None,
        ));
        return out;
    }
    if let Some((offset, byte)) = combined
        .bytes()
        .enumerate()
        .find(|(_, b)| (*b < 0x20 && *b != b'\t') || *b > 0x7e)
    {
        let what = if byte == b'\r' || byte == b'\n' {
            "a line break (obs-fold is not allowed)".to_owned()
        } else if byte > 0x7e {
            "a byte above 0x7E (obs-text is not allowed)".to_owned()
        } else {
            format!("the control character 0x{byte:02X}")
        };
        out.incidents.push(incident(
            IncidentCode::AcaHeaderSyntax,
            format!("the Citation-Source value contains {what}"),
            Some(offset),
            None,
        ));
        return out;
    }
    let raw = match Grammar::new(&combined).list() {
        Ok(entries) => entries,
        Err((offset, why)) => {
            out.incidents.push(incident(
                IncidentCode::AcaHeaderSyntax,
                format!(
                    "the Citation-Source value does not match the grammar at byte {offset}: {why}"
                ),
                Some(offset),
                None,
            ));
            return out;
        }
    };
    if raw.is_empty() {
        out.incidents.push(incident(
            IncidentCode::AcaHeaderMissing,
            "the Citation-Source field lists no source".into(),
            None,
            None,
        ));
        return out;
    }
    if raw.len() > MAX_HEADER_ENTRIES {
        out.incidents.push(incident(
            IncidentCode::AcaHeaderTooLong,
            format!(
                "the Citation-Source value has {} entries; the limit is {MAX_HEADER_ENTRIES}",
                raw.len()
            ),
            None,
            None,
        ));
        return out;
    }
    let mut seen_sources: Vec<(String, String)> = Vec::new();
    let mut runs: Vec<(String, usize)> = Vec::new();
    for entry in raw {
        let mut usable = true;
        let url_loc = Some(entry.url.clone());
        if let Some(problem) = web_url_problem(&entry.url) {
            usable = false;
            out.incidents.push(incident(
                IncidentCode::AcaUrlInvalid,
                format!("source URL `{}` is not a web URL: {problem}", entry.url),
                Some(entry.offset),
                url_loc.clone(),
            ));
        } else {
            let key = equality_key(&entry.url);
            if let Some((first, _)) = seen_sources.iter().find(|(_, k)| *k == key) {
                out.incidents.push(incident(
                    IncidentCode::AcaHeaderDuplicateSource,
                    format!(
                        "source `{}` is listed more than once (first as `{first}`)",
                        entry.url
                    ),
                    Some(entry.offset),
                    url_loc.clone(),
                ));
            } else {
                seen_sources.push((entry.url.clone(), key));
            }
        }
        let mut names: Vec<&str> = Vec::new();
        let mut manifest = None;
        let mut run = None;
        let mut params = Vec::new();
        let mut manifest_seen = false;
        for p in &entry.params {
            if names.contains(&p.name.as_str()) {
                out.incidents.push(incident(
                    IncidentCode::AcaHeaderParamDuplicate,
                    format!(
                        "parameter `{}` occurs more than once in the entry for `{}`",
                        p.name, entry.url
                    ),
                    Some(entry.offset),
                    url_loc.clone(),
                ));
                if p.name == "manifest" {
                    usable = false;
                }
                continue;
            }
            names.push(&p.name);
            match p.name.as_str() {
                "manifest" | "run" => {
                    let is_manifest = p.name == "manifest";
                    if is_manifest {
                        manifest_seen = true;
                    }
                    if !p.quoted || p.backslash {
                        out.incidents.push(incident(
                            IncidentCode::AcaHeaderParamForm,
                            format!(
                                "the `{}` parameter of `{}` must be a quoted-string without backslash",
                                p.name, entry.url
                            ),
                            Some(entry.offset),
                            url_loc.clone(),
                        ));
                        if is_manifest {
                            usable = false;
                        }
                        continue;
                    }
                    if is_manifest {
                        if let Some(problem) = web_url_problem(&p.value) {
                            usable = false;
                            out.incidents.push(incident(
                                IncidentCode::AcaUrlInvalid,
                                format!("manifest URL `{}` is not a web URL: {problem}", p.value),
                                Some(entry.offset),
                                Some(p.value.clone()),
                            ));
                        } else {
                            manifest = Some(p.value.clone());
                        }
                    } else if !is_run_id(&p.value) {
                        out.incidents.push(incident(
                            IncidentCode::AcaRunIdInvalid,
                            format!(
                                "run `{}` does not match ^[A-Za-z0-9][A-Za-z0-9._:-]{{0,127}}$",
                                p.value
                            ),
                            Some(entry.offset),
                            url_loc.clone(),
                        ));
                    } else {
                        run = Some(p.value.clone());
                        runs.push((p.value.clone(), entry.offset));
                    }
                }
                _ => params.push((p.name.clone(), p.value.clone())),
            }
        }
        if !manifest_seen {
            usable = false;
            out.level2.push(incident(
                IncidentCode::AcaHeaderManifestMissing,
                format!(
                    "the entry for `{}` has no manifest parameter (a Level 1 header-only entry)",
                    entry.url
                ),
                Some(entry.offset),
                url_loc.clone(),
            ));
        }
        if run.is_none() {
            out.level2.push(incident(
                IncidentCode::AcaRunMissing,
                format!(
                    "the entry for `{}` has no run parameter: Level 2 binds every manifest to the run of this response",
                    entry.url
                ),
                Some(entry.offset),
                url_loc.clone(),
            ));
        }
        out.entries.push(HeaderEntry {
            source: entry.url,
            manifest,
            run,
            params,
            offset: entry.offset,
            usable,
        });
    }
    if let Some((first, _)) = runs.first() {
        let mut consistent = true;
        for (other, offset) in &runs[1..] {
            if other != first {
                consistent = false;
                out.incidents.push(incident(
                    IncidentCode::AcaRunMismatch,
                    format!("run parameters disagree: `{first}` and `{other}`"),
                    Some(*offset),
                    None,
                ));
            }
        }
        if consistent {
            out.run = Some(first.clone());
        }
    }
    out
}

pub use citeproof_model::ids::{is_claim_id, is_run_id};

fn incident(
    code: IncidentCode,
    message: String,
    offset: Option<usize>,
    url: Option<String>,
) -> Incident {
    Incident::new(
        code,
        message,
        Location {
            offset: offset.map(|o| o as u64),
            url,
            ..Location::default()
        },
    )
}

/// RFC 9110 `tchar`.
pub(crate) fn is_tchar(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b)
}

struct Grammar<'a> {
    s: &'a [u8],
    pos: usize,
}

type Fail = (usize, &'static str);

impl<'a> Grammar<'a> {
    fn new(s: &'a str) -> Self {
        Grammar {
            s: s.as_bytes(),
            pos: 0,
        }
    }

    fn peek(&self) -> Option<u8> {
        self.s.get(self.pos).copied()
    }

    fn ows(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn list(&mut self) -> Result<Vec<RawEntry>, Fail> {
        let mut entries = Vec::new();
        self.ows();
        loop {
            match self.peek() {
                None => break,
                Some(b',') => {
                    // An empty list element.
                    self.pos += 1;
                    self.ows();
                    continue;
                }
                Some(b'<') => {
                    entries.push(self.entry()?);
                    self.ows();
                    match self.peek() {
                        None => break,
                        Some(b',') => {
                            self.pos += 1;
                            self.ows();
                        }
                        Some(_) => return Err((self.pos, "expected `,`, `;` or the end")),
                    }
                }
                Some(_) => return Err((self.pos, "expected `<` to start an entry")),
            }
            // Guard against runaway lists: far above MAX_HEADER_ENTRIES, bounded by length.
            if entries.len() > MAX_HEADER_BYTES {
                return Err((self.pos, "too many entries"));
            }
        }
        Ok(entries)
    }

    fn entry(&mut self) -> Result<RawEntry, Fail> {
        let offset = self.pos;
        self.pos += 1; // '<'
        let start = self.pos;
        while let Some(b) = self.peek() {
            if (0x21..=0x7e).contains(&b) && b != b'<' && b != b'>' {
                self.pos += 1;
            } else {
                break;
            }
        }
        if self.pos == start {
            return Err((self.pos, "empty URL between `<` and `>`"));
        }
        let url = String::from_utf8_lossy(&self.s[start..self.pos]).into_owned();
        if self.peek() != Some(b'>') {
            return Err((self.pos, "expected `>` to end the URL"));
        }
        self.pos += 1;
        let mut params = Vec::new();
        loop {
            let save = self.pos;
            self.ows();
            if self.peek() == Some(b';') {
                self.pos += 1;
                self.ows();
                params.push(self.param()?);
            } else {
                self.pos = save;
                break;
            }
        }
        Ok(RawEntry {
            url,
            offset,
            params,
        })
    }

    fn token(&mut self) -> Option<String> {
        let start = self.pos;
        while self.peek().is_some_and(is_tchar) {
            self.pos += 1;
        }
        (self.pos > start).then(|| String::from_utf8_lossy(&self.s[start..self.pos]).into_owned())
    }

    fn param(&mut self) -> Result<RawParam, Fail> {
        let name = self
            .token()
            .ok_or((self.pos, "expected a parameter name (token)"))?
            .to_ascii_lowercase();
        self.ows();
        if self.peek() != Some(b'=') {
            return Err((self.pos, "expected `=` after the parameter name"));
        }
        self.pos += 1;
        self.ows();
        if self.peek() == Some(b'"') {
            self.pos += 1;
            let mut value = String::new();
            let mut backslash = false;
            loop {
                match self.peek() {
                    None => return Err((self.pos, "unterminated quoted-string")),
                    Some(b'"') => {
                        self.pos += 1;
                        break;
                    }
                    Some(b'\\') => {
                        backslash = true;
                        self.pos += 1;
                        match self.peek() {
                            Some(b) if b == b'\t' || (0x20..=0x7e).contains(&b) => {
                                value.push(b as char);
                                self.pos += 1;
                            }
                            _ => return Err((self.pos, "invalid quoted-pair")),
                        }
                    }
                    Some(b) if b == b'\t' || (0x20..=0x7e).contains(&b) => {
                        value.push(b as char);
                        self.pos += 1;
                    }
                    Some(_) => return Err((self.pos, "invalid character in quoted-string")),
                }
            }
            Ok(RawParam {
                name,
                value,
                quoted: true,
                backslash,
            })
        } else {
            let value = self
                .token()
                .ok_or((self.pos, "expected a token or a quoted-string value"))?;
            Ok(RawParam {
                name,
                value,
                quoted: false,
                backslash: false,
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes(lines: &[&str]) -> Vec<&'static str> {
        parse_citation_source(lines)
            .incidents
            .iter()
            .map(|i| i.code.as_str())
            .collect()
    }

    #[test]
    fn seed_example_with_brackets_restored() {
        let p = parse_citation_source(&[
            "<https://example.com/article-a>; manifest=\"https://agent.example/runs/123/cite/a\",",
            "<https://example.com/article-b>; manifest=\"https://agent.example/runs/123/cite/b\"; run=\"123\"",
        ]);
        assert!(p.incidents.is_empty(), "{:?}", p.incidents);
        assert_eq!(p.entries.len(), 2);
        assert_eq!(p.entries[1].run.as_deref(), Some("123"));
        assert_eq!(p.run.as_deref(), Some("123"));
    }

    #[test]
    fn grammar_edges() {
        assert!(
            codes(&[" , <https://a.example/>;MANIFEST = \"https://m.example/\" ;x=y, ,"])
                .is_empty()
        );
        assert_eq!(codes(&[]), ["aca-header-missing"]);
        assert_eq!(codes(&[" ,, "]), ["aca-header-missing"]);
        assert_eq!(codes(&["https://a.example/"]), ["aca-header-syntax"]);
        assert_eq!(
            codes(&["<https://a.example/> manifest=\"x\""]),
            ["aca-header-syntax"]
        );
        assert_eq!(codes(&["<https://a.example/>;"]), ["aca-header-syntax"]);
        assert_eq!(codes(&["<>"]), ["aca-header-syntax"]);
        assert_eq!(
            codes(&["<https://a.example/>; manifest=\"https://m.example/\r\n x\""]),
            ["aca-header-syntax"]
        );
        assert_eq!(
            codes(&["<https://a.example/>; manifest=\"https://m.example/é\""]),
            ["aca-header-syntax"]
        );
        // A header-only entry is Level 1 (ACA-L1-005); Level 2 wants a manifest and a run.
        assert!(codes(&["<https://a.example/>"]).is_empty());
        let p = parse_citation_source(&["<https://a.example/>"]);
        let level2: Vec<&str> = p.level2.iter().map(|i| i.code.as_str()).collect();
        assert_eq!(level2, ["aca-header-manifest-missing", "aca-run-missing"]);
        assert_eq!(
            codes(&["<https://a.example/>; manifest=https://m.example/"]),
            ["aca-header-syntax"]
        );
        assert_eq!(
            codes(&["<https://a.example/>; manifest=m"]),
            ["aca-header-param-form"]
        );
        assert_eq!(
            codes(&[
                "<https://a.example/>; manifest=\"https://m.example/\"; Manifest=\"https://m.example/\""
            ]),
            ["aca-header-param-duplicate"]
        );
        assert_eq!(
            codes(&["<ftp://a.example/>; manifest=\"https://m.example/\""]),
            ["aca-url-invalid"]
        );
        assert_eq!(
            codes(&[
                "<https://a.example/>; manifest=\"https://m.example/\", <HTTPS://A.example:443/>; manifest=\"https://m.example/\""
            ]),
            ["aca-header-duplicate-source"]
        );
        assert_eq!(
            codes(&["<https://a.example/>; manifest=\"https://m.example/\"; run=\"a b\""]),
            ["aca-run-id-invalid"]
        );
        assert_eq!(
            codes(&[
                "<https://a.example/>; manifest=\"https://m.example/\"; run=\"1\"",
                "<https://b.example/>; manifest=\"https://m.example/\"; run=\"2\""
            ]),
            ["aca-run-mismatch"]
        );
        let long = format!(
            "<https://a.example/{}>; manifest=\"https://m.example/\"",
            "a".repeat(8200)
        );
        assert_eq!(codes(&[&long]), ["aca-header-too-long"]);
    }
}
