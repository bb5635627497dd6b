//! ARCHIVE-034: a context request names a response delivered to its requester, a handle that
//! response shows, and delivers nothing of a source that consent or the tier withholds. Handles
//! are resolved from the signed bundle (ARCHIVE-015 fixes their order), so a request's handle
//! is checked only when its response's bundle is given.

use std::collections::HashMap;

use citeproof_model::archive::{ArtifactPayload, BundleOutcome, Consent, LogEvent, ResponseBundle};
use citeproof_model::{ContentHash, IncidentCode};

use crate::display::handle;
use crate::findings::{Findings, pointer};
use crate::log::Line;
use crate::store::Store;

/// The display handles of a bundle (handle -> artifact), derived from the bundle and the consent
/// in force at its `created_at`; `None` without a snapshot in force.
pub fn handles_of(bundle: &ResponseBundle, store: &Store) -> Option<HashMap<String, ContentHash>> {
    let in_force = store.in_force_at(&bundle.created_at)?;
    let mut order: Vec<ContentHash> = Vec::new();
    for c in bundle.claims.iter().filter(|c| c.rung.is_delivered()) {
        for cit in &c.citations {
            if store.consent_in(in_force, &cit.artifact_id) != Consent::Hidden
                && !order.contains(&cit.artifact_id)
            {
                order.push(cit.artifact_id);
            }
        }
    }
    Some(
        order
            .into_iter()
            .enumerate()
            .map(|(k, id)| (handle(k + 1), id))
            .collect(),
    )
}

/// The last answered bundle record seen so far of one (response, requester).
struct Answered<'a> {
    tier: &'a str,
    bundle_hash: ContentHash,
}

/// ARCHIVE-034 over the records that have their form; `given` maps the JCS hash of each bundle
/// given to the verifier to its handles.
pub fn check_context(
    lines: &[Line],
    store: &Store,
    given: &HashMap<ContentHash, Option<HashMap<String, ContentHash>>>,
    f: &mut Findings,
) {
    let mut answered: HashMap<(&str, &str), Answered<'_>> = HashMap::new();
    for (n, line) in lines.iter().enumerate() {
        let Some(record) = &line.record else {
            continue;
        };
        match &record.event {
            LogEvent::Bundle {
                response_id,
                requester,
                tier,
                bundle_hash,
                outcome: BundleOutcome::Answered,
                ..
            } => {
                answered.insert(
                    (response_id.as_str(), requester.as_str()),
                    Answered {
                        tier,
                        bundle_hash: *bundle_hash,
                    },
                );
            }
            LogEvent::ContextRequest {
                requester,
                response_id,
                handle,
                delivered_chars,
                ..
            } => {
                let at = pointer("", n);
                let Some(b) = answered.get(&(response_id.as_str(), requester.as_str())) else {
                    f.at(
                        IncidentCode::ArchiveContextUnbound,
                        pointer(&at, "response_id"),
                        format!(
                            "no earlier record delivered response `{response_id}` to `{requester}`"
                        ),
                    );
                    continue;
                };
                let in_force = store.in_force_at(&record.at);
                let cap = in_force
                    .and_then(|i| store.tier(i, b.tier))
                    .map_or(0, |t| t.excerpt_cap);
                let mut withheld = (cap == 0)
                    .then(|| format!("tier `{}` allows no excerpt, so no context either", b.tier));
                if let Some(Some(handles)) = given.get(&b.bundle_hash) {
                    let Some(id) = handles.get(handle.as_str()) else {
                        f.at(
                            IncidentCode::ArchiveContextUnbound,
                            pointer(&at, "handle"),
                            format!("response `{response_id}` shows no `{handle}`"),
                        );
                        continue;
                    };
                    let open = in_force.is_some_and(|i| store.consent_in(i, id) == Consent::Open);
                    let text = matches!(store.payload(id), Some(ArtifactPayload::Text { .. }));
                    if withheld.is_none() && !(open && text) {
                        withheld = Some(format!(
                            "`{handle}` is not an open text artifact in force: no context is delivered from it"
                        ));
                    }
                }
                if let Some(why) = withheld
                    && *delivered_chars > 0
                {
                    f.at(
                        IncidentCode::ArchiveContextWithheld,
                        pointer(&at, "delivered_chars"),
                        format!("{delivered_chars} characters delivered; {why}"),
                    );
                }
            }
            _ => {}
        }
    }
}
