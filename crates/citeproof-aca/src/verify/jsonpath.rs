//! Small helpers for walking untrusted JSON values and reporting at RFC 6901 pointers.

use citeproof_model::{Incident, IncidentCode, Location, Timestamp};
use serde_json::Value;

pub(crate) use citeproof_model::pointer::{child, index};

/// Where an incident about a document fetched from `url` happened.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ctx {
    pub url: Option<String>,
}

impl Ctx {
    pub(crate) fn at(&self, code: IncidentCode, pointer: &str, message: String) -> Incident {
        Incident::new(
            code,
            message,
            Location {
                pointer: Some(pointer.to_owned()),
                url: self.url.clone(),
                ..Location::default()
            },
        )
    }

    pub(crate) fn at_claim(
        &self,
        code: IncidentCode,
        pointer: &str,
        claim_id: Option<&str>,
        message: String,
    ) -> Incident {
        let mut i = self.at(code, pointer, message);
        i.location.claim_id = claim_id.map(str::to_owned);
        i
    }

    pub(crate) fn at_step(
        &self,
        code: IncidentCode,
        pointer: &str,
        step: usize,
        message: String,
    ) -> Incident {
        let mut i = self.at(code, pointer, message);
        i.location.step = Some(step as u64);
        i
    }
}

pub(crate) use citeproof_model::members::{content_hash, kind, timestamp};

/// JSON-003 integer: written without fraction or exponent, 0 to 2^53-1.
pub(crate) fn profile_integer(v: &Value) -> Option<u64> {
    let n = v.as_u64()?;
    (n < (1u64 << 53)).then_some(n)
}

/// Compares two timestamps as instants (JSON-005). `Timestamp`'s own `Ord` breaks ties between
/// equal instants by their text, which a rule comparing instants must not do. Offsets are whole
/// minutes, so the fraction written is the instant's fraction.
pub(crate) fn instant_cmp(a: &Timestamp, b: &Timestamp) -> std::cmp::Ordering {
    a.unix_seconds()
        .cmp(&b.unix_seconds())
        .then_with(|| nanos(a.as_str()).cmp(&nanos(b.as_str())))
}

fn nanos(text: &str) -> u32 {
    let digits = text
        .get(19..)
        .and_then(|rest| rest.strip_prefix('.'))
        .unwrap_or_default()
        .bytes()
        .take_while(u8::is_ascii_digit)
        .take(9);
    // The fraction's first nine digits, right-padded with zeros: nanoseconds.
    let mut value = 0u32;
    let mut places = 0;
    for d in digits {
        value = value * 10 + u32::from(d - b'0');
        places += 1;
    }
    (places..9).fold(value, |v, _| v * 10)
}

#[cfg(test)]
mod tests {
    /// Hand-derived: the fraction's digits as nanoseconds, right-padded, at most nine.
    #[test]
    fn nanos_of_fractions() {
        assert_eq!(super::nanos("2026-04-28T10:00:00Z"), 0);
        assert_eq!(super::nanos("2026-04-28T10:00:00.5Z"), 500_000_000);
        assert_eq!(super::nanos("2026-04-28T10:00:00.000000001+02:00"), 1);
        assert_eq!(super::nanos("2026-04-28T10:00:00.1234567891Z"), 123_456_789);
    }
}
