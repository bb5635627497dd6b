//! The `Citation-Source` header emitter (ACA Level 1).
//!
//! Output: `<source>; manifest="<url>"[; run="<id>"][; name=value ...]` entries joined with
//! `, `, which is exactly the grammar of the profile (URLs are web URLs, so they contain no
//! `<`, `>`, `"` or `\`; parameter values are tokens when they can be, else quoted-strings).

use citeproof_model::aca::CitationSourceEntry;
use citeproof_model::token::is_token;

use super::error::{InputRefusal, SignError};

/// One entry to format, as strings (nothing validated).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryText<'a> {
    pub source: &'a str,
    pub manifest: Option<&'a str>,
    pub run: Option<&'a str>,
    pub params: &'a [(String, String)],
}

/// Formats entries exactly as docs/ADAPTER.md `aca-header-emit` says, without any check:
/// `<S>; manifest="M"`, then `; run="R"`, then `; name=value` per parameter (the value as a
/// token when it is one, else a quoted-string with `"` and `\` escaped), joined with `, `.
/// Callers check the result (the verifier's parser, or [`emit_citation_source`]).
pub fn format_citation_source(entries: &[EntryText<'_>]) -> String {
    let parts: Vec<String> = entries
        .iter()
        .map(|e| {
            let mut part = format!("<{}>", e.source);
            if let Some(m) = e.manifest {
                part.push_str(&format!("; manifest=\"{m}\""));
            }
            if let Some(r) = e.run {
                part.push_str(&format!("; run=\"{r}\""));
            }
            for (name, value) in e.params {
                if is_token(value) {
                    part.push_str(&format!("; {name}={value}"));
                } else {
                    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
                    part.push_str(&format!("; {name}=\"{escaped}\""));
                }
            }
            part
        })
        .collect();
    parts.join(", ")
}

/// The header value for `entries` (at least one; sources distinct).
pub fn emit_citation_source(entries: &[CitationSourceEntry]) -> Result<String, SignError> {
    if entries.is_empty() {
        return Err(InputRefusal::InvalidValue {
            what: "Citation-Source",
            reason: "at least one entry is required".into(),
        }
        .into());
    }
    if entries.len() > 256 {
        return Err(InputRefusal::InvalidValue {
            what: "Citation-Source",
            reason: "at most 256 entries are allowed".into(),
        }
        .into());
    }
    let mut parts = Vec::with_capacity(entries.len());
    let mut seen: Vec<&str> = Vec::new();
    for e in entries {
        let source = e.source.as_str();
        let manifest = e.manifest.as_str();
        InputRefusal::check_web_url(source)?;
        InputRefusal::check_web_url(manifest)?;
        if seen.contains(&source) {
            return Err(InputRefusal::InvalidValue {
                what: "Citation-Source",
                reason: format!("source `{source}` is listed twice"),
            }
            .into());
        }
        seen.push(source);
        let mut part = format!("<{source}>; manifest=\"{manifest}\"");
        if let Some(run) = &e.run {
            if !citeproof_model::ids::is_run_id(run) {
                return Err(InputRefusal::InvalidId {
                    what: "run id",
                    value: run.clone(),
                }
                .into());
            }
            part.push_str(&format!("; run=\"{run}\""));
        }
        let mut names: Vec<String> = vec!["manifest".into(), "run".into()];
        for (name, value) in &e.params {
            let lower = name.to_ascii_lowercase();
            if !is_token(name) || names.contains(&lower) {
                return Err(InputRefusal::InvalidValue {
                    what: "Citation-Source parameter",
                    reason: format!("`{name}` is not a token or is repeated"),
                }
                .into());
            }
            names.push(lower.clone());
            if is_token(value) {
                part.push_str(&format!("; {lower}={value}"));
            } else if value
                .bytes()
                .all(|b| b == b'\t' || (0x20..=0x7e).contains(&b))
            {
                let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
                part.push_str(&format!("; {lower}=\"{escaped}\""));
            } else {
                return Err(InputRefusal::InvalidValue {
                    what: "Citation-Source parameter",
                    reason: format!("the value of `{name}` has characters a header cannot carry"),
                }
                .into());
            }
        }
        parts.push(part);
    }
    let value = parts.join(", ");
    if value.len() > 8192 {
        return Err(InputRefusal::InvalidValue {
            what: "Citation-Source",
            reason: format!("{} bytes; the limit is 8192", value.len()),
        }
        .into());
    }
    Ok(value)
}

/// One entry per source, all pointing to the same manifest and run (one manifest per run).
pub fn entries_for_run(
    sources: &[String],
    manifest_url: &str,
    run_id: Option<&str>,
) -> Result<Vec<CitationSourceEntry>, SignError> {
    let manifest = citeproof_model::HttpUrl::parse(manifest_url).map_err(|reason| {
        InputRefusal::InvalidUrl {
            value: manifest_url.to_owned(),
            reason,
        }
    })?;
    sources
        .iter()
        .map(|s| {
            Ok(CitationSourceEntry {
                source: citeproof_model::HttpUrl::parse(s).map_err(|reason| {
                    InputRefusal::InvalidUrl {
                        value: s.clone(),
                        reason,
                    }
                })?,
                manifest: manifest.clone(),
                run: run_id.map(str::to_owned),
                params: Vec::new(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emits_the_profile_grammar() {
        let mut entries = entries_for_run(
            &[
                "https://example.com/a".into(),
                "https://example.com/b".into(),
            ],
            "https://agent.example/runs/123/cite",
            Some("123"),
        )
        .unwrap();
        entries[1].params.push(("Lang".into(), "en gb".into()));
        assert_eq!(
            emit_citation_source(&entries).unwrap(),
            "<https://example.com/a>; manifest=\"https://agent.example/runs/123/cite\"; run=\"123\", \
             <https://example.com/b>; manifest=\"https://agent.example/runs/123/cite\"; run=\"123\"; lang=\"en gb\""
        );
        assert!(emit_citation_source(&[]).is_err());
        let dup = vec![entries[0].clone(), entries[0].clone()];
        assert!(emit_citation_source(&dup).is_err());
    }
}
