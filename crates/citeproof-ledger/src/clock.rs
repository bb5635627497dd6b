//! Where the ledger gets "now" from.

use std::sync::atomic::{AtomicI64, Ordering};

use citeproof_model::Timestamp;

use citeproof_aca::sign::InputRefusal;

use crate::error::LedgerError;

/// Where the ledger gets "now" from. Implementations must never go backwards.
pub trait Clock: Send + Sync {
    fn now(&self) -> Result<Timestamp, LedgerError>;
}

/// The system clock, whole seconds, UTC.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl Clock for SystemClock {
    fn now(&self) -> Result<Timestamp, LedgerError> {
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .map_err(|e| InputRefusal::InvalidValue {
                what: "system clock",
                reason: e.to_string(),
            })?;
        unix_timestamp(i64::try_from(secs).unwrap_or(i64::MAX))
    }
}

/// A clock that starts at `start` (Unix seconds) and advances `step` seconds at every reading:
/// deterministic runs for tests and demos.
#[derive(Debug)]
pub struct SteppingClock {
    next: AtomicI64,
    step: i64,
}

impl SteppingClock {
    pub fn new(start: i64, step: i64) -> SteppingClock {
        SteppingClock {
            next: AtomicI64::new(start),
            step: step.max(0),
        }
    }
}

impl Clock for SteppingClock {
    fn now(&self) -> Result<Timestamp, LedgerError> {
        unix_timestamp(self.next.fetch_add(self.step, Ordering::SeqCst))
    }
}

/// `seconds` as a profile timestamp (`YYYY-MM-DDTHH:MM:SSZ`).
pub fn unix_timestamp(seconds: i64) -> Result<Timestamp, LedgerError> {
    let refused = |reason| InputRefusal::InvalidValue {
        what: "timestamp",
        reason,
    };
    Ok(Timestamp::from_unix(seconds).map_err(refused)?)
}
