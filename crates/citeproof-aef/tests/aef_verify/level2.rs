//! Level 2 failures (sources, selectors, hashes): each gives Level 1.

use super::*;

#[test]
pub(crate) fn level_2_failures_give_level_1() {
    let cases: Vec<(Value, BTreeMap<String, StoredResponse>, Vec<&str>)> = vec![
        // AEF-SEL-001
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "byte_range", "selector_value": "10-2" }),
                );
                d
            },
            resources(),
            vec!["aef-selector-invalid"],
        ),
        // AEF-L2-001 and FETCH-008 / FETCH-007 / FETCH-006 causes
        (
            evidence(),
            BTreeMap::new(),
            vec!["aef-source-fetch-failed", "fetch-not-in-snapshot"],
        ),
        (
            evidence(),
            [(PAGE.to_owned(), stored(404, &[], b"gone"))].into(),
            vec!["aef-source-fetch-failed", "fetch-http-status"],
        ),
        (
            evidence(),
            [(
                PAGE.to_owned(),
                stored(200, &[("Content-Encoding", "gzip")], b"\x1f\x8b"),
            )]
            .into(),
            vec!["aef-source-fetch-failed", "fetch-content-encoding"],
        ),
        (
            {
                let mut d = evidence();
                set(&mut d, "/source/uri", json!("urn:isbn:0451450523"));
                d
            },
            resources(),
            vec!["aef-source-fetch-failed"],
        ),
        (
            {
                let mut d = evidence();
                set(&mut d, "/source/uri", json!("http://127.0.0.1/page"));
                d
            },
            resources(),
            vec!["aef-source-fetch-failed", "fetch-address-forbidden"],
        ),
        // AEF-5-001
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "text_quote", "selector_value": "three pillars: Declare" }),
                );
                d
            },
            resources(),
            vec!["aef-content-hash-mismatch"],
        ),
        // AEF-5-002: exact_text does not hash to content_hash (no fetch needed)
        (
            {
                let mut d = evidence();
                set(&mut d, "/span/exact_text", json!("three pillars!"));
                d
            },
            BTreeMap::new(),
            vec!["aef-exact-text-mismatch"],
        ),
        // AEF-L2-002 / -006 / -007 / -009
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "css", "selector_value": "p", "exact_text": "three pillars" }),
                );
                d
            },
            [(
                PAGE.to_owned(),
                stored(200, &[("Content-Type", "text/plain")], b"three pillars"),
            )]
            .into(),
            vec!["aef-selector-unsupported-media"],
        ),
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "text_quote", "selector_value": "Auditors" }),
                );
                d
            },
            resources(),
            vec!["aef-span-ambiguous"],
        ),
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "text_quote", "selector_value": "four pillars" }),
                );
                d
            },
            resources(),
            vec!["aef-span-not-found"],
        ),
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "paragraph_index", "selector_value": "99" }),
                );
                d
            },
            resources(),
            vec!["aef-span-out-of-range"],
        ),
        (
            {
                let mut d = evidence();
                set(
                    &mut d,
                    "/span",
                    json!({ "selector_type": "xpath", "selector_value": "/a" }),
                );
                d
            },
            [(
                PAGE.to_owned(),
                stored(200, &[("Content-Type", "application/xml")], b"<a><b></a>"),
            )]
            .into(),
            vec!["aef-source-unparseable"],
        ),
        (
            {
                let mut d = evidence();
                set(&mut d, "/span", json!({ "selector_type": "none" }));
                d
            },
            [(PAGE.to_owned(), stored(200, &[], b"\xff\xfe"))].into(),
            vec!["canon-text-not-utf8"],
        ),
    ];
    for (i, (doc, res, want)) in cases.into_iter().enumerate() {
        let r = run(&doc, res, None);
        assert_eq!(r.verdict.level, 1, "case {i}: {:?}", codes(&r));
        for w in want {
            assert!(
                codes(&r).contains(&w),
                "case {i}: {w} missing from {:?}",
                codes(&r)
            );
        }
    }
}
