//! Manifest and discovery validation, and the support check, on arbitrary bytes: never panic.
//! The first byte picks the checker; the rest is the input.

#![no_main]

use citeproof_aca::verify::support::{Analyzed, ExcerptRef, assess};
use citeproof_aca::{LexicalJudge, validate_discovery_bytes, validate_manifest_bytes};
use citeproof_model::Location;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    match which % 3 {
        0 => {
            let _ = validate_manifest_bytes(rest);
        }
        1 => {
            let _ = validate_discovery_bytes(rest);
        }
        _ => {
            let text = String::from_utf8_lossy(rest);
            let mid = (0..=text.len() / 2)
                .rev()
                .find(|&i| text.is_char_boundary(i))
                .unwrap_or(0);
            let (claim, excerpt) = text.split_at(mid);
            let _ = Analyzed::new(excerpt);
            let refs = [ExcerptRef {
                text: excerpt,
                source_url: "",
                location: Location::default(),
            }];
            let a = assess(claim, &refs, &Location::default(), &LexicalJudge, &[]);
            // A claim that is its own excerpt is supported unless the excerpt is over the cap.
            let own = [ExcerptRef {
                text: claim,
                source_url: "",
                location: Location::default(),
            }];
            let own = assess(claim, &own, &Location::default(), &LexicalJudge, &[]);
            if !claim.trim().is_empty() {
                assert_eq!(own.supported, Some(true), "{claim:?}");
            }
            let _ = a;
        }
    }
});
