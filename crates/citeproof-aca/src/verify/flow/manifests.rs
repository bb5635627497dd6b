//! Step 2: the manifests of a response, and how they bind to it (ACA-L2-001 to -012,
//! ACA-L2-021).

use std::collections::{HashMap, HashSet};

use super::*;
use crate::verify::url::EqualityKeys;
use citeproof_model::CLOCK_SKEW_SECONDS;

pub(super) fn load_manifest(run: &mut Run<'_>, url: &str) -> ManifestState {
    let mut state = ManifestState {
        url: url.to_owned(),
        response: None,
        canonical: None,
        findings: None,
        normalized: Vec::new(),
        report: ManifestReport {
            url: url.to_owned(),
            run_id: None,
            response_url: None,
            digest: None,
            signed_by: None,
            signature: SignatureVerdict::NotChecked {
                reason: "not verified yet".into(),
            },
            failed: Vec::new(),
            claims: Vec::new(),
            fetched: false,
            label_keyid: None,
            label_thumbprint: None,
            level3_extra: Vec::new(),
        },
    };
    let resp = match run.fetch_ok(url, IncidentCode::AcaManifestFetchFailed, "manifest") {
        Ok(r) => r,
        Err(incidents) => {
            run.extend(2, incidents);
            return state;
        }
    };
    // A JSON snapshot hashed the body while decoding it.
    let digest = run
        .fetcher
        .known_sha256(&resp.body)
        .unwrap_or_else(|| sha256_bytes(&resp.body));
    state.report.digest = Some(digest.to_string());
    state.report.fetched = true;
    let media = resp
        .content_type_essence()
        .unwrap_or_else(|| "application/octet-stream".into());
    if media != "application/json" && !media.ends_with("+json") {
        run.push(
            2,
            Incident::new(
                IncidentCode::AcaManifestContentType,
                format!(
                    "the manifest is served as `{media}`, not application/json or a +json type"
                ),
                url_location(url),
            ),
        );
    }
    match read_manifest(&resp.body, Some(url)) {
        Ok((findings, canonical)) => {
            run.extend(2, findings.level2.iter().cloned());
            state.report.run_id = findings.manifest.run_id.clone();
            state.report.response_url = findings.manifest.response_url.clone();
            state.report.claims = findings
                .manifest
                .claims
                .iter()
                .map(|c| ClaimReport {
                    claim_id: c.claim_id.clone(),
                    text: c.text.clone(),
                    sources: Vec::new(),
                    supported: None,
                    verified: false,
                    failed: Vec::new(),
                })
                .collect();
            state.findings = Some(findings);
            state.canonical = Some(canonical);
        }
        Err(e) => {
            let mut i = e.to_incident();
            i.location.url = Some(url.to_owned());
            run.push(2, i);
        }
    }
    state.response = Some(resp);
    state
}

/// ACA-L2-004.
pub(super) fn check_run_binding(
    run: &mut Run<'_>,
    manifests: &[ManifestState],
    header_run: Option<&str>,
) {
    let mut reference: Option<(String, String)> =
        header_run.map(|r| (r.to_owned(), "the header's run parameter".to_owned()));
    for m in manifests {
        let Some(id) = m.findings.as_ref().and_then(|f| f.manifest.run_id.clone()) else {
            continue;
        };
        match &reference {
            None => reference = Some((id, format!("manifest `{}`", m.url))),
            Some((r, from)) if *r != id => {
                at_member(
                    run,
                    &m.url,
                    "/run_id",
                    IncidentCode::AcaRunMismatch,
                    format!(
                        "run_id `{id}` differs from `{r}` of {from}: the manifest was reused across runs"
                    ),
                );
            }
            Some(_) => {}
        }
    }
}

/// ACA-L2-024 and ACA-L2-025: a manifest that names the response it was emitted for names
/// this one (URL equality with the URL of the response as verified: the final URL after
/// redirects, or the snapshot's response URL); a manifest that names none is unbound.
pub(super) fn check_response_binding(
    run: &mut Run<'_>,
    response_url: &str,
    manifests: &[ManifestState],
) {
    for m in manifests {
        let Some(f) = &m.findings else { continue };
        match &f.manifest.response_url {
            Some(named) if urls_equal(named, response_url) => {}
            Some(named) => {
                let message = format!(
                    "the manifest was emitted for the response `{named}`, not for `{response_url}`: this response is a copy served at another URL, or cites another response's manifest"
                );
                let code = IncidentCode::AcaResponseUrlMismatch;
                at_member(run, &m.url, "/response_url", code, message);
            }
            None if f.manifest.has_response_url_member => {} // invalid: reported by the manifest check
            None => run.push(
                2,
                Incident::new(
                    IncidentCode::AcaResponseUnbound,
                    "the manifest does not name the response it was emitted for (response_url): a copy of this response served at another URL can only be told apart by a verifier's history (ACA-L2-022)",
                    url_location(&m.url),
                ),
            ),
        }
    }
}

