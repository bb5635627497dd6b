//! The conformance operations of the ledger (docs/ADAPTER.md §5.4), for `citeproof-reference`.
//! Each operation reads its input into one typed struct.

use citeproof_model::operation_input;
use citeproof_model::protocol::{Reply, bad_input as bad, from_incidents};
use citeproof_model::spec::{
    Base64, DocumentRule, Operation, OperationInput, Optional, Spec, SpecDescriptor,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::audit::{AuditOptions, audit};
use crate::config::{LENIENT_DEFAULT_THRESHOLD, STRICT_THRESHOLD};
use crate::template::TemplateConfig;
use crate::verify::{VerifyOptions, verify};
use citeproof_model::ledger::LedgerMode;

/// What this crate tells the workspace: its document checks and its operations (docs/ADAPTER.md,
/// section 5: the typed input, the output members, the reference's implementation).
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
        Operation::new::<LedgerVerify>(&[]),
        Operation::new::<LedgerAudit>(&["ledgers"]),
    ],
};

/// The audit file: exactly one of `export` (text) and `export_base64` (bytes that need not be
/// UTF-8); the struct's check has made sure one is there.
fn export_bytes(export: Option<String>, export_base64: Option<Base64>) -> Result<Vec<u8>, Reply> {
    match (export, export_base64) {
        (Some(text), None) => Ok(text.into_bytes()),
        (None, Some(Base64(bytes))) => Ok(bytes),
        _ => Err(bad(
            "give exactly one of `export` (string) and `export_base64`",
        )),
    }
}

/// A ledger's mode (LEDGER-019).
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Mode {
    Strict,
    Lenient,
}

operation_input! {
    /// `ledger-verify`: the ledger's raw JSON text, its audit file, whether it was emitted, the
    /// time, the API export's raw text, and a template ledger's mode and threshold.
    struct LedgerVerify = "ledger-verify" {
        ledger: String,
        #[serde(default)]
        export: Optional<String>,
        #[serde(default)]
        export_base64: Optional<Base64>,
        #[serde(default)]
        emitted: Optional<bool>,
        #[serde(default)]
        now: Optional<i64>,
        #[serde(default)]
        api: Optional<String>,
        #[serde(default)]
        mode: Optional<Mode>,
        #[serde(default)]
        threshold: Optional<f64>,
    }
}

impl OperationInput for LedgerVerify {
    const EXACTLY_ONE: &'static [&'static [&'static str]] = &[&["export", "export_base64"]];

    fn run(self) -> Reply {
        let export = match export_bytes(self.export.0, self.export_base64.0) {
            Ok(b) => b,
            Err(r) => return r,
        };
        let template = match template_config(self.mode.0, self.threshold.0, &self.ledger) {
            Ok(t) => t,
            Err(r) => return r,
        };
        let options = VerifyOptions {
            emitted: self.emitted.0.unwrap_or(true),
            now: self.now.0,
            template,
            ..VerifyOptions::default()
        };
        let api = self.api.0.as_deref().map(str::as_bytes);
        let report = verify(self.ledger.as_bytes(), &export, api, &options);
        let incidents: Vec<_> = report.plain_incidents();
        from_incidents(&incidents, None)
    }
}

/// `mode` and `threshold` of a template ledger (LEDGER-019), which does not state them. A
/// citeproof ledger states its own: giving them for one is a usage error.
fn template_config(
    mode: Option<Mode>,
    threshold: Option<f64>,
    ledger: &str,
) -> Result<Option<TemplateConfig>, Reply> {
    if mode.is_none() && threshold.is_none() {
        return Ok(None);
    }
    if let Ok(value) = citeproof_model::json::parse_strict(ledger.as_bytes())
        && !crate::template::is_template(&value)
    {
        return Err(bad(
            "`mode` and `threshold` are for a template ledger; this ledger states its own",
        ));
    }
    let (mode, default) = match mode {
        None | Some(Mode::Strict) => (LedgerMode::Strict, STRICT_THRESHOLD),
        Some(Mode::Lenient) => (LedgerMode::Lenient, LENIENT_DEFAULT_THRESHOLD),
    };
    let threshold = threshold.unwrap_or(default);
    Ok(Some(TemplateConfig { mode, threshold }))
}

operation_input! {
    /// `ledger-audit`: an audit file, the mode and threshold of the audit, one ledger to audit,
    /// the time.
    struct LedgerAudit = "ledger-audit" {
        #[serde(default)]
        export: Optional<String>,
        #[serde(default)]
        export_base64: Optional<Base64>,
        #[serde(default)]
        mode: Optional<Mode>,
        #[serde(default)]
        threshold: Optional<f64>,
        #[serde(default)]
        ledger_id: Optional<String>,
        #[serde(default)]
        now: Optional<i64>,
    }
}

impl OperationInput for LedgerAudit {
    const EXACTLY_ONE: &'static [&'static [&'static str]] = &[&["export", "export_base64"]];

    fn run(self) -> Reply {
        let export = match export_bytes(self.export.0, self.export_base64.0) {
            Ok(b) => b,
            Err(r) => return r,
        };
        let mut options = match self.mode.0 {
            None | Some(Mode::Strict) => AuditOptions::default(),
            Some(Mode::Lenient) => AuditOptions::lenient(),
        };
        if let Some(t) = self.threshold.0 {
            options.threshold = t;
        }
        options.ledger_id = self.ledger_id.0;
        options.now = self.now.0;
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
}
