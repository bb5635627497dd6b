//! The ACA manifest of a run, built from the ledger after the coverage gate.

use citeproof_model::aca::{Claim, ClaimSource, Manifest};
use citeproof_model::{Extensions, HttpUrl, aef_text_hash};

use crate::builder::AttributionLedger;
use citeproof_aca::sign::InputRefusal;

use crate::error::LedgerError;

impl AttributionLedger {
    /// The Level 2 manifest of the run (with the chain for Level 3 when `with_chain`), after the
    /// coverage gate. Claims with the same id are one claim with several sources; claims
    /// without a source are not in the manifest (they are in the ledger and the audit export).
    pub fn build_manifest(
        &self,
        agent_id: &str,
        with_chain: bool,
    ) -> Result<Manifest, LedgerError> {
        self.gate()?;
        if agent_id.is_empty() {
            return Err(InputRefusal::InvalidValue {
                what: "agent id",
                reason: "must not be empty".into(),
            }
            .into());
        }
        let emitted_at = self.clock.now()?;
        let mut claims: Vec<Claim> = Vec::new();
        for e in &self.entries {
            let Some((i, start, end)) = e.source else {
                continue;
            };
            let Some(cap) = self.captures.get(i) else {
                continue;
            };
            if cap.fetched_at > emitted_at {
                return Err(LedgerError::RetrievedAfterEmitted {
                    retrieved_at: cap.fetched_at.to_string(),
                    emitted_at: emitted_at.to_string(),
                });
            }
            let excerpt = cap.body.get(start as usize..end as usize).ok_or_else(|| {
                LedgerError::ExcerptRange {
                    url: cap.url.clone(),
                    start,
                    end,
                    reason: "outside the body".into(),
                }
            })?;
            let source = ClaimSource {
                url: HttpUrl::parse(&cap.url).map_err(|reason| InputRefusal::InvalidUrl {
                    value: cap.url.clone(),
                    reason,
                })?,
                retrieved_at: cap.fetched_at.clone(),
                hash: Some(cap.hash),
                excerpt_offset: Some([start, end]),
                excerpt_hash: aef_text_hash(excerpt).ok(),
                extensions: Extensions::default(),
            };
            match claims.iter_mut().find(|c| c.claim_id == e.claim_id) {
                Some(c) if c.text != e.text => {
                    return Err(LedgerError::ClaimIdConflict {
                        id: e.claim_id.clone(),
                    });
                }
                Some(c) => {
                    if !c.sources.contains(&source) {
                        c.sources.push(source);
                    }
                    if c.confidence.is_none() {
                        c.confidence = e.confidence;
                    }
                }
                None => claims.push(Claim {
                    claim_id: e.claim_id.clone(),
                    text: e.text.clone(),
                    sources: vec![source],
                    confidence: e.confidence,
                    extensions: Extensions::default(),
                }),
            }
        }
        if claims.is_empty() {
            return Err(LedgerError::NoClaims);
        }
        let chain = if with_chain {
            if self.chain.is_empty() {
                return Err(InputRefusal::InvalidValue {
                    what: "chain",
                    reason: "no tool call was recorded".into(),
                }
                .into());
            }
            Some(self.chain.clone().build())
        } else {
            None
        };
        Ok(Manifest {
            run_id: self.run_id.as_str().to_owned(),
            agent_id: agent_id.to_owned(),
            emitted_at,
            claims,
            chain,
            // The ledger does not know the URL its response will be served at; the platform
            // that serves it sets `response_url` (ACA-L2-024) before signing.
            response_url: None,
            extensions: Extensions::default(),
        })
    }

    /// The distinct source URLs cited by attributed claims, in first-citation order: the
    /// sources of the `Citation-Source` header.
    pub fn cited_sources(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for e in &self.entries {
            if let Some((i, _, _)) = e.source
                && let Some(cap) = self.captures.get(i)
                && !out.contains(&cap.url)
            {
                out.push(cap.url.clone());
            }
        }
        out
    }
}
