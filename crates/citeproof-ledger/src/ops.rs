//! The conformance operations of the ledger (docs/ADAPTER.md §5.4), for `citeproof-reference`.

use base64::Engine as _;
use citeproof_model::protocol::{Reply, bad_input as bad, from_incidents};
use citeproof_model::spec::{DocumentRule, Operation, Spec, SpecDescriptor};
use serde_json::{Value, json};

use crate::audit::{AuditOptions, audit};
use crate::config::{LENIENT_DEFAULT_THRESHOLD, STRICT_THRESHOLD};
use crate::template::TemplateConfig;
use crate::verify::{VerifyOptions, verify};
use citeproof_model::ledger::LedgerMode;

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: input members, output members, the reference's implementation).
pub const SPEC: SpecDescriptor = SpecDescriptor {
    spec: Spec::Ledger,
    documents: &[
        DocumentRule::new("ledger", crate::validate_ledger_value),
        DocumentRule::new("ledger-template", crate::validate_template_ledger_value),
        DocumentRule::new("ledger-audit-record", crate::validate_record_value),
        DocumentRule::new("ledger-template-record", crate::validate_record_value),
        DocumentRule::new("ledger-api-export", crate::validate_api_value),
    ],
    operations: &[
        Operation::new(
            "ledger-verify",
            &["ledger", "export|export_base64"],
            &["emitted", "now", "api", "mode", "threshold"],
            &[],
            ledger_verify,
        ),
        Operation::new(
            "ledger-audit",
            &["export|export_base64"],
            &["mode", "threshold", "ledger_id", "now"],
            &["ledgers"],
            ledger_audit,
        ),
    ],
};

/// The audit file: `export` (text) or `export_base64` (bytes that need not be UTF-8).
fn export_bytes(input: &Value) -> Result<Vec<u8>, Reply> {
    match (input.get("export"), input.get("export_base64")) {
        (Some(Value::String(text)), None) => Ok(text.as_bytes().to_vec()),
        (None, Some(Value::String(b))) => base64::engine::general_purpose::STANDARD
            .decode(b)
            .map_err(|e| bad(format!("`export_base64` is not standard base64: {e}"))),
        _ => Err(bad(
            "give exactly one of `export` (string) and `export_base64`",
        )),
    }
}

fn now(input: &Value) -> Result<Option<i64>, Reply> {
    match input.get("now") {
        None => Ok(None),
        Some(v) => v
            .as_i64()
            .map(Some)
            .ok_or_else(|| bad("`now` must be an integer")),
    }
}

fn ledger_verify(input: &Value) -> Reply {
    let Some(ledger) = input.get("ledger").and_then(Value::as_str) else {
        return bad("`ledger` must be a string (the raw JSON text)");
    };
    let export = match export_bytes(input) {
        Ok(b) => b,
        Err(r) => return r,
    };
    let api = match input.get("api") {
        None => None,
        Some(Value::String(s)) => Some(s.as_bytes()),
        Some(_) => return bad("`api` must be a string (the raw JSON text)"),
    };
    let emitted = match input.get("emitted") {
        None => true,
        Some(Value::Bool(b)) => *b,
        Some(_) => return bad("`emitted` must be a boolean"),
    };
    let now = match now(input) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let template = match template_config(input, ledger) {
        Ok(t) => t,
        Err(r) => return r,
    };
    let options = VerifyOptions {
        emitted,
        now,
        template,
        ..VerifyOptions::default()
    };
    let report = verify(ledger.as_bytes(), &export, api, &options);
    let incidents: Vec<_> = report.plain_incidents();
    from_incidents(&incidents, None)
}

/// `mode` and `threshold` of a template ledger (LEDGER-019), which does not state them. A
/// citeproof ledger states its own: giving them for one is a usage error.
fn template_config(input: &Value, ledger: &str) -> Result<Option<TemplateConfig>, Reply> {
    if input.get("mode").is_none() && input.get("threshold").is_none() {
        return Ok(None);
    }
    if let Ok(value) = citeproof_model::json::parse_strict(ledger.as_bytes())
        && !crate::template::is_template(&value)
    {
        return Err(bad(
            "`mode` and `threshold` are for a template ledger; this ledger states its own",
        ));
    }
    let (mode, default) = match input.get("mode").map(Value::as_str) {
        None | Some(Some("strict")) => (LedgerMode::Strict, STRICT_THRESHOLD),
        Some(Some("lenient")) => (LedgerMode::Lenient, LENIENT_DEFAULT_THRESHOLD),
        Some(_) => return Err(bad("`mode` must be \"strict\" or \"lenient\"")),
    };
    let threshold = match input.get("threshold") {
        None => default,
        Some(t) => t
            .as_f64()
            .ok_or_else(|| bad("`threshold` must be a number"))?,
    };
    Ok(Some(TemplateConfig { mode, threshold }))
}

fn ledger_audit(input: &Value) -> Reply {
    let export = match export_bytes(input) {
        Ok(b) => b,
        Err(r) => return r,
    };
    let mut options = match input.get("mode").map(Value::as_str) {
        None | Some(Some("strict")) => AuditOptions::default(),
        Some(Some("lenient")) => AuditOptions::lenient(),
        Some(_) => return bad("`mode` must be \"strict\" or \"lenient\""),
    };
    if let Some(t) = input.get("threshold") {
        match t.as_f64() {
            Some(t) => options.threshold = t,
            None => return bad("`threshold` must be a number"),
        }
    }
    match input.get("ledger_id") {
        None => {}
        Some(Value::String(id)) => options.ledger_id = Some(id.clone()),
        Some(_) => return bad("`ledger_id` must be a string"),
    }
    options.now = match now(input) {
        Ok(n) => n,
        Err(r) => return r,
    };
    let report = audit(&export, &options);
    let mut incidents = report.incidents.clone();
    incidents.extend(
        report
            .ledgers
            .iter()
            .flat_map(|l| l.incidents.iter().cloned()),
    );
    let ledgers: Vec<Value> = report
        .ledgers
        .iter()
        .map(|l| {
            json!({
                "ledger_id": l.ledger_id,
                "total_claims": l.coverage.total_claims,
                "required_claims": l.coverage.required_claims,
                "cited_claims": l.coverage.cited_claims,
                "coverage_score": l.coverage.coverage_score,
                "is_compliant": l.coverage.is_compliant,
                "uncited_claims": l.coverage.uncited_claims,
            })
        })
        .collect();
    from_incidents(&incidents, Some(json!({ "ledgers": ledgers })))
}
