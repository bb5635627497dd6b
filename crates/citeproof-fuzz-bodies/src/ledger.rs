//! `ledger_jsonl`: the ledger's JSONL audit reader and verifier on arbitrary bytes: never panic, every
//! incident located. The first byte picks the path: audit of the bytes as an audit file
//! (strict, or lenient with the ledger id filter), or verify of a fixed ledger document against
//! the bytes, or verify of the bytes as a ledger document (and as an `export_for_api`) against
//! a fixed audit file.

use citeproof_ledger::{AuditOptions, VerifyOptions, audit, verify};

const LEDGER: &[u8] = br#"{"ledger_version":"1","ledger_id":"run-a","mode":"strict","threshold":1.0,"claims":[{"claim_id":"c-1","text":"t","requires_attribution":true,"recorded_at":"2026-05-16T10:00:10Z","source":{"identifier":"s-1","category":"web","tool_call_id":"call-1","fetched_at":"2026-05-16T10:00:02Z"}},{"text":"u","requires_attribution":false,"recorded_at":"2026-05-16T10:00:10Z","source":null}],"coverage":{"total_claims":2,"required_claims":1,"cited_claims":1,"coverage_score":1.0,"is_compliant":true,"uncited_claims":[]}}"#;
const AUDIT: &[u8] = b"{\"ledger_id\":\"run-a\",\"claim_id\":\"c-1\",\"claim\":\"t\",\"source\":{\"identifier\":\"s-1\",\"category\":\"web\",\"tool_call_id\":\"call-1\",\"fetched_at\":\"2026-05-16T10:00:02Z\"},\"requires_proof\":true,\"logged_at\":\"2026-05-16T10:00:11Z\"}\n{\"ledger_id\":\"run-a\",\"claim\":\"u\",\"source\":null,\"requires_proof\":false,\"logged_at\":\"2026-05-16T10:00:11Z\"}\n";

/// The body of the `ledger_jsonl` target (see the module documentation).
pub fn ledger_jsonl(data: &[u8]) {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    match which % 4 {
        0 => {
            let r = audit(rest, &AuditOptions::default());
            // Only incidents about the file as a whole have no location: too large, or no
            // record read (nothing audited).
            for i in &r.incidents {
                assert!(
                    !i.location.is_empty()
                        || matches!(
                            i.code.as_str(),
                            "ledger-jsonl-too-large" | "ledger-audit-empty"
                        )
                );
            }
        }
        1 => {
            let mut o = AuditOptions::lenient();
            o.ledger_id = Some("run-a".into());
            o.now = Some(1_778_925_600);
            let _ = audit(rest, &o);
        }
        2 => {
            let _ = verify(LEDGER, rest, None, &VerifyOptions::default());
        }
        _ => {
            let _ = verify(rest, AUDIT, Some(rest), &VerifyOptions::default());
        }
    }
}