/// ACA-L2-021: every claim text of every manifest occurs in the response body.
pub(super) fn check_claims_in_response(
    run: &mut Run<'_>,
    agent: &FetchedResponse,
    manifests: &mut [ManifestState],
) {
    for m in manifests.iter_mut() {
        if let Some(f) = &m.findings {
            m.normalized = f
                .manifest
                .claims
                .iter()
                .map(|c| c.text.as_deref().map(normalize))
                .collect();
        }
    }
    let manifests = &*manifests;
    let text = ResponseText::of(agent.header("content-type"), &agent.body);
    let claims: Vec<&str> = manifests
        .iter()
        .flat_map(|m| m.normalized.iter())
        .filter_map(Option::as_deref)
        .collect();
    let found = match text.find_normalized(&claims) {
        Ok(found) => found,
        Err(e) => {
            // Unreachable through FETCH-004 (see `MAX_INDEXED_TEXT_BYTES`); typed all the same.
            run.push(
                2,
                Incident::new(
                    IncidentCode::AcaBudgetExhausted,
                    format!(
                        "the response text ({} bytes) is too large to search for the claims",
                        e.bytes
                    ),
                    url_location(&agent.url),
                ),
            );
            return;
        }
    };
    let mut found = found.into_iter();
    for m in manifests {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            if c.text.is_none() {
                continue;
            }
            if found.next().unwrap_or(false) {
                continue;
            }
            let why = if text.is_empty() {
                "the response body has no text to find it in (not a textual media type, not UTF-8, or empty)"
            } else {
                "it does not occur in the response body (compared after normalization)"
            };
            run.push(
                2,
                Incident::new(
                    IncidentCode::AcaClaimNotInResponse,
                    format!("claim `{}`: {why}", c.claim_id.as_deref().unwrap_or("?")),
                    Location {
                        url: Some(m.url.clone()),
                        claim_id: c.claim_id.clone(),
                        pointer: Some(format!("{}/text", c.pointer)),
                        ..Location::default()
                    },
                ),
            );
        }
    }
}

/// ACA-L2-007 (second half).
pub(super) fn check_claim_id_conflicts(run: &mut Run<'_>, manifests: &[ManifestState]) {
    let mut seen: HashMap<&str, (&str, &str)> = HashMap::new();
    let mut reported: HashSet<&str> = HashSet::new();
    for m in manifests {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            let (Some(id), Some(text)) = (&c.claim_id, &c.text) else {
                continue;
            };
            match seen.get(id.as_str()) {
                None => {
                    seen.insert(id, (text, &m.url));
                }
                Some((t, other)) if t != text && *other != m.url && reported.insert(id) => {
                    run.push(
                        2,
                        Incident::new(
                            IncidentCode::AcaClaimIdConflict,
                            format!(
                                "claim_id `{id}` names different texts in `{other}` and `{}`",
                                m.url
                            ),
                            Location {
                                url: Some(m.url.clone()),
                                claim_id: Some(id.clone()),
                                pointer: Some(format!("{}/text", c.pointer)),
                                ..Location::default()
                            },
                        ),
                    );
                }
                Some(_) => {}
            }
        }
    }
}

/// A Level 2 finding about the member at `pointer` of the manifest at `url`.
fn at_member(run: &mut Run<'_>, url: &str, pointer: &str, code: IncidentCode, message: String) {
    let mut location = url_location(url);
    location.pointer = Some(pointer.to_owned());
    run.push(2, Incident::new(code, message, location));
}

