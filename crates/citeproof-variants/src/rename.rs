//! Renaming hosts and ids consistently, so that every relation the verdict depends on (same
//! origin, subdomain, equal run ids, a URL cited in one document and served under another)
//! survives.
//!
//! Hosts: only the reserved example domains of RFC 2606 / RFC 6761 and their subdomains
//! (`*.example`, `example.com`, `example.org`, `example.net` and below) are renamed, wherever they
//! occur in a text (URLs, e-mail addresses, `agent_id`s). Every label but the top-level one is
//! mapped to a fresh label of the same length and the same character classes, letter case
//! kept; the top-level label stays. So lengths (and every length bound) are unchanged, an IP
//! literal, `localhost` or a metadata host is never produced or touched, and the mapping is
//! injective (a fresh label never equals another fresh or original label).
//!
//! A spec whose hosts are not example domains (citation-chain envelopes name `sourcescore.org`,
//! `arxiv.org`) registers them with [`Renamer::add_host`]; they are then renamed the same way.
//! Only DNS names are accepted there (two or more labels, an alphabetic top-level label, no
//! `xn--` label, not `localhost`), so an IP literal is never produced or touched either.
//!
//! Ids: same-shape renaming (each ASCII letter or digit replaced by a random one of its class,
//! every other character kept), consistent and injective within one variant. Ids registered
//! with [`Renamer::reserve`] are never chosen as fresh ids, so renaming token by token in any
//! order cannot turn a renamed id into another original one.

use std::collections::{BTreeMap, BTreeSet};

use citeproof_conformance::variants::VariantRng;
use serde_json::Value;

/// The renaming of one variant.
#[derive(Debug, Default)]
pub struct Renamer {
    /// Lowercase original label → lowercase fresh label.
    labels: BTreeMap<String, String>,
    /// Original id → fresh id.
    ids: BTreeMap<String, String>,
    used: BTreeSet<String>,
    /// Lowercase hosts renamed besides the example domains (and their subdomains).
    hosts: BTreeSet<String>,
    /// Ids never chosen as fresh ids.
    reserved: BTreeSet<String>,
    /// How many host occurrences were renamed (0: the transform did nothing).
    pub renamed: usize,
}

fn is_host_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '.' || c == '-'
}

/// Whether the lowercase dotted name is a reserved example domain or below one.
fn is_example_domain(lower: &str) -> bool {
    let labels: Vec<&str> = lower.split('.').collect();
    if labels.len() < 2
        || labels
            .iter()
            .any(|l| l.is_empty() || l.starts_with('-') || l.ends_with('-'))
    {
        return false;
    }
    lower.ends_with(".example")
        || ["example.com", "example.org", "example.net"]
            .iter()
            .any(|d| lower == *d || lower.ends_with(&format!(".{d}")))
}

/// A fresh string of the shape of `s`: letters for letters (case kept), digits for digits,
/// everything else kept; never starting with a digit where `s` starts with a letter.
fn same_shape(s: &str, rng: &mut VariantRng) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_lowercase() {
                char::from(b'a' + rng.below(26) as u8)
            } else if c.is_ascii_uppercase() {
                char::from(b'A' + rng.below(26) as u8)
            } else if c.is_ascii_digit() {
                char::from(b'0' + rng.below(10) as u8)
            } else {
                c
            }
        })
        .collect()
}

impl Renamer {
    pub fn new() -> Renamer {
        Renamer::default()
    }

    /// Renames `host` (and its subdomains) too, when it is a DNS name of two or more labels
    /// with an alphabetic top-level label (not an IP literal, not `localhost`, no `xn--`
    /// label). Returns whether it was registered.
    pub fn add_host(&mut self, host: &str) -> bool {
        let lower = host.to_ascii_lowercase();
        let labels: Vec<&str> = lower.split('.').collect();
        let ok = labels.len() >= 2
            && labels.iter().all(|l| {
                !l.is_empty()
                    && !l.starts_with('-')
                    && !l.ends_with('-')
                    && !l.starts_with("xn--")
                    && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            })
            && labels
                .last()
                .is_some_and(|t| t.bytes().all(|b| b.is_ascii_alphabetic()));
        if ok {
            self.hosts.insert(lower);
        }
        ok
    }

