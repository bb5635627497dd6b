//! Span locators against artifact payloads (ARCHIVE-004).

use citeproof_model::IncidentCode;
use citeproof_model::archive::{ArchiveSpan, ArtifactPayload};

use crate::text;

/// What a valid span points at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Resolved {
    /// The span text of a text span.
    Text(String),
    /// A media span: no span text.
    Media,
}

/// Resolves `span` in `payload`, or the code and reason it fails with.
pub fn resolve(
    span: &ArchiveSpan,
    payload: &ArtifactPayload,
) -> Result<Resolved, (IncidentCode, String)> {
    let invalid = |why: &str| Err((IncidentCode::ArchiveSpanInvalid, why.to_owned()));
    let out_of_range = |why: String| Err((IncidentCode::ArchiveSpanOutOfRange, why));
    let kind_mismatch = |span: &str, artifact: &str| {
        Err((
            IncidentCode::ArchiveSpanKindMismatch,
            format!("a `{span}` span cannot cite a {artifact} artifact"),
        ))
    };
    match (span, payload) {
        (
            ArchiveSpan::Text {
                paragraph_index,
                char_start,
                char_end,
            },
            ArtifactPayload::Text { paragraphs, .. },
        ) => {
            if char_start >= char_end {
                return invalid("`char_start` must be below `char_end`");
            }
            let Some(p) = usize::try_from(*paragraph_index)
                .ok()
                .and_then(|i| paragraphs.get(i))
            else {
                return out_of_range(format!(
                    "paragraph {paragraph_index} does not exist ({} paragraphs)",
                    paragraphs.len()
                ));
            };
            let len = text::scalar_len(p);
            let (s, e) = (*char_start as usize, *char_end as usize);
            match text::scalar_slice(p, s, e) {
                Some(t) => Ok(Resolved::Text(t.to_owned())),
                None => out_of_range(format!(
                    "characters [{s}, {e}) are outside paragraph {paragraph_index} ({len} characters)"
                )),
            }
        }
        (ArchiveSpan::Text { .. }, other) => kind_mismatch("text", kind_name(other)),
        (
            ArchiveSpan::TimeRange { start_ms, end_ms },
            ArtifactPayload::Audio { duration_ms, .. } | ArtifactPayload::Video { duration_ms, .. },
        ) => {
            if start_ms >= end_ms {
                return invalid("`start_ms` must be below `end_ms`");
            }
            if end_ms > duration_ms {
                return out_of_range(format!(
                    "`end_ms` {end_ms} is after the end of the recording ({duration_ms} ms)"
                ));
            }
            Ok(Resolved::Media)
        }
        (ArchiveSpan::TimeRange { .. }, other) => kind_mismatch("time_range", kind_name(other)),
        (
            ArchiveSpan::Region {
                x,
                y,
                width,
                height,
            },
            ArtifactPayload::Image {
                width: iw,
                height: ih,
                ..
            },
        ) => {
            if *width == 0 || *height == 0 {
                return invalid("a region needs a width and a height of at least 1");
            }
            if u64::from(*x) + u64::from(*width) > u64::from(*iw)
                || u64::from(*y) + u64::from(*height) > u64::from(*ih)
            {
                return out_of_range(format!(
                    "the region {x},{y} {width}x{height} is outside the {iw}x{ih} image"
                ));
            }
            Ok(Resolved::Media)
        }
        (ArchiveSpan::Region { .. }, other) => kind_mismatch("region", kind_name(other)),
    }
}

fn kind_name(p: &ArtifactPayload) -> &'static str {
    match p {
        ArtifactPayload::Text { .. } => "text",
        ArtifactPayload::Audio { .. } => "audio",
        ArtifactPayload::Video { .. } => "video",
        ArtifactPayload::Image { .. } => "image",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use citeproof_model::{ContentHash, Extensions};

    fn text_payload() -> ArtifactPayload {
        ArtifactPayload::Text {
            media_type: "text/plain".into(),
            paragraphs: vec!["Ålesund, 1963.".into(), "The harbour froze.".into()],
            extensions: Extensions::default(),
        }
    }

    fn span(p: u32, s: u32, e: u32) -> ArchiveSpan {
        ArchiveSpan::Text {
            paragraph_index: p,
            char_start: s,
            char_end: e,
        }
    }

    #[test]
    fn text_spans_resolve_by_scalar_values() {
        assert_eq!(
            resolve(&span(0, 0, 7), &text_payload()),
            Ok(Resolved::Text("Ålesund".into()))
        );
        // Paragraph 1 has 18 scalar values: [4, 18) is the last allowed end.
        assert_eq!(
            resolve(&span(1, 4, 18), &text_payload()),
            Ok(Resolved::Text("harbour froze.".into()))
        );
        assert_eq!(
            resolve(&span(1, 4, 19), &text_payload()).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanOutOfRange)
        );
        assert_eq!(
            resolve(&span(2, 0, 1), &text_payload()).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanOutOfRange)
        );
        assert_eq!(
            resolve(&span(0, 3, 3), &text_payload()).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanInvalid)
        );
    }

    #[test]
    fn media_spans() {
        let audio = ArtifactPayload::Audio {
            media_type: "audio/ogg".into(),
            content_hash: ContentHash::from_digest([7; 32]),
            duration_ms: 60_000,
            extensions: Extensions::default(),
        };
        let range = |s, e| ArchiveSpan::TimeRange {
            start_ms: s,
            end_ms: e,
        };
        assert_eq!(resolve(&range(0, 60_000), &audio), Ok(Resolved::Media));
        assert_eq!(
            resolve(&range(0, 60_001), &audio).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanOutOfRange)
        );
        assert_eq!(
            resolve(&range(5, 5), &audio).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanInvalid)
        );
        assert_eq!(
            resolve(&span(0, 0, 1), &audio).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanKindMismatch)
        );
        assert_eq!(
            resolve(&range(0, 1), &text_payload()).map_err(|e| e.0),
            Err(IncidentCode::ArchiveSpanKindMismatch)
        );
    }
}