/// ACA-L2-011 (warning).
pub(super) fn check_emission_time(run: &mut Run<'_>, manifests: &[ManifestState]) {
    for m in manifests {
        let Some(t) = m
            .findings
            .as_ref()
            .and_then(|f| f.manifest.emitted_at.clone())
        else {
            continue;
        };
        let limit = run.opts.now.saturating_add(CLOCK_SKEW_SECONDS);
        // Offsets are whole minutes, so the fraction written is the instant's fraction.
        let later = t.unix_seconds() > limit
            || (t.unix_seconds() == limit && has_nonzero_fraction(t.as_str()));
        if later {
            at_member(
                run,
                &m.url,
                "/emitted_at",
                IncidentCode::AcaEmittedInFuture,
                format!(
                    "emitted_at {t} is more than {CLOCK_SKEW_SECONDS} s after the verification time"
                ),
            );
        }
    }
}

/// Whether a timestamp's text has a fraction of a second other than zero (`.000` is zero).
pub(super) fn has_nonzero_fraction(text: &str) -> bool {
    text.get(19..)
        .and_then(|rest| rest.strip_prefix('.'))
        .is_some_and(|digits| {
            digits
                .chars()
                .take_while(char::is_ascii_digit)
                .any(|c| c != '0')
        })
}

/// ACA-L2-012.
pub(super) fn check_header_agreement(
    run: &mut Run<'_>,
    entries: &[crate::verify::header::HeaderEntry],
    manifests: &mut [ManifestState],
) {
    // Level 3 findings about a manifest's chain, located at the source it omits.
    let mut omitted: Vec<usize> = Vec::new();
    // Equality keys are computed once per distinct URL string and the sources of each manifest
    // collected once: comparing every header entry with every claim source, URL by URL, is
    // O(entries × claims) URL parses.
    let mut keys = EqualityKeys::default();
    let header_sources: HashSet<String> = entries
        .iter()
        .filter(|e| crate::verify::url::is_web_url(&e.source))
        .map(|e| keys.key(&e.source).to_owned())
        .collect();
    // Per manifest with findings: the keys of its claims' sources and of its chain's sources.
    let mut cited: Vec<Option<(HashSet<String>, HashSet<String>)>> =
        Vec::with_capacity(manifests.len());
    for m in manifests.iter() {
        cited.push(m.findings.as_ref().map(|f| {
            let claims = f
                .manifest
                .claims
                .iter()
                .flat_map(|c| c.sources.iter())
                .filter_map(|s| s.url.as_deref())
                .map(|u| keys.key(u).to_owned())
                .collect();
            let chain = f
                .manifest
                .chain
                .iter()
                .flatten()
                .flat_map(|st| st.sources.iter())
                .map(|u| keys.key(u).to_owned())
                .collect();
            (claims, chain)
        }));
    }
    for entry in entries.iter().filter(|e| e.usable) {
        let Some(m_url) = &entry.manifest else {
            continue;
        };
        let wanted = keys.key(m_url).to_owned();
        let Some(i) = manifests.iter().position(|m| keys.key(&m.url) == wanted) else {
            continue;
        };
        let Some(Some((claims, chain))) = cited.get(i) else {
            continue;
        };
        let k = keys.key(&entry.source);
        // A consulted source no claim cites is fine ("every source URL consulted"), but at
        // Level 3 the chain of its manifest records the tool call that consulted it.
        if !claims.contains(k) && !chain.contains(k) {
            omitted.push(i);
            run.push(
                3,
                Incident::new(
                    IncidentCode::AcaSourceNotInManifest,
                    format!(
                        "`{}` is listed in Citation-Source, but neither a claim nor the chain of manifest `{m_url}` names it",
                        entry.source
                    ),
                    url_location(&entry.source),
                ),
            );
        }
    }
    for i in omitted {
        if let Some(m) = manifests.get_mut(i) {
            m.report
                .level3_extra
                .push(IncidentCode::AcaSourceNotInManifest);
        }
    }
    for m in manifests.iter() {
        let Some(f) = &m.findings else { continue };
        for c in &f.manifest.claims {
            for s in &c.sources {
                let Some(u) = &s.url else { continue };
                if !header_sources.contains(keys.key(u)) {
                    run.push(
                        2,
                        Incident::new(
                            IncidentCode::AcaSourceNotInHeader,
                            format!(
                                "source `{u}` is cited in `{}` but not listed in Citation-Source",
                                m.url
                            ),
                            Location {
                                url: Some(m.url.clone()),
                                pointer: Some(format!("{}/url", s.pointer)),
                                claim_id: c.claim_id.clone(),
                                ..Location::default()
                            },
                        ),
                    );
                }
            }
        }
    }
}
