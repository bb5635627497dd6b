//! The archive a verifier is configured with (ARCHIVE-002, ARCHIVE-003, ARCHIVE-024): payloads by
//! content address, snapshots in publication order, the snapshot and consent in force, and the
//! span text of a text span.

use std::collections::{BTreeMap, HashMap, HashSet};

use citeproof_model::archive::{
    Archive, ArchivePolicy, ArchiveSnapshot, ArtifactPayload, Consent, TierRule,
};
use citeproof_model::{
    ContentHash, IncidentCode, Timestamp, jcs, json::parse_strict, sha256_bytes,
};
use citeproof_schema::{DocumentKind, SchemaValidator};
use serde_json::Value;

use crate::findings::{Findings, pointer};
use crate::text;

/// A checked archive. Built only by [`Store::load`]; every id is the hash of its payload.
#[derive(Debug, Clone)]
pub struct Store {
    snapshots: Vec<ArchiveSnapshot>,
    by_version: HashMap<String, usize>,
    /// Consent of each artifact per snapshot index.
    consent: Vec<HashMap<ContentHash, Consent>>,
    payloads: HashMap<ContentHash, ArtifactPayload>,
}

impl Store {
    /// Checks an archive document. The store is returned only when it has no error: no
    /// verdict rests on a broken archive.
    pub fn load(value: &Value) -> (Option<Store>, Findings) {
        let mut f = Findings::new();
        match SchemaValidator::cached(DocumentKind::Archive) {
            Ok(v) => f.extend(v.validate(value)),
            Err(e) => f.at(IncidentCode::SchemaViolation, "", e.to_string()),
        }
        if f.has_errors() {
            return (None, f);
        }
        let archive: Archive = match citeproof_model::typed(value) {
            Ok(a) => a,
            Err(i) => {
                f.push(i);
                return (None, f);
            }
        };
        let store = Store::check(archive, value, &mut f);
        if f.has_errors() {
            (None, f)
        } else {
            (Some(store), f)
        }
    }

    /// Strict parse, then [`Store::load`].
    pub fn load_bytes(bytes: &[u8]) -> (Option<Store>, Findings) {
        match parse_strict(bytes) {
            Ok(v) => Store::load(&v),
            Err(e) => {
                let mut f = Findings::new();
                f.push(e.to_incident());
                (None, f)
            }
        }
    }

    fn check(archive: Archive, raw: &Value, f: &mut Findings) -> Store {
        let mut payloads = HashMap::new();
        for (id_text, payload) in &archive.artifacts {
            let at = pointer("/artifacts", id_text);
            let Ok(id) = id_text.parse::<ContentHash>() else {
                f.at(
                    IncidentCode::CanonHashSyntax,
                    at,
                    "an artifact id is not `sha256:` + 64 hex",
                );
                continue;
            };
            let raw_payload = raw.get("artifacts").and_then(|a| a.get(id_text));
            if let Some(raw_payload) = raw_payload {
                let actual = sha256_bytes(&jcs::canonicalize(raw_payload));
                if actual != id {
                    f.at(
                        IncidentCode::ArchiveArtifactIdMismatch,
                        at.clone(),
                        format!("the payload hashes to {actual}, not to its id"),
                    );
                }
            }
            if let ArtifactPayload::Text { paragraphs, .. } = payload {
                for (i, p) in paragraphs.iter().enumerate() {
                    if p.is_empty() || !text::is_nfc_text(p) {
                        f.at(
                            IncidentCode::ArchiveArtifactNotCanonical,
                            pointer(&pointer(&at, "paragraphs"), i),
                            "a paragraph is empty or not in Unicode NFC",
                        );
                    }
                }
            }
            payloads.insert(id, payload.clone());
        }
        let mut by_version = HashMap::new();
        let mut consent = Vec::with_capacity(archive.snapshots.len());
        let mut last: Option<&Timestamp> = None;
        for (i, s) in archive.snapshots.iter().enumerate() {
            let at = pointer("/snapshots", i);
            if by_version.insert(s.archive_version.clone(), i).is_some() {
                f.at(
                    IncidentCode::ArchiveSnapshotInvalid,
                    pointer(&at, "archive_version"),
                    format!("archive version `{}` appears twice", s.archive_version),
                );
            }
            if last.is_some_and(|l| s.published_at <= *l) {
                f.at(
                    IncidentCode::ArchiveSnapshotInvalid,
                    pointer(&at, "published_at"),
                    "snapshots must be listed with strictly increasing `published_at`",
                );
            }
            last = Some(&s.published_at);
            check_policy(&s.policy, &pointer(&at, "policy"), f);
            let mut map = HashMap::new();
            for (j, a) in s.artifacts.iter().enumerate() {
                let ap = pointer(&pointer(&at, "artifacts"), j);
                if map.insert(a.artifact_id, a.consent).is_some() {
                    f.at(
                        IncidentCode::ArchiveSnapshotInvalid,
                        ap.clone(),
                        "an artifact is listed twice",
                    );
                }
                if !payloads.contains_key(&a.artifact_id) {
                    f.at(
                        IncidentCode::ArchiveSnapshotInvalid,
                        ap,
                        format!(
                            "{} is listed but the archive holds no payload for it",
                            a.artifact_id
                        ),
                    );
                }
            }
            consent.push(map);
        }
        Store {
            snapshots: archive.snapshots,
            by_version,
            consent,
            payloads,
        }
    }

