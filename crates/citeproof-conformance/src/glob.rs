//! Minimal glob matching for case ids and vector file paths: `*` matches any run of characters
//! (including `/`), `?` matches one character; everything else matches itself.

/// True when `text` matches `pattern` as a whole.
pub fn matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matcher with backtracking to the last `*` (linear in practice).
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
            }
            Some('?') => {
                pi += 1;
                ti += 1;
            }
            Some(c) if *c == t[ti] => {
                pi += 1;
                ti += 1;
            }
            _ => match star {
                Some((sp, st)) => {
                    pi = sp + 1;
                    ti = st + 1;
                    star = Some((sp, st + 1));
                }
                None => return false,
            },
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

/// A `--suite` pattern against a vector file path relative to `vectors/` (e.g.
/// `aef/level1/validate.json`): the pattern matches the path, the path without `.json`, or
/// names a directory the file is in (`aef`, `aef/level1`).
pub fn matches_suite(pattern: &str, path: &str) -> bool {
    let pattern = pattern.trim_end_matches('/');
    matches(pattern, path)
        || path
            .strip_suffix(".json")
            .is_some_and(|stem| matches(pattern, stem))
        || matches(&format!("{pattern}/*"), path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_basics() {
        assert!(matches("canon-*", "canon-jcs-1"));
        assert!(matches("*", ""));
        assert!(matches("a*b*c", "aXbYbZc"));
        assert!(!matches("a*b*c", "aXbYbZ"));
        assert!(matches("aef-?-x", "aef-1-x"));
        assert!(!matches("aef-?-x", "aef-12-x"));
        assert!(matches("exact", "exact"));
        assert!(!matches("exact", "exactly"));
    }

    #[test]
    fn suite_patterns() {
        assert!(matches_suite("aef", "aef/level1/validate.json"));
        assert!(matches_suite("aef/level1", "aef/level1/validate.json"));
        assert!(matches_suite("canon/jcs", "canon/jcs.json"));
        assert!(matches_suite("canon/*.json", "canon/jcs.json"));
        assert!(matches_suite("*/level1/*", "aca/level1/header.json"));
        assert!(!matches_suite("aca", "aef/level1/validate.json"));
        assert!(!matches_suite("canon/jc", "canon/jcs.json"));
    }
}
