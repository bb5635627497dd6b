//! The work one verification may cause on the network (profile FETCH-009): a count of fetches,
//! a total of body bytes and a deadline, shared by every fetch of the verification. Per-fetch
//! caps ([`FetchPolicy`](crate::FetchPolicy)) bound one response; this bounds a hostile manifest
//! that lists ten thousand sources.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::{FetchError, FetchedResponse, Fetcher, error::sanitize};

/// Limits of one verification. The defaults fit every real agent response by a wide margin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FetchBudget {
    /// Fetches at most (redirect hops of one fetch count once). Default 1024: a maximal
    /// honest response (256 header entries, each with its own manifest, plus discovery and key
    /// set) needs 514.
    pub max_fetches: u32,
    /// Body bytes received in all at most. Default 64 MiB.
    pub max_total_bytes: u64,
    /// Wall-clock time from the first fetch; checked before each fetch (a fetch under way keeps
    /// its own timeout). Default 120 s.
    pub max_duration: Duration,
}

pub const DEFAULT_MAX_FETCHES: u32 = 1024;
pub const DEFAULT_MAX_TOTAL_BYTES: u64 = 64 * 1024 * 1024;
pub const DEFAULT_MAX_DURATION: Duration = Duration::from_secs(120);

impl Default for FetchBudget {
    fn default() -> Self {
        FetchBudget {
            max_fetches: DEFAULT_MAX_FETCHES,
            max_total_bytes: DEFAULT_MAX_TOTAL_BYTES,
            max_duration: DEFAULT_MAX_DURATION,
        }
    }
}

#[derive(Debug)]
struct Spent {
    fetches: u32,
    bytes: u64,
    started: Option<Instant>,
}

/// A fetcher that refuses to go over a [`FetchBudget`].
#[derive(Debug)]
pub struct BudgetedFetcher<F> {
    inner: F,
    budget: FetchBudget,
    spent: Mutex<Spent>,
}

impl<F: Fetcher> BudgetedFetcher<F> {
    pub fn new(inner: F, budget: FetchBudget) -> BudgetedFetcher<F> {
        BudgetedFetcher {
            inner,
            budget,
            spent: Mutex::new(Spent {
                fetches: 0,
                bytes: 0,
                started: None,
            }),
        }
    }

    /// Fetches and bytes used so far.
    pub fn spent(&self) -> (u32, u64) {
        self.spent
            .lock()
            .map(|s| (s.fetches, s.bytes))
            .unwrap_or((u32::MAX, u64::MAX))
    }
}

impl<F: Fetcher> Fetcher for BudgetedFetcher<F> {
    fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        self.within_budget(url, |u| self.inner.fetch(u))
    }

    /// A HEAD counts as one fetch, like a GET.
    fn head(&self, url: &str) -> Result<FetchedResponse, FetchError> {
        self.within_budget(url, |u| self.inner.head(u))
    }

    fn known_sha256(&self, body: &bytes::Bytes) -> Option<citeproof_model::ContentHash> {
        self.inner.known_sha256(body)
    }
}

impl<F: Fetcher> BudgetedFetcher<F> {
    fn within_budget(
        &self,
        url: &str,
        request: impl FnOnce(&str) -> Result<FetchedResponse, FetchError>,
    ) -> Result<FetchedResponse, FetchError> {
        let exhausted = |what: String| FetchError::BudgetExhausted {
            url: sanitize(url),
            what,
        };
        {
            let mut spent = self
                .spent
                .lock()
                .map_err(|_| exhausted("the budget lock is poisoned".into()))?;
            let started = *spent.started.get_or_insert_with(Instant::now);
            if spent.fetches >= self.budget.max_fetches {
                return Err(exhausted(format!(
                    "{} fetches already",
                    self.budget.max_fetches
                )));
            }
            if spent.bytes >= self.budget.max_total_bytes {
                return Err(exhausted(format!(
                    "{} body bytes already",
                    self.budget.max_total_bytes
                )));
            }
            if started.elapsed() >= self.budget.max_duration {
                return Err(exhausted(format!(
                    "{} s elapsed",
                    self.budget.max_duration.as_secs()
                )));
            }
            spent.fetches += 1;
        }
        let response = request(url)?;
        let mut spent = self
            .spent
            .lock()
            .map_err(|_| exhausted("the budget lock is poisoned".into()))?;
        let len = u64::try_from(response.body.len()).unwrap_or(u64::MAX);
        spent.bytes = spent.bytes.saturating_add(len);
        if spent.bytes > self.budget.max_total_bytes {
            return Err(exhausted(format!(
                "more than {} body bytes",
                self.budget.max_total_bytes
            )));
        }
        Ok(response)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixed(usize);

    impl Fetcher for Fixed {
        fn fetch(&self, url: &str) -> Result<FetchedResponse, FetchError> {
            Ok(FetchedResponse {
                url: url.to_owned(),
                status: 200,
                headers: Vec::new(),
                body: vec![b'x'; self.0].into(),
            })
        }
    }

    /// The fetch of `url` is refused: the budget is spent.
    fn assert_exhausted(f: &impl Fetcher, url: &str) {
        assert_eq!(code(f.fetch(url)), "fetch-budget-exhausted", "{url}");
    }

    fn code(r: Result<FetchedResponse, FetchError>) -> &'static str {
        match r {
            Ok(_) => "ok",
            Err(e) => e.code(),
        }
    }

