//! `fetch_url_policy` and `grammars`: the fetch URL policy and the string grammars every
//! document relies on (web URLs, RFC 3339 timestamps, ids, the AEF §5 text normalization).

use citeproof_fetch::{FetchPolicy, check_url};
use citeproof_model::hash::aef_normalize_text;
use citeproof_model::weburl::{MAX_WEB_URL_BYTES, equality_key, is_web_url, origin_of, urls_equal};
use citeproof_model::{HttpUrl, Timestamp, ids};

/// `check_url` on any text. Checks: whatever it accepts is http(s) without credentials, and
/// the accepted URL, written out, is accepted again as the same URL (the policy is idempotent).
pub fn fetch_url_policy(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    for policy in [
        FetchPolicy::default(),
        FetchPolicy {
            allow_private: true,
            ..FetchPolicy::default()
        },
    ] {
        if let Ok(url) = check_url(text, &policy) {
            assert!(matches!(url.scheme(), "http" | "https"));
            assert!(url.username().is_empty() && url.password().is_none());
            let again = check_url(url.as_str(), &policy)
                .unwrap_or_else(|e| panic!("{url} was accepted from {text:?}, then refused: {e}"));
            assert_eq!(again, url);
        }
    }
}

/// The model's grammars on any text. Checks: a web URL is visible ASCII of at most 2048
/// bytes with an http(s) scheme; URL equality is reflexive and symmetric, and its key is a
/// fixed point; an origin is its own origin; an `HttpUrl` has an origin; a timestamp keeps its
/// text and its instant survives being written out by `from_unix`; a run id of at most 64
/// bytes is a claim id; the AEF §5 normalization agrees with a second, naive implementation.
pub fn grammars(data: &[u8]) {
    normalization(data);
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    urls(text);
    if let Ok(ts) = Timestamp::parse(text) {
        assert_eq!(ts.as_str(), text);
        let _ = ts.profile_violation();
        if let Ok(again) = Timestamp::from_unix(ts.unix_seconds()) {
            assert_eq!(again.unix_seconds(), ts.unix_seconds());
            assert_eq!(
                Timestamp::parse(again.as_str()).map(|t| t.unix_seconds()),
                Ok(ts.unix_seconds())
            );
        }
    }
    if ids::is_run_id(text) {
        assert_eq!(ids::is_claim_id(text), text.len() <= 64);
    }
}

fn urls(text: &str) {
    let (a, b) = crate::halves(text.as_bytes());
    let (a, b) = (String::from_utf8_lossy(a), String::from_utf8_lossy(b));
    assert_eq!(urls_equal(&a, &b), urls_equal(&b, &a), "{a:?} {b:?}");
    assert!(urls_equal(text, text));
    if is_web_url(text) {
        assert!(text.len() <= MAX_WEB_URL_BYTES);
        assert!(text.bytes().all(|c| (0x21..=0x7e).contains(&c)));
        let scheme = text.split(':').next().unwrap_or("");
        assert!(scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https"));
        let key = equality_key(text);
        assert_eq!(equality_key(&key), key, "{text:?}");
    }
    if let Some(origin) = origin_of(text) {
        assert_eq!(
            origin_of(&origin).as_deref(),
            Some(origin.as_str()),
            "{text:?}"
        );
    }
    if HttpUrl::parse(text).is_ok() {
        assert!(origin_of(text).is_some(), "{text:?}");
    }
}

/// AEF §5 steps 1-3 the naive way: CRLF then lone CR to LF, one trailing LF removed.
fn normalization(data: &[u8]) {
    let ours = aef_normalize_text(data);
    match std::str::from_utf8(data) {
        Ok(text) => {
            let naive = text.replace("\r\n", "\n").replace('\r', "\n");
            let naive = naive.strip_suffix('\n').unwrap_or(&naive);
            assert_eq!(ours.as_deref(), Ok(naive));
        }
        Err(e) => assert_eq!(ours.map_err(|n| n.offset), Err(e.valid_up_to())),
    }
}
