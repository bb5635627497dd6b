//! Identifier grammars shared by producers and verifiers (profile ACA-L1-007, ACA-L2-006).

/// A run id: `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`.
pub fn is_run_id(s: &str) -> bool {
    id_matches(s, 128)
}

/// A claim id: `^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`.
pub fn is_claim_id(s: &str) -> bool {
    id_matches(s, 64)
}

fn id_matches(s: &str, max: usize) -> bool {
    let b = s.as_bytes();
    match b.split_first() {
        Some((first, rest)) => {
            b.len() <= max
                && first.is_ascii_alphanumeric()
                && rest
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b':' | b'-'))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grammar() {
        assert!(is_run_id("123") && is_run_id("a.b_c:d-e"));
        assert!(!is_run_id("") && !is_run_id("-a") && !is_run_id("a b") && !is_run_id("é"));
        assert!(is_claim_id(&"a".repeat(64)) && !is_claim_id(&"a".repeat(65)));
        assert!(is_run_id(&"a".repeat(128)) && !is_run_id(&"a".repeat(129)));
    }
}
