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

mod grammar;
use grammar::{Grammar, RawEntry};

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

/// Parses the `Citation-Source` field lines of one response (in order; names already matched
/// case-insensitively by the caller). No lines means the header is missing.
pub fn parse_citation_source(lines: &[&str]) -> HeaderParse {
    let mut out = HeaderParse::default();
    let raw = match raw_entries(lines) {
        Ok(raw) => raw,
        Err(refused) => {
            out.incidents.push(*refused);
            return out;
        }
    };
    let mut seen_sources: Vec<(String, String)> = Vec::new();
    let mut runs: Vec<(String, usize)> = Vec::new();
    for entry in raw {
        let parsed = read_entry(entry, &mut seen_sources, &mut runs, &mut out);
        out.entries.push(parsed);
    }
    out.run = agreed_run(&runs, &mut out.incidents);
    out
}

/// The entries of the combined value, or the one incident that refuses it whole (missing,
/// too long, a forbidden byte, off the grammar, empty, too many entries).
fn raw_entries(lines: &[&str]) -> Result<Vec<RawEntry>, Box<Incident>> {
    let refuse =
        |code, message: String, offset| Err(Box::new(incident(code, message, offset, None)));
    if lines.is_empty() {
        return refuse(
            IncidentCode::AcaHeaderMissing,
            "the response has no Citation-Source field".into(),
            None,
        );
    }
    let combined = lines.join(", ");
    if combined.len() > MAX_HEADER_BYTES {
        return refuse(
            IncidentCode::AcaHeaderTooLong,
            format!(
                "the combined Citation-Source value is {} bytes; the limit is {MAX_HEADER_BYTES}",
                combined.len()
            ),
            None,
        );
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
        return refuse(
            IncidentCode::AcaHeaderSyntax,
            format!("the Citation-Source value contains {what}"),
            Some(offset),
        );
    }
    let raw = match Grammar::new(&combined).list() {
        Ok(entries) => entries,
        Err((offset, why)) => {
            return refuse(
                IncidentCode::AcaHeaderSyntax,
                format!(
                    "the Citation-Source value does not match the grammar at byte {offset}: {why}"
                ),
                Some(offset),
            );
        }
    };
    if raw.is_empty() {
        return refuse(
            IncidentCode::AcaHeaderMissing,
            "the Citation-Source field lists no source".into(),
            None,
        );
    }
    if raw.len() > MAX_HEADER_ENTRIES {
        return refuse(
            IncidentCode::AcaHeaderTooLong,
            format!(
                "the Citation-Source value has {} entries; the limit is {MAX_HEADER_ENTRIES}",
                raw.len()
            ),
            None,
        );
    }
    Ok(raw)
}

/// One entry under the rules of ACA-L1-004 to ACA-L1-008: its source URL (a web URL, listed
/// once), its parameters; incidents go to `out`.
fn read_entry(
    entry: RawEntry,
    seen_sources: &mut Vec<(String, String)>,
    runs: &mut Vec<(String, usize)>,
    out: &mut HeaderParse,
) -> HeaderEntry {
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
    let params = entry_params(&entry, &mut out.incidents);
    usable &= params.manifest_usable;
    if let Some(run) = &params.run {
        runs.push((run.clone(), entry.offset));
    }
    if !params.manifest_seen {
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
    if params.run.is_none() {
        out.level2.push(incident(
            IncidentCode::AcaRunMissing,
            format!(
                "the entry for `{}` has no run parameter: Level 2 binds every manifest to the run of this response",
                entry.url
            ),
            Some(entry.offset),
            url_loc,
        ));
    }
    HeaderEntry {
        source: entry.url,
        manifest: params.manifest,
        run: params.run,
        params: params.other,
        offset: entry.offset,
        usable,
    }
}

/// The parameters of one entry, read.
struct EntryParams {
    manifest: Option<String>,
    run: Option<String>,
    other: Vec<(String, String)>,
    manifest_seen: bool,
    /// False when a `manifest` parameter was repeated or malformed.
    manifest_usable: bool,
}

/// The `manifest` and `run` parameters (ACA-L1-005, ACA-L1-007: quoted-strings without
/// backslash, each once) and the others (ACA-L1-006).
fn entry_params(entry: &RawEntry, incidents: &mut Vec<Incident>) -> EntryParams {
    let mut read = EntryParams {
        manifest: None,
        run: None,
        other: Vec::new(),
        manifest_seen: false,
        manifest_usable: true,
    };
    let url_loc = Some(entry.url.clone());
    let mut names: Vec<&str> = Vec::new();
    for p in &entry.params {
        let is_manifest = p.name == "manifest";
        if names.contains(&p.name.as_str()) {
            incidents.push(incident(
                IncidentCode::AcaHeaderParamDuplicate,
                format!(
                    "parameter `{}` occurs more than once in the entry for `{}`",
                    p.name, entry.url
                ),
                Some(entry.offset),
                url_loc.clone(),
            ));
            read.manifest_usable &= !is_manifest;
            continue;
        }
        names.push(&p.name);
        if !is_manifest && p.name != "run" {
            read.other.push((p.name.clone(), p.value.clone()));
            continue;
        }
        read.manifest_seen |= is_manifest;
        if !p.quoted || p.backslash {
            incidents.push(incident(
                IncidentCode::AcaHeaderParamForm,
                format!(
                    "the `{}` parameter of `{}` must be a quoted-string without backslash",
                    p.name, entry.url
                ),
                Some(entry.offset),
                url_loc.clone(),
            ));
            read.manifest_usable &= !is_manifest;
        } else if is_manifest {
            match web_url_problem(&p.value) {
                Some(problem) => {
                    read.manifest_usable = false;
                    incidents.push(incident(
                        IncidentCode::AcaUrlInvalid,
                        format!("manifest URL `{}` is not a web URL: {problem}", p.value),
                        Some(entry.offset),
                        Some(p.value.clone()),
                    ));
                }
                None => read.manifest = Some(p.value.clone()),
            }
        } else if !is_run_id(&p.value) {
            incidents.push(incident(
                IncidentCode::AcaRunIdInvalid,
                format!(
                    "run `{}` does not match ^[A-Za-z0-9][A-Za-z0-9._:-]{{0,127}}$",
                    p.value
                ),
                Some(entry.offset),
                url_loc.clone(),
            ));
        } else {
            read.run = Some(p.value.clone());
        }
    }
    read
}

/// The run every entry names (ACA-L1-007's agreement); each disagreeing one is an incident.
fn agreed_run(runs: &[(String, usize)], incidents: &mut Vec<Incident>) -> Option<String> {
    let (first, _) = runs.first()?;
    let mut consistent = true;
    for (other, offset) in &runs[1..] {
        if other != first {
            consistent = false;
            incidents.push(incident(
                IncidentCode::AcaRunMismatch,
                format!("run parameters disagree: `{first}` and `{other}`"),
                Some(*offset),
                None,
            ));
        }
    }
    consistent.then(|| first.clone())
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

pub(crate) use citeproof_model::token::is_tchar;

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
