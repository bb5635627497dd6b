//! `archive_documents`: archive bundles, display views, bundle logs and archives on arbitrary bytes: never panic.
//! The first byte picks the check. Mode 3 mutates the signed walkthrough bundle and checks that
//! VERIFIED is never bought: a mutated bundle that still verifies has the same JSON value.

use std::sync::OnceLock;

use citeproof_archive::log::{LogOptions, verify_log};
use citeproof_archive::signature::Trust;
use citeproof_archive::{Store, verify_bundle};
use citeproof_jose::load_public_keys;
use citeproof_model::{jcs, json::parse_strict};
use serde_json::{Value, json};

const ARCHIVE: &[u8] = include_bytes!("../../../vectors/fixtures/archive/archive.json");
const EXPECTED: &[u8] =
    include_bytes!("../../../vectors/fixtures/archive/walkthrough.expected.json");
const NOW: i64 = 1_778_925_900;

struct Fixture {
    store: Store,
    trust: Trust,
    bundle: String,
    display: String,
}

fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let store = Store::load_bytes(ARCHIVE).0.expect("fixture archive");
        let expected = parse_strict(EXPECTED).expect("expected");
        let jwks = json!({ "keys": [expected["public_jwk"].clone()] });
        let mut trust = Trust::default();
        trust.add_keys(
            "archive.example",
            load_public_keys(&jcs::canonicalize(&jwks)).expect("key"),
        );
        Fixture {
            store,
            trust,
            bundle: expected["bundle"].to_string(),
            display: expected["display"].to_string(),
        }
    })
}

/// The body of the `archive_documents` target (see the module documentation).
pub fn archive_documents(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let f = fixture();
    match which % 4 {
        0 => {
            let (bundle, display) = crate::halves(rest);
            let r = verify_bundle(bundle, display, &f.store, &f.trust, NOW);
            assert!(!r.verdict.verified || parse_strict(bundle).is_ok());
        }
        1 => {
            let (log, bundle) = crate::halves(rest);
            let opts = LogOptions {
                now: NOW,
                head: None,
            };
            let _ = verify_log(log, &f.store, &[bundle.to_vec()], &opts);
        }
        2 => {
            let _ = Store::load_bytes(rest);
        }
        _ => {
            // Byte edits of the signed bundle: pairs (position, value).
            let mut bytes = f.bundle.clone().into_bytes();
            for pair in rest.chunks(3) {
                if let [hi, lo, v] = pair {
                    let pos = (usize::from(*hi) << 8 | usize::from(*lo)) % bytes.len();
                    bytes[pos] = *v;
                }
            }
            let r = verify_bundle(&bytes, f.display.as_bytes(), &f.store, &f.trust, NOW);
            if r.verdict.verified {
                let original: Value = parse_strict(f.bundle.as_bytes()).expect("bundle");
                let mutated = parse_strict(&bytes).expect("a valid bundle parses");
                assert_eq!(
                    jcs::canonicalize(&original),
                    jcs::canonicalize(&mutated),
                    "a changed bundle verified"
                );
            }
        }
    }
}