    /// Whether the lowercase dotted name is renamed.
    fn renames(&self, lower: &str) -> bool {
        is_example_domain(lower)
            || self
                .hosts
                .iter()
                .any(|h| lower == h || lower.ends_with(&format!(".{h}")))
    }

    /// Never chooses `id` as a fresh id.
    pub fn reserve(&mut self, id: &str) {
        self.reserved.insert(id.to_owned());
    }

    fn fresh_label(&mut self, label: &str, rng: &mut VariantRng) -> String {
        if let Some(l) = self.labels.get(label) {
            return l.clone();
        }
        for _ in 0..64 {
            let candidate = same_shape(label, rng);
            if candidate != label
                && !self.used.contains(&candidate)
                && !self.labels.contains_key(&candidate)
            {
                self.used.insert(candidate.clone());
                self.labels.insert(label.to_owned(), candidate.clone());
                return candidate;
            }
        }
        // A one-letter label has 25 alternatives; past 64 tries keep it (still consistent).
        self.labels.insert(label.to_owned(), label.to_owned());
        label.to_owned()
    }

    /// The renamed host, letter case of every character kept.
    fn host(&mut self, host: &str, rng: &mut VariantRng) -> String {
        let lower = host.to_ascii_lowercase();
        let labels: Vec<&str> = lower.split('.').collect();
        let last = labels.len().saturating_sub(1);
        let mut fresh = Vec::with_capacity(labels.len());
        for (i, label) in labels.iter().enumerate() {
            fresh.push(if i == last {
                (*label).to_owned()
            } else {
                self.fresh_label(label, rng)
            });
        }
        let fresh = fresh.join(".");
        host.chars()
            .zip(fresh.chars())
            .map(|(orig, new)| {
                if orig.is_ascii_uppercase() {
                    new.to_ascii_uppercase()
                } else {
                    new
                }
            })
            .collect()
    }

    /// `text` with every example-domain host renamed.
    pub fn text(&mut self, text: &str, rng: &mut VariantRng) -> String {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(start) = rest.find(is_host_char) {
            out.push_str(&rest[..start]);
            let run_len = rest[start..]
                .find(|c: char| !is_host_char(c))
                .unwrap_or(rest.len() - start);
            let run = &rest[start..start + run_len];
            // A sentence may end right after a host: keep trailing dots out of it.
            let host = run.trim_end_matches('.');
            if self.renames(&host.to_ascii_lowercase()) {
                self.renamed += 1;
                out.push_str(&self.host(host, rng));
                out.push_str(&run[host.len()..]);
            } else {
                out.push_str(run);
            }
            rest = &rest[start + run_len..];
        }
        out.push_str(rest);
        out
    }

