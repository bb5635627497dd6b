//! The static URL policy: a table of inputs, and properties over arbitrary strings.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_fetch::{FetchError, FetchPolicy, MAX_URL_BYTES, check_url};
use proptest::prelude::*;

#[test]
fn url_table() {
    let policy = FetchPolicy::default();
    let long = format!("https://example.com/{}", "a".repeat(MAX_URL_BYTES));
    // (input, normalized)
    let accepted = [
        ("https://example.com", "https://example.com/"),
        (
            "HTTPS://EXAMPLE.com:443/a/../b?q#frag",
            "https://example.com/b?q",
        ),
        ("http://example.com:8080/x", "http://example.com:8080/x"),
        ("https://bücher.example/", "https://xn--bcher-kva.example/"),
        ("http://93.184.216.34/", "http://93.184.216.34/"),
        ("http://[2606:4700::1]/", "http://[2606:4700::1]/"),
    ];
    for (input, normalized) in accepted {
        match check_url(input, &policy) {
            Ok(url) => assert_eq!(url.as_str(), normalized, "{input}"),
            Err(e) => panic!("{input}: want {normalized}, got {e:?}"),
        }
    }
    // (code, inputs refused with it)
    let refused: [(&str, &[&str]); 5] = [
        (
            "fetch-url-invalid",
            &[
                "",
                "example.com",
                "/relative/path",
                "//example.com/",
                "http:example.com",
                "http:/example.com",
                "http://",
                "http://exa mple.com/",
                "http://example.com/\n",
                "http://exa\tmple.com/",
                "http://example.com\\@evil.com/",
                "http://example.com:99999/",
                "http://[::1/",
                &long,
            ],
        ),
        (
            "fetch-scheme-forbidden",
            &[
                "ftp://example.com/",
                "file:///etc/passwd",
                "javascript:alert(1)",
                "data:text/plain,hi",
                "ws://example.com/",
            ],
        ),
        (
            "fetch-credentials-in-url",
            &[
                "http://user:pass@example.com/",
                "http://user@example.com/",
                "http://@example.com/",
                "http://:@example.com/",
                "http://example.com@evil.com/",
            ],
        ),
        (
            "fetch-port-forbidden",
            &[
                "http://example.com:25/",
                "https://example.com:22/",
                "http://example.com:0/",
            ],
        ),
        (
            "fetch-address-forbidden",
            &[
                "http://127.0.0.1/",
                "http://10.0.0.1/",
                "http://169.254.169.254/",
                "http://[::1]/",
                "http://[fd00::1]/",
                "http://192.0.2.1/",
                "http://224.0.0.1/",
                "http://100.64.0.1/",
            ],
        ),
    ];
    for (code, inputs) in refused {
        for input in inputs {
            match check_url(input, &policy) {
                Err(e) => assert_eq!(e.code(), code, "{input}: {e}"),
                Ok(url) => panic!("{input}: want {code}, got {url:?}"),
            }
        }
    }
}

#[test]
fn credentials_are_not_echoed() {
    let err = check_url(
        "https://alice:hunter2@example.com/x",
        &FetchPolicy::default(),
    )
    .unwrap_err();
    assert_eq!(err.code(), "fetch-credentials-in-url");
    assert!(!err.to_string().contains("hunter2"), "{err}");
    assert!(!format!("{err:?}").contains("hunter2"), "{err:?}");
}

#[test]
fn error_messages_escape_control_characters_and_are_bounded() {
    let hostile = format!("\u{1b}[31mhttp://x/{}", "y".repeat(10_000));
    let err = check_url(&hostile, &FetchPolicy::default()).unwrap_err();
    let text = err.to_string();
    assert!(!text.contains('\u{1b}'), "{text:?}");
    assert!(text.len() < 1000, "{}", text.len());
}

/// Pieces of URL syntax, separated by single spaces.
const URL_PIECES: &str = "http:// https:// HtTp: // @ : [ ] ::ffff: 0x7f . % / ? # \\ xn--";

fn url_like() -> impl Strategy<Value = String> {
    let parts = prop::collection::vec(
        prop_oneof![
            // The pieces of URL syntax, each as likely as each of the three below.
            17 => prop::sample::select(URL_PIECES.split(' ').collect::<Vec<_>>())
                .prop_map(str::to_owned),
            1 => "[0-9]{1,12}",
            1 => "[a-zA-Z0-9._~-]{0,8}",
            1 => any::<char>().prop_map(String::from),
        ],
        0..16,
    );
    parts.prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_strings_never_panic(input in any::<String>(), allow_private in any::<bool>()) {
        let policy = FetchPolicy { allow_private, ..FetchPolicy::default() };
        let _ = check_url(&input, &policy);
    }

    #[test]
    fn accepted_urls_satisfy_the_policy(input in url_like(), allow_private in any::<bool>()) {
        let policy = FetchPolicy { allow_private, ..FetchPolicy::default() };
        match check_url(&input, &policy) {
            Ok(url) => {
                prop_assert!(url.scheme() == "http" || url.scheme() == "https");
                prop_assert!(url.username().is_empty() && url.password().is_none());
                prop_assert!(url.fragment().is_none());
                prop_assert!(url.host().is_some());
                let port = url.port_or_known_default().unwrap();
                prop_assert!(!citeproof_fetch::FORBIDDEN_PORTS.contains(&port));
                let ip = match url.host() {
                    Some(url::Host::Ipv4(ip)) => Some(std::net::IpAddr::V4(ip)),
                    Some(url::Host::Ipv6(ip)) => Some(std::net::IpAddr::V6(ip)),
                    _ => None,
                };
                if let Some(ip) = ip {
                    prop_assert!(citeproof_fetch::classify_ip(ip).is_allowed(allow_private));
                }
                // Checking the normalized form again accepts it unchanged.
                let again = check_url(url.as_str(), &policy).unwrap();
                prop_assert_eq!(again.as_str(), url.as_str());
            }
            Err(e) => {
                prop_assert!(e.code().starts_with("fetch-"));
                if let FetchError::CredentialsInUrl { url } = &e {
                    // Redacted: what was before the last '@' of the authority is gone.
                    let authority = url.split("//").nth(1).unwrap_or("").split(['/', '?', '#']).next().unwrap_or("");
                    prop_assert!(!authority.contains('@'), "{}", url);
                }
            }
        }
    }
}