    /// Index of the snapshot named `version`.
    pub fn version_index(&self, version: &str) -> Option<usize> {
        self.by_version.get(version).copied()
    }

    pub fn snapshot(&self, index: usize) -> Option<&ArchiveSnapshot> {
        self.snapshots.get(index)
    }

    /// Index of the snapshot in force at `t`: the last one published at or before it.
    pub fn in_force_at(&self, t: &Timestamp) -> Option<usize> {
        self.snapshots.iter().rposition(|s| s.published_at <= *t)
    }

    /// Whether snapshot `index` lists `id`.
    pub fn lists(&self, index: usize, id: &ContentHash) -> bool {
        self.consent.get(index).is_some_and(|m| m.contains_key(id))
    }

    /// Consent in force of `id` under snapshot `index`: unlisted artifacts are `hidden`.
    pub fn consent_in(&self, index: usize, id: &ContentHash) -> Consent {
        self.consent
            .get(index)
            .and_then(|m| m.get(id).copied())
            .unwrap_or(Consent::Hidden)
    }

    pub fn payload(&self, id: &ContentHash) -> Option<&ArtifactPayload> {
        self.payloads.get(id)
    }

    /// Every text artifact of the archive with its paragraphs, in id order.
    pub fn text_artifacts(&self) -> Vec<(&ContentHash, &[String])> {
        let mut out: Vec<(&ContentHash, &[String])> = self
            .payloads
            .iter()
            .filter_map(|(id, p)| match p {
                ArtifactPayload::Text { paragraphs, .. } => Some((id, paragraphs.as_slice())),
                _ => None,
            })
            .collect();
        out.sort_by_key(|(id, _)| **id);
        out
    }

    /// Every artifact id of the archive, for the leak check.
    pub fn artifact_ids(&self) -> impl Iterator<Item = &ContentHash> {
        self.payloads.keys()
    }

    /// The tier rule named `tier` in snapshot `index`'s policy.
    pub fn tier(&self, index: usize, tier: &str) -> Option<&TierRule> {
        self.snapshots
            .get(index)
            .and_then(|s| s.policy.tiers.iter().find(|t| t.tier == tier))
    }

    /// The policy of snapshot `index`.
    pub fn policy(&self, index: usize) -> Option<&ArchivePolicy> {
        self.snapshots.get(index).map(|s| &s.policy)
    }

    /// Paragraphs of every artifact whose consent in force under `index` is hidden, plus the
    /// `extra` artifacts (cited but unlisted), without repeats.
    pub fn hidden_paragraphs(
        &self,
        index: usize,
        extra: impl IntoIterator<Item = ContentHash>,
    ) -> Vec<&str> {
        let mut ids: Vec<ContentHash> = self
            .consent
            .get(index)
            .map(|m| {
                m.iter()
                    .filter(|(_, c)| **c == Consent::Hidden)
                    .map(|(id, _)| *id)
                    .collect()
            })
            .unwrap_or_default();
        ids.extend(extra);
        let mut seen = HashSet::new();
        let mut out = Vec::new();
        ids.sort();
        for id in ids {
            if !seen.insert(id) {
                continue;
            }
            if let Some(ArtifactPayload::Text { paragraphs, .. }) = self.payloads.get(&id) {
                out.extend(paragraphs.iter().map(String::as_str));
            }
        }
        out
    }

    /// The snapshots as given (publication order).
    pub fn snapshots(&self) -> &[ArchiveSnapshot] {
        &self.snapshots
    }

    /// Payloads by id, sorted (for writers).
    pub fn payloads_sorted(&self) -> BTreeMap<String, &ArtifactPayload> {
        self.payloads
            .iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect()
    }
}

fn check_policy(policy: &ArchivePolicy, at: &str, f: &mut Findings) {
    let mut names = HashSet::new();
    for (i, t) in policy.tiers.iter().enumerate() {
        if !names.insert(t.tier.as_str()) {
            f.at(
                IncidentCode::ArchiveSnapshotInvalid,
                pointer(&pointer(&pointer(at, "tiers"), i), "tier"),
                format!("tier `{}` is defined twice", t.tier),
            );
        }
    }
}