    /// Every string of `value` (not member names) through [`Renamer::text`].
    pub fn value(&mut self, value: &Value, rng: &mut VariantRng) -> Value {
        match value {
            Value::String(s) => Value::String(self.text(s, rng)),
            Value::Array(items) => Value::Array(items.iter().map(|v| self.value(v, rng)).collect()),
            Value::Object(map) => Value::Object(
                map.iter()
                    .map(|(k, v)| (k.clone(), self.value(v, rng)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }

    /// The fresh id for `id` (same shape; consistent within this renamer).
    pub fn id(&mut self, id: &str, rng: &mut VariantRng) -> String {
        if let Some(new) = self.ids.get(id) {
            return new.clone();
        }
        for _ in 0..64 {
            let candidate = same_shape(id, rng);
            if candidate != id
                && !self.ids.values().any(|v| v == &candidate)
                && !self.ids.contains_key(&candidate)
                && !self.reserved.contains(&candidate)
            {
                self.ids.insert(id.to_owned(), candidate.clone());
                return candidate;
            }
        }
        self.ids.insert(id.to_owned(), id.to_owned());
        id.to_owned()
    }

    /// The id map so far (original → fresh).
    pub fn id_map(&self) -> &BTreeMap<String, String> {
        &self.ids
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_renamed_consistently_and_only_example_domains() {
        let mut r = Renamer::new();
        let mut rng = VariantRng::new(5);
        let text = "<https://EXAMPLE.com/a>; manifest=\"https://agent.example/runs/1\" \
                    cdn.agent.example mail attribution@agent.example see example.com. \
                    http://127.0.0.1/ https://169.254.169.254/ purl.org github.com example";
        let out = r.text(text, &mut rng);
        assert_eq!(out.len(), text.len());
        assert!(!out.to_ascii_lowercase().contains("example.com"), "{out}");
        assert!(!out.contains("agent.example"), "{out}");
        for kept in [
            "127.0.0.1",
            "169.254.169.254",
            "purl.org",
            "github.com",
            " example",
            "://",
        ] {
            assert!(out.contains(kept), "{kept}: {out}");
        }
        // The same host maps the same way, case kept; a subdomain keeps its parent.
        let agent = r.text("agent.example", &mut rng);
        assert!(out.contains(&format!("https://{agent}/runs/1")), "{out}");
        assert!(out.contains(&format!("cdn.{agent}").split_at(4).1.to_string()));
        assert!(out.contains(&format!("@{agent}")));
        let upper = r.text("EXAMPLE.com", &mut rng);
        assert!(upper[..7].chars().all(|c| c.is_ascii_uppercase()) && upper.ends_with(".com"));
        assert_eq!(r.text("example.com", &mut rng), upper.to_ascii_lowercase());
    }

    #[test]
    fn registered_hosts_are_renamed_like_example_domains() {
        let mut r = Renamer::new();
        let mut rng = VariantRng::new(3);
        assert!(r.add_host("SourceScore.org"));
        for refused in [
            "127.0.0.1",
            "localhost",
            "xn--bcher-kva.de",
            "a..b",
            "[::1]",
            "x.123",
        ] {
            assert!(!r.add_host(refused), "{refused}");
        }
        let text =
            "https://sourcescore.org/claims/x/ did:web:www.SOURCESCORE.org arxiv.org 127.0.0.1";
        let out = r.text(text, &mut rng);
        assert_eq!(out.len(), text.len());
        assert!(!out.to_ascii_lowercase().contains("sourcescore"), "{out}");
        assert!(
            out.contains("arxiv.org") && out.contains("127.0.0.1"),
            "{out}"
        );
        let host = r.text("sourcescore.org", &mut rng);
        assert!(out.contains(&format!("https://{host}/claims/x/")), "{out}");
        // `www.SOURCESCORE.org`: the letter case of each character is kept.
        let label = host.trim_end_matches(".org").to_ascii_uppercase();
        assert!(out.contains(&format!(".{label}.org ")), "{out}");
    }

    #[test]
    fn reserved_ids_are_never_chosen() {
        let mut r = Renamer::new();
        let mut rng = VariantRng::new(1);
        // One-digit ids have 9 alternatives: with 8 of them reserved the ninth is chosen.
        for d in 1..=8 {
            r.reserve(&d.to_string());
        }
        assert_eq!(r.id("0", &mut rng), "9");
    }

    #[test]
    fn ids_keep_their_shape_and_stay_distinct() {
        let mut r = Renamer::new();
        let mut rng = VariantRng::new(9);
        let a = r.id("run-2026_A7", &mut rng);
        assert_eq!(a.len(), 11);
        assert_eq!(&a[3..4], "-");
        assert_eq!(&a[8..9], "_");
        assert!(a[9..10].chars().all(|c| c.is_ascii_uppercase()));
        assert_eq!(r.id("run-2026_A7", &mut rng), a);
        assert_ne!(r.id("run-2026_A8", &mut rng), a);
    }
}
