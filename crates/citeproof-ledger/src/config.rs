//! Run ids and the strict/lenient configuration (LEDGER-005); the coverage report is in
//! `coverage`.

use citeproof_model::ledger::LedgerMode;
use serde::Serialize;

use citeproof_aca::sign::InputRefusal;

use crate::error::LedgerError;

/// A per-run id matching `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct RunId(String);

impl RunId {
    pub fn new(id: &str) -> Result<RunId, LedgerError> {
        if citeproof_model::ids::is_run_id(id) {
            Ok(RunId(id.to_owned()))
        } else {
            Err(InputRefusal::InvalidId {
                what: "run id",
                value: id.to_owned(),
            }
            .into())
        }
    }

    /// `run-` followed by 32 random hex digits (OS RNG): a fresh id for every run, so that a
    /// manifest can never be mistaken for another run's (seed 000 pitfall 1).
    pub fn random() -> Result<RunId, LedgerError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).map_err(|e| LedgerError::Rng(e.to_string()))?;
        Ok(RunId(format!("run-{}", hex::encode(bytes))))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// Strict (threshold 1, refuses to emit) or lenient (a threshold above 0, warns).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LedgerConfig {
    pub mode: LedgerMode,
    pub threshold: f64,
}

impl LedgerConfig {
    /// Production: every required claim must be cited (seed 003 `coverage_threshold = 1.0`).
    pub fn strict() -> LedgerConfig {
        LedgerConfig {
            mode: LedgerMode::Strict,
            threshold: STRICT_THRESHOLD,
        }
    }

    /// Staging: the seed's lenient threshold, 0.90.
    pub fn lenient_default() -> LedgerConfig {
        LedgerConfig {
            mode: LedgerMode::Lenient,
            threshold: LENIENT_DEFAULT_THRESHOLD,
        }
    }

    /// Development: coverage below `threshold` is reported but does not block. The threshold is
    /// more than 0 and at most 1 (LEDGER-005: 0 would make every ledger compliant).
    pub fn lenient(threshold: f64) -> Result<LedgerConfig, LedgerError> {
        if let Some(reason) = threshold_problem(LedgerMode::Lenient, threshold) {
            return Err(LedgerError::InvalidThreshold {
                threshold,
                reason: reason.into(),
            });
        }
        Ok(LedgerConfig {
            mode: LedgerMode::Lenient,
            threshold,
        })
    }
}

/// The strict threshold (seed 003 `1.0 if self.strict_mode`).
pub const STRICT_THRESHOLD: f64 = 1.0;
/// The seed's lenient threshold (`else 0.90`), and the lowest one LEDGER-014 recommends.
pub const LENIENT_DEFAULT_THRESHOLD: f64 = 0.90;

/// Why `threshold` is refused in `mode` (LEDGER-005), or `None`.
pub fn threshold_problem(mode: LedgerMode, threshold: f64) -> Option<&'static str> {
    match mode {
        LedgerMode::Strict if threshold != STRICT_THRESHOLD => {
            Some("strict mode requires a threshold of exactly 1")
        }
        LedgerMode::Lenient if !(threshold > 0.0 && threshold <= 1.0) => {
            Some("a lenient threshold must be more than 0 and at most 1")
        }
        _ => None,
    }
}