    fn at_most_fetches(max_fetches: u32) -> FetchBudget {
        FetchBudget {
            max_fetches,
            ..FetchBudget::default()
        }
    }

    #[test]
    fn a_head_counts_as_a_fetch_and_has_no_body() {
        let b = at_most_fetches(2);
        let f = BudgetedFetcher::new(Fixed(10), b);
        let r = f.head("https://a.example/1").unwrap();
        assert!(r.body.is_empty());
        assert_eq!(f.spent(), (1, 0));
        assert_eq!(code(f.fetch("https://a.example/2")), "ok");
        assert_eq!(
            code(f.head("https://a.example/3")),
            "fetch-budget-exhausted"
        );
    }

    #[test]
    fn each_limit_stops_the_next_fetch() {
        let b = at_most_fetches(2);
        let f = BudgetedFetcher::new(Fixed(1), b);
        assert_eq!(code(f.fetch("https://a.example/1")), "ok");
        assert_eq!(code(f.fetch("https://a.example/2")), "ok");
        assert_exhausted(&f, "https://a.example/3");
        assert_eq!(f.spent(), (2, 2));

        let b = FetchBudget {
            max_total_bytes: 10,
            ..FetchBudget::default()
        };
        let f = BudgetedFetcher::new(Fixed(6), b);
        assert_eq!(code(f.fetch("https://a.example/1")), "ok");
        // 12 > 10: the second body is dropped, and nothing more is fetched.
        assert_exhausted(&f, "https://a.example/2");
        assert_exhausted(&f, "https://a.example/3");

        let b = FetchBudget {
            max_duration: Duration::ZERO,
            ..FetchBudget::default()
        };
        let f = BudgetedFetcher::new(Fixed(1), b);
        assert_exhausted(&f, "https://a.example/1");
    }

    /// FETCH-009 at the default limits: the 1025th fetch is not made.
    #[test]
    fn the_default_fetch_count_stops_the_1025th_fetch() {
        let f = BudgetedFetcher::new(Fixed(0), FetchBudget::default());
        for i in 0..DEFAULT_MAX_FETCHES {
            assert_eq!(code(f.fetch(&format!("https://a.example/{i}"))), "ok");
        }
        assert_exhausted(&f, "https://a.example/over");
        assert_eq!(f.spent(), (1024, 0));
    }

    /// FETCH-009 at the default limits: bodies past 64 MiB in all are dropped.
    #[test]
    fn the_default_byte_total_drops_the_body_past_64_mib() {
        // Two bodies of 32 MiB + 1 byte: 64 MiB + 2 bytes in all.
        let half = usize::try_from(DEFAULT_MAX_TOTAL_BYTES / 2).unwrap() + 1;
        let f = BudgetedFetcher::new(Fixed(half), FetchBudget::default());
        assert_eq!(code(f.fetch("https://a.example/1")), "ok");
        assert_exhausted(&f, "https://a.example/2");
        assert_exhausted(&f, "https://a.example/3");
        assert_eq!(f.spent().1, 2 * half as u64);
    }
}
