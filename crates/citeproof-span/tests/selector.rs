//! `Selector` through the public API: invalid selectors cannot be made, so `resolve` cannot be
//! handed one. Regressions of code-audit-3 §3: `ByteRange { start: 5, end: 2 }` panicked in
//! `resolve` (slice index order) and `LineRange { start: 0, .. }` underflowed, both because the
//! selector was a public enum that `resolve` trusted. Expected contents are derived by hand from
//! the bodies next to them.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_model::IncidentCode;
use citeproof_model::aef::SelectorType;
use citeproof_span::limits::MAX_SELECTOR_NUMBER;
use citeproof_span::{Selector, SelectorError, resolve};
use proptest::prelude::*;

fn refused(r: Result<Selector, SelectorError>) -> SelectorError {
    match r {
        Ok(s) => panic!("accepted: {s:?}"),
        Err(e) => e,
    }
}

#[test]
fn a_byte_range_that_ends_before_it_starts_cannot_be_made() {
    let e = refused(Selector::byte_range(5, 2));
    assert_eq!(e.code(), IncidentCode::AefSelectorInvalid);
    refused(Selector::byte_range(2, 2));
    refused(Selector::parse(
        SelectorType::ByteRange,
        Some("5-2"),
        None,
        None,
    ));
    // The nearest valid range resolves, to bytes 2, 3 and 4 of the body.
    let ok = Selector::byte_range(2, 5).unwrap();
    assert_eq!(resolve(&ok, "text/plain", b"abcdefg").unwrap(), b"cde");
}

#[test]
fn a_line_range_from_line_zero_cannot_be_made() {
    let e = refused(Selector::line_range(0, 3));
    assert_eq!(e.code(), IncidentCode::AefSelectorInvalid);
    refused(Selector::parse(
        SelectorType::LineRange,
        Some("0-3"),
        None,
        None,
    ));
    refused(Selector::page_range(0, 1));
    // Lines are counted from 1: lines 1 to 2 of "a\nb\nc\n" are "a\nb".
    let ok = Selector::line_range(1, 2).unwrap();
    assert_eq!(resolve(&ok, "text/plain", b"a\nb\nc\n").unwrap(), b"a\nb");
}

#[test]
fn ranges_past_the_end_are_out_of_range_not_panics() {
    let code = |s: Selector, body: &[u8]| resolve(&s, "text/plain", body).unwrap_err().code();
    // 7 bytes: [0, 7) is the whole body, [0, 8) is one byte too many.
    assert_eq!(
        resolve(
            &Selector::byte_range(0, 7).unwrap(),
            "text/plain",
            b"abcdefg"
        )
        .unwrap(),
        b"abcdefg"
    );
    assert_eq!(
        code(Selector::byte_range(0, 8).unwrap(), b"abcdefg"),
        IncidentCode::AefSpanOutOfRange
    );
    assert_eq!(
        code(
            Selector::byte_range(MAX_SELECTOR_NUMBER - 1, MAX_SELECTOR_NUMBER).unwrap(),
            b"abc"
        ),
        IncidentCode::AefSpanOutOfRange
    );
    // 3 lines: line 3 exists, line 4 does not.
    assert_eq!(
        code(Selector::line_range(3, 4).unwrap(), b"a\nb\nc\n"),
        IncidentCode::AefSpanOutOfRange
    );
    assert_eq!(
        resolve(
            &Selector::line_range(3, 3).unwrap(),
            "text/plain",
            b"a\nb\nc\n"
        )
        .unwrap(),
        b"c"
    );
}

/// Numbers near the edges that matter: 0, 1, small, around a short body's length, huge.
fn edge_number() -> impl Strategy<Value = u64> {
    prop_oneof![
        0u64..12,
        Just(MAX_SELECTOR_NUMBER - 1),
        Just(MAX_SELECTOR_NUMBER),
        Just(MAX_SELECTOR_NUMBER + 1),
        Just(u64::MAX),
        any::<u64>(),
    ]
}

fn text_value(kind: u8, a: u64, b: u64) -> (SelectorType, String) {
    match kind % 5 {
        0 => (SelectorType::ByteRange, format!("{a}-{b}")),
        1 => (SelectorType::LineRange, format!("{a}-{b}")),
        2 => (SelectorType::PageRange, format!("{a}-{b}")),
        3 => (SelectorType::FragmentIdentifier, format!("char={a},{b}")),
        _ => (SelectorType::FragmentIdentifier, format!("line={a},{b}")),
    }
}

proptest! {
    /// Whatever numbers a selector is made from, it is either refused when made or resolves to
    /// content or to one of the span codes; nothing panics.
    #[test]
    fn every_selector_that_exists_resolves_without_panicking(
        kind in any::<u8>(),
        a in edge_number(),
        b in edge_number(),
        body in proptest::collection::vec(prop_oneof![Just(b'a'), Just(b'\n'), Just(b'\r'), any::<u8>()], 0..24),
        media in prop_oneof![Just("text/plain"), Just("application/pdf"), Just("image/png")],
    ) {
        let (selector_type, value) = text_value(kind, a, b);
        let made = [
            Selector::parse(selector_type, Some(&value), None, None),
            Selector::byte_range(a, b),
            Selector::line_range(a, b),
            Selector::page_range(a, b),
        ];
        for selector in made.into_iter().flatten() {
            match resolve(&selector, media, &body) {
                Ok(content) => prop_assert!(content.len() <= body.len()),
                Err(e) => prop_assert!(
                    matches!(
                        e.code(),
                        IncidentCode::AefSpanOutOfRange
                            | IncidentCode::AefSelectorUnsupportedMedia
                            | IncidentCode::AefSpanUnverifiable
                            | IncidentCode::CanonTextNotUtf8
                    ),
                    "{selector:?} on {body:?}: {e}"
                ),
            }
        }
    }
}
