//! The audit reports read in a real headless Chromium: the page's own DOM and its width at 1280 px.

use super::*;

fn chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser"].iter().find_map(|name| {
        StdCommand::new("which")
            .arg(name)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
    })
}

/// `chromium --headless --dump-dom` of a file at 1280 px width.
fn dump_dom(browser: &Path, page: &Path) -> String {
    let profile = tempfile::tempdir().unwrap();
    let out = StdCommand::new(browser)
        .args(words("--headless --no-sandbox --disable-gpu --disable-background-networking --disable-component-update --disable-sync --no-first-run --window-size=1280,900", &[]))
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr_of(&out));
    stdout_of(&out)
}

/// The page's own DOM, and its widest extent at 1280 px: a measuring copy of the page gets a
/// script (the report itself has none, and its CSP forbids one) that writes `scrollWidth` into
/// the DOM.
fn measure(browser: &Path, page: &Path) -> (String, u64) {
    let dom = dump_dom(browser, page);
    let text = std::fs::read_to_string(page).unwrap();
    let csp_end = text.find("<meta name=\"referrer\"").unwrap();
    let csp_start = text
        .find("<meta http-equiv=\"Content-Security-Policy\"")
        .unwrap();
    let measuring = format!(
        "{}{}",
        &text[..csp_start],
        &text[csp_end..].replace(
            "</body>",
            "<script>document.body.insertAdjacentHTML('beforeend', '<p id=\"measured\">' + document.documentElement.scrollWidth + '</p>')</script></body>"
        )
    );
    let copy = page.with_extension("measure.html");
    std::fs::write(&copy, measuring).unwrap();
    let measured = dump_dom(browser, &copy);
    let width = measured
        .rsplit("<p id=\"measured\">")
        .next()
        .and_then(|s| s.split('<').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no measurement: {measured}"));
    (dom, width)
}

/// A chain answer in the common report shape, hand-written: an answer with three envelopes,
/// one tampered (seed 004's badges).
fn chain_report() -> Value {
    serde_json::json!({
        "spec": "chain",
        "subject": {"kind": "file", "name": "answer.json"},
        "level": 1, "required_level": 2, "verified": false, "outcome": "not-verified",
        "incidents": [{"level": 2, "code": "chain-signature-invalid", "severity": "error",
                       "message": "the envelope's signature does not verify", "location": {"pointer": "/envelopes/1"}}],
        "items": [{
            "kind": "reference", "id": "answer", "text": "The answer cites two tool calls.", "verified": false,
            "verdict": "partially-signed", "failed": ["chain-signature-invalid"],
            "items": [
                {"kind": "envelope", "id": "env-1", "text": "search: 3 results", "verified": true, "verdict": "verified",
                 "sources": [{"url": "https://example.org/search?q=x", "excerpt": "three results", "verified": true}]},
                {"kind": "envelope", "id": "env-2", "text": "fetch: the page", "verified": false, "verdict": "verified",
                 "failed": ["chain-signature-invalid"],
                 "sources": [{"url": "javascript:alert(3)", "excerpt": "<img src=x onerror=alert(4)>", "verified": false}]},
                {"kind": "envelope", "id": "env-3", "text": "older step", "verified": false, "verdict": "stale", "failed": ["chain-stale"]}
            ]
        }]
    })
}

#[test]
fn reports_read_right_in_a_real_browser() {
    let Some(browser) = chromium() else {
        if std::env::var("CITEPROOF_REQUIRE_CHROMIUM").as_deref() == Ok("1") {
            panic!("CITEPROOF_REQUIRE_CHROMIUM=1 but chromium is not installed");
        }
        eprintln!("SKIPPED: chromium is not installed (apt-get install -y chromium)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (article, signed, tampered) = aef_documents(dir.path());
    let db = dir.path().join("audit.db");
    let db = db.to_str().unwrap();
    aef_verify(dir.path(), &signed, &article, &["--record", db]);
    aef_verify(dir.path(), &tampered, &article, &["--record", db]);
    let record =
        citeproof_audit::Record::from_report(chain_report(), 1_777_593_700, 1_777_593_600).unwrap();
    let mut store = citeproof_audit::open(db, citeproof_audit::Access::Write).unwrap();
    store.record(&record).unwrap();
    drop(store);
    let page = |id: &str| {
        let p = dir.path().join(format!("report-{id}.html"));
        run_ok(
            citeproof()
                .args(["audit", "--db", db, "report", id, "--out"])
                .arg(&p),
        );
        p
    };
    for (id, word) in [
        ("1", "VERIFIED"),
        ("2", "NOT VERIFIED"),
        ("3", "NOT VERIFIED"),
    ] {
        let (dom, width) = measure(&browser, &page(id));
        let verdict = dom
            .split("id=\"verdict-word\">")
            .nth(1)
            .and_then(|s| s.split('<').next())
            .unwrap();
        assert_eq!(verdict, word, "report {id}");
        assert!(width <= 1280, "report {id} overflows: {width} px");
        assert!(
            !dom.contains("<script") && !dom.contains("<img"),
            "report {id} has active content"
        );
        assert!(
            !dom.contains("<a href=\"javascript"),
            "report {id} links to javascript:"
        );
        let rows = dom.matches("class=\"claim-row").count();
        match id {
            "1" => assert_eq!(rows, 1),
            "2" => {
                assert_eq!(rows, 1);
                assert!(dom.contains("aef-signature-invalid"));
                assert!(
                    dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
                    "the hostile claim shows as text"
                );
            }
            _ => {
                // The answer and its three envelopes; the chain is expanded in place.
                assert_eq!(rows, 4, "{dom}");
                assert_eq!(dom.matches("<details open=\"\"").count(), 4, "{dom}");
                assert!(dom.contains(">PARTIALLY SIGNED<") && dom.contains(">STALE<"));
                // env-2 says "verified" but failed a check: never shown with a passing word.
                let env2 = dom
                    .split("env-2")
                    .nth(1)
                    .unwrap()
                    .split("</tr>")
                    .next()
                    .unwrap();
                assert!(
                    env2.contains("NOT VERIFIED") && env2.contains("chain-signature-invalid"),
                    "{env2}"
                );
            }
        }
    }
}
