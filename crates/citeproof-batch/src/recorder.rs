//! `--record` of a batch: each report recorded in input order, and a batch that is run again
//! resumed from the store.

use citeproof_aca::{AcaDetails, AcaReport};
use citeproof_audit::{Access, AuditError, AuditStore, Record, redact};
use citeproof_model::{Outcome, Report};
use serde::Serialize;
use serde_json::Value;

use crate::engine::{Recorded, Resumed, Settle};
use crate::input::Input;

/// A store that cannot be opened or read: the batch stops before verifying (nothing in the
/// store was changed). Said as `TARGET: ERROR [CODE]`, the target redacted.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source} [{}]", redact(target), source.code())]
pub struct StoreError {
    target: String,
    source: AuditError,
}

impl StoreError {
    /// The error `source` of the store at `target`.
    pub fn new(target: &str, source: AuditError) -> StoreError {
        StoreError {
            target: target.to_owned(),
            source,
        }
    }
}

/// The message of a record that failed (the verdict stands; the record is missing).
pub fn not_recorded(target: &str, e: &AuditError) -> String {
    format!(
        "the verification was NOT recorded in {}: {e} [{}]",
        redact(target),
        e.code()
    )
}

/// The [`Settle`] of every verify without order-dependent checks: records into the store, if
/// one was given.
pub struct Recorder {
    store: Option<(String, Box<dyn AuditStore + Send>)>,
    spec: &'static str,
    configuration: Value,
    verified_at: i64,
    clock: fn() -> i64,
}

impl std::fmt::Debug for Recorder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Recorder")
            .field("store", &self.store.as_ref().map(|(t, _)| redact(t)))
            .field("spec", &self.spec)
            .field("configuration", &self.configuration)
            .field("verified_at", &self.verified_at)
            .finish_non_exhaustive()
    }
}

impl Recorder {
    /// Opens the store at `target` for writing (`None`: nothing is recorded). `configuration`
    /// is every option that changes a verdict: a resumed batch skips an input only under the
    /// same one. `verified_at` is the verification time of the batch; `clock` says when each
    /// record is made.
    pub fn open(
        spec: &'static str,
        target: Option<&str>,
        configuration: Value,
        verified_at: i64,
        clock: fn() -> i64,
    ) -> Result<Recorder, StoreError> {
        let store = match target {
            Some(target) => Some((
                target.to_owned(),
                citeproof_audit::open(target, Access::Write)
                    .map_err(|e| StoreError::new(target, e))?,
            )),
            None => None,
        };
        Ok(Recorder {
            store,
            spec,
            configuration,
            verified_at,
            clock,
        })
    }

    /// The store, its target, and the input key of `input` (None without a store).
    fn store_for(
        &mut self,
        input: &Input,
    ) -> Option<(&str, &mut (dyn AuditStore + Send + 'static), Option<String>)> {
        let key = input_key(self.spec, &input.text, &self.configuration);
        self.store
            .as_mut()
            .map(|(target, store)| (target.as_str(), store.as_mut(), key))
    }

    fn resumed(&mut self, input: &Input) -> Result<Option<Resumed>, StoreError> {
        let Some((target, store, Some(key))) = self.store_for(input) else {
            return Ok(None);
        };
        let fail = |e| StoreError::new(target, e);
        let Some(id) = store.find_input(&key).map_err(fail)? else {
            return Ok(None);
        };
        // A record the store lists but cannot return is not resumed: the input is verified again.
        Ok(store.get(id).map_err(fail)?.map(|stored| Resumed {
            id,
            outcome: outcome_of(&stored.record.outcome),
            verified_at: stored.record.verified_at,
        }))
    }
}

impl<D: Serialize> Settle<D> for Recorder {
    type Error = StoreError;

    fn recorded(&mut self, input: &Input) -> Result<Option<Resumed>, StoreError> {
        self.resumed(input)
    }

    fn settle(&mut self, input: &Input, report: &mut Report<D>) -> Recorded {
        let (verified_at, recorded_at) = (self.verified_at, (self.clock)());
        let Some((target, store, key)) = self.store_for(input) else {
            return Recorded::NotAsked;
        };
        let record = Record::of(&*report, recorded_at, verified_at)
            .map(|r| match key {
                Some(k) => r.with_input_key(k),
                None => r,
            })
            .and_then(|r| store.record(&r));
        match record {
            Ok(head) => Recorded::As(head.id),
            Err(e) => Recorded::Failed(not_recorded(target, &e)),
        }
    }
}

/// ACA's batch step: the reuse check of ACA-L2-022 against the store (which holds the earlier
/// lines) and the record, in one transaction per line, in input order.
#[derive(Debug)]
pub struct AcaReuseThenRecord(pub Recorder);

impl Settle<AcaDetails> for AcaReuseThenRecord {
    type Error = StoreError;

    fn recorded(&mut self, input: &Input) -> Result<Option<Resumed>, StoreError> {
        self.0.resumed(input)
    }

    fn settle(&mut self, input: &Input, report: &mut AcaReport) -> Recorded {
        let (verified_at, recorded_at) = (self.0.verified_at, (self.0.clock)());
        let Some((target, store, key)) = self.0.store_for(input) else {
            return Recorded::NotAsked;
        };
        match citeproof_audit::aca::check_and_record(store, report, recorded_at, verified_at, key) {
            Ok(head) => Recorded::As(head.id),
            Err(e) => Recorded::Failed(not_recorded(target, &e)),
        }
    }
}

/// The outcome a store recorded (its words are the report's).
fn outcome_of(word: &str) -> Outcome {
    match word {
        "verified" => Outcome::Verified,
        "not-verified" => Outcome::NotVerified,
        _ => Outcome::CouldNotCheck,
    }
}

/// What a resumed batch compares: the URL, or the SHA-256 of the file's bytes (of each file,
/// for a line naming several, as `archive verify`'s `BUNDLE DISPLAY`), with the spec and the
/// configuration. `None` when a file cannot be read (it is verified, and fails).
pub fn input_key(spec: &str, input: &str, configuration: &Value) -> Option<String> {
    let digest = |path: &str| {
        std::fs::read(path)
            .ok()
            .map(|b| citeproof_model::sha256_bytes(&b).to_string())
    };
    let identity = if is_url(input) {
        input.to_owned()
    } else if let Some(d) = digest(input) {
        d
    } else {
        let parts = input
            .split_whitespace()
            .map(digest)
            .collect::<Option<Vec<_>>>()?;
        if parts.len() < 2 {
            return None;
        }
        parts.join(" ")
    };
    citeproof_audit::input_key(spec, &identity, configuration).ok()
}

/// An `http://` or `https://` line (any case).
pub fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}
