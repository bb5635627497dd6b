//! Discovery documents and keys of the response origin (ACA-DISC-001 to -006), Level 3.

use super::*;

/// Keys available for one origin.
#[derive(Default)]
pub(super) struct KeyTable {
    /// `manifest_origins` of the discovery document (ACA-DISC-006).
    manifest_origins: Vec<String>,
    keys: Vec<PublishedKey>,
    unusable: BTreeSet<String>,
    note: Option<String>,
    /// Reading the discovery document or its JWK Set raised an incident.
    reported: bool,
}

impl KeyTable {
    /// The discovery document (or its JWK Set) supplied at least one usable key.
    pub(super) fn has_keys(&self) -> bool {
        !self.keys.is_empty()
    }

    /// The RFC 7638 thumbprint of the one usable key with this kid.
    pub(super) fn thumbprint(&self, kid: &str) -> Option<String> {
        match self
            .keys
            .iter()
            .filter(|k| k.kid == kid)
            .collect::<Vec<_>>()
            .as_slice()
        {
            [one] => Some(one.key.thumbprint()),
            _ => None,
        }
    }
}

impl KeyResolver for KeyTable {
    fn resolve(
        &self,
        keyid: Option<&str>,
    ) -> Result<crate::verify::signature::VerifyingKey, KeyMiss> {
        let Some(keyid) = keyid else {
            return Err(KeyMiss::Unresolved("the signature has no keyid".into()));
        };
        // A discovery document that could not be used, or a key reported as unusable, has its
        // own incident already (reporting rule 3).
        if self.unusable.contains(keyid) {
            return Err(KeyMiss::AlreadyReported);
        }
        let found: Vec<&PublishedKey> = self.keys.iter().filter(|k| k.kid == keyid).collect();
        match found.as_slice() {
            [one] => crate::verify::signature::verifying_key(&one.key),
            [] if self.note.is_some() || self.reported => Err(KeyMiss::AlreadyReported),
            [] => Err(KeyMiss::Unresolved(
                "no key published by the discovery document has this kid".into(),
            )),
            _ => Err(KeyMiss::Unresolved(
                "several published keys have this kid".into(),
            )),
        }
    }
}

/// Discovery document and keys of one origin (ACA-DISC-001 to -004), all Level 3.
pub(super) fn load_keys(run: &mut Run<'_>, origin: &str) -> KeyTable {
    let before = run.pushed;
    let mut table = read_keys(run, origin);
    table.reported = run.pushed > before;
    table
}

fn read_keys(run: &mut Run<'_>, origin: &str) -> KeyTable {
    let mut table = KeyTable::default();
    let url = format!("{origin}{DISCOVERY_PATH}");
    let resp = match run.fetch_ok(
        &url,
        IncidentCode::AcaDiscoveryFetchFailed,
        "discovery document",
    ) {
        Ok(r) => r,
        Err(incidents) => {
            run.extend(3, incidents);
            table.note = Some("the discovery document could not be fetched".into());
            return table;
        }
    };
    let media = resp.content_type_essence().unwrap_or_default();
    if media != "application/json" && !media.ends_with("+json") {
        run.push(
            3,
            Incident::new(
                IncidentCode::AcaDiscoveryFetchFailed,
                format!("the discovery document is served as `{media}`, not as JSON"),
                url_location(&url),
            ),
        );
        table.note = Some("the discovery document is not JSON".into());
        return table;
    }
    let value = match parse_strict(&resp.body) {
        Ok(v) => v,
        Err(e) => {
            let mut i = e.to_incident();
            i.location.url = Some(url.clone());
            run.push(3, i);
            table.note = Some("the discovery document is not I-JSON".into());
            return table;
        }
    };
    let f = check_discovery(&value, Some(&url));
    run.extend(3, f.incidents);
    table.manifest_origins = f.manifest_origins;
    table.keys = f.keys;
    table.unusable.extend(f.unusable_kids);
    if let Some(jwks_uri) = f.jwks_uri {
        match run.fetch_ok(&jwks_uri, IncidentCode::AcaJwksFetchFailed, "JWK Set") {
            Err(incidents) => run.extend(3, incidents),
            Ok(resp) => {
                match parse_strict(&resp.body) {
                    Err(e) => {
                        let mut i = e.to_incident();
                        i.location.url = Some(jwks_uri.clone());
                        run.push(3, i);
                    }
                    Ok(v) => {
                        let ctx = Ctx {
                            url: Some(jwks_uri.clone()),
                        };
                        let set = check_jwk_set(&v, "", &ctx);
                        run.extend(3, set.incidents);
                        table.unusable.extend(set.unusable_kids);
                        for k in set.keys {
                            match table.keys.iter().find(|e| e.kid == k.kid) {
                                Some(existing) if existing.key == k.key => {} // same key inline and at jwks_uri
                                Some(_) => {
                                    run.push(
                                    3,
                                    Incident::new(
                                        IncidentCode::JwkDuplicateKid,
                                        format!("kid `{}` names different keys inline and at jwks_uri", k.kid),
                                        url_location(&jwks_uri),
                                    ),
                                );
                                    table.unusable.insert(k.kid.clone());
                                }
                                None => table.keys.push(k),
                            }
                        }
                    }
                }
            }
        }
    }
    table
}

/// ACA-DISC-006: a manifest hosted on another origin than the response's is authorized by the
/// response origin's discovery document.
pub(super) fn check_manifest_origin(
    run: &mut Run<'_>,
    manifest_url: &str,
    origin: &str,
    table: &KeyTable,
) {
    let manifest_origin = origin_of(manifest_url).unwrap_or_default();
    if manifest_origin == origin || table.manifest_origins.contains(&manifest_origin) {
        return;
    }
    if table.note.is_some() {
        // No usable discovery document: already reported, nothing to judge by (rule 3).
        return;
    }
    run.push(
        3,
        Incident::new(
            IncidentCode::AcaManifestOriginUnauthorized,
            format!(
                "the manifest is hosted on {manifest_origin}, but the discovery document of the response origin {origin} does not list it in manifest_origins"
            ),
            url_location(manifest_url),
        ),
    );
}
