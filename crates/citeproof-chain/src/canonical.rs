//! CHAIN-004: the canonical URL is https, names the claim id in its path, and sits on the host
//! its `did:web` signer names (the canonical URL is outside every signing input, so this is
//! what keeps the Level 2 re-fetch on the signer's site).

use citeproof_model::{Incident, IncidentCode};

use crate::envelope::CheckedEnvelope;

/// The host (and `:port`) a `did:web` signer names (W3C did:web: the first colon-separated
/// segment of the method-specific id, `%3A` standing for `:`), lowercased. `None` for other
/// signers; `Some("")` for a `did:web` without a usable domain.
pub fn did_web_authority(signed_by: &str) -> Option<String> {
    let rest = signed_by.strip_prefix("did:web:")?;
    let domain = rest.split(':').next().unwrap_or_default();
    let decoded = domain.replace("%3A", ":").replace("%3a", ":");
    let ok = !decoded.is_empty()
        && decoded
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b':'));
    Some(if ok {
        decoded.to_ascii_lowercase()
    } else {
        String::new()
    })
}

/// CHAIN-004: `canonical` is https, has the claim id as a path segment, and sits on the host a
/// `did:web` signer names.
pub(crate) fn check_canonical(e: &CheckedEnvelope, out: &mut Vec<Incident>) {
    let Some(canonical) = &e.canonical else {
        return;
    };
    let Ok(url) = url::Url::parse(canonical) else {
        out.push(e.at(
            IncidentCode::ChainCanonicalInvalid,
            "/canonical",
            format!("canonical `{canonical}` is not accepted by the WHATWG URL parser"),
        ));
        return;
    };
    if url.scheme() != "https" {
        out.push(e.at(
            IncidentCode::ChainCanonicalInvalid,
            "/canonical",
            format!("canonical `{canonical}` is not an https URL"),
        ));
    }
    if let Some(id) = &e.claim_id {
        let has_segment = url
            .path_segments()
            .is_some_and(|mut segments| segments.any(|s| s == id));
        if !has_segment {
            out.push(e.at(
                IncidentCode::ChainCanonicalInvalid,
                "/canonical",
                format!("canonical `{canonical}` has no path segment equal to the claim id `{id}`"),
            ));
        }
    }
    if let Some(signer) = &e.signed_by
        && let Some(authority) = did_web_authority(signer)
    {
        let host = url.host_str().unwrap_or_default().to_ascii_lowercase();
        let actual = match url.port() {
            Some(p) => format!("{host}:{p}"),
            None => host,
        };
        if authority.is_empty() || authority != actual {
            out.push(e.at(
                IncidentCode::ChainCanonicalOriginMismatch,
                "/canonical",
                format!(
                    "canonical `{canonical}` is on `{actual}`, but the signer `{signer}` is the did:web of `{authority}`"
                ),
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_web_authorities() {
        assert_eq!(
            did_web_authority("did:web:sourcescore.org").as_deref(),
            Some("sourcescore.org")
        );
        assert_eq!(
            did_web_authority("did:web:Example.COM%3A8443:user:alice").as_deref(),
            Some("example.com:8443")
        );
        assert_eq!(did_web_authority("did:web:").as_deref(), Some(""));
        assert_eq!(did_web_authority("did:web:a/b").as_deref(), Some(""));
        assert_eq!(did_web_authority("did:key:z6Mk"), None);
        assert_eq!(did_web_authority("sourcescore-hmac"), None);
    }
}
