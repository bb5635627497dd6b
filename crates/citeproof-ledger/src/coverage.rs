//! The coverage audit of a ledger (seed 003 `CoverageReport`, LEDGER-003 to -005): the one
//! type both the configuration and the signer's errors speak of, in its own module so that
//! neither depends on the other.

use serde::Serialize;

/// The seed's `validate_and_finalize` arithmetic: `cited / required if required else 1.0`,
/// one IEEE 754 double division.
pub fn coverage_score(cited: u64, required: u64) -> f64 {
    if required == 0 {
        1.0
    } else {
        cited as f64 / required as f64
    }
}

/// The coverage audit (seed 003 `CoverageReport`, LEDGER-003 to -005).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CoverageReport {
    pub total_claims: u64,
    pub required_claims: u64,
    pub cited_claims: u64,
    pub coverage_score: f64,
    pub threshold: f64,
    pub is_compliant: bool,
    /// Texts of the required claims without a source, in ledger order.
    pub uncited_claims: Vec<String>,
}

impl CoverageReport {
    /// The coverage of claims given as `(text, requires_attribution, has_source)` in ledger
    /// order, as the seed's production template computes it: only required claims count as
    /// cited or uncited (LEDGER-003), `coverage_score` as [`coverage_score`], `is_compliant =
    /// coverage >= threshold`.
    pub fn compute<'a>(
        claims: impl IntoIterator<Item = (&'a str, bool, bool)>,
        threshold: f64,
    ) -> CoverageReport {
        let (mut total, mut required, mut cited) = (0u64, 0u64, 0u64);
        let mut uncited = Vec::new();
        for (text, requires, has_source) in claims {
            total += 1;
            if requires {
                required += 1;
                if has_source {
                    cited += 1;
                } else {
                    uncited.push(text.to_owned());
                }
            }
        }
        let score = coverage_score(cited, required);
        CoverageReport {
            total_claims: total,
            required_claims: required,
            cited_claims: cited,
            coverage_score: score,
            threshold,
            is_compliant: score >= threshold,
            uncited_claims: uncited,
        }
    }

    /// `Coverage: cited/required | Compliant: bool`.
    pub fn summary(&self) -> String {
        format!(
            "Coverage: {}/{} | Compliant: {}",
            self.cited_claims, self.required_claims, self.is_compliant
        )
    }
}
