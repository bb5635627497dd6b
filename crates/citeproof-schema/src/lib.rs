//! citeproof's JSON Schemas and a validator that reports problems as registry incidents.
//!
//! The schemas are generated from the `citeproof-model` types (JSON Schema 2020-12); nothing is
//! read from disk at run time. `cargo xtask schemas` writes the same documents to `schemas/`
//! for other languages, and `--check` fails when the committed files drift from the types.

use std::fmt;
use std::sync::OnceLock;

use citeproof_model::{
    Incident, IncidentCode, Location, aca, aef, archive, envelope, jwk, ledger, snapshot, vectors,
};
use schemars::{JsonSchema, generate::SchemaSettings};
use serde_json::Value;

/// Base of every schema `$id`. The ids are stable names, not fetch locations.
pub const SCHEMA_ID_BASE: &str = "https://schemas.citeproof.dev/v0/";

/// Declares the document kinds: the one list of each kind's name (file stem in `schemas/` and
/// last segment of the `$id`) and model type, from which the enum, [`DocumentKind::ALL`],
/// [`DocumentKind::name`] and [`DocumentKind::schema`] are made.
macro_rules! document_kinds {
    ($( $kind:ident = $name:literal => $type:ty, )+) => {
        /// Every document kind that has a schema.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum DocumentKind {
            $( $kind, )+
        }

        impl DocumentKind {
            pub const ALL: &'static [DocumentKind] = &[$( DocumentKind::$kind, )+];

            /// File stem in `schemas/` and last segment of the `$id`.
            pub fn name(self) -> &'static str {
                match self {
                    $( DocumentKind::$kind => $name, )+
                }
            }

            /// The schema of the kind's model type, without its `$id`.
            fn generate(self) -> Value {
                match self {
                    $( DocumentKind::$kind => generate::<$type>(), )+
                }
            }
        }
    };
}

document_kinds! {
    AcaCitationSourceEntry = "aca-citation-source-entry" => aca::CitationSourceEntry,
    AcaManifest = "aca-manifest" => aca::Manifest,
    AcaDiscovery = "aca-discovery" => aca::Discovery,
    JwkSet = "jwk-set" => jwk::JwkSet,
    AefEvidence = "aef-evidence" => aef::Evidence,
    ArchiveCitation = "archive-citation" => archive::ArchiveCitation,
    ArchiveResponseBundle = "archive-response-bundle" => archive::ResponseBundle,
    ArchiveDisplayCitation = "archive-display-citation" => archive::DisplayCitation,
    ArchiveArtifact = "archive-artifact" => archive::ArtifactPayload,
    ArchiveSnapshot = "archive-snapshot" => archive::ArchiveSnapshot,
    ArchiveDisplayView = "archive-display-view" => archive::DisplayView,
    Archive = "archive" => archive::Archive,
    ArchiveLogRecord = "archive-log-record" => archive::LogRecord,
    ArchiveGateRequest = "archive-gate-request" => archive::GateRequest,
    ChainEnvelope = "chain-envelope" => envelope::ChainEnvelope,
    ChainResponse = "chain-response" => envelope::ChainResponse,
    Ledger = "ledger" => ledger::Ledger,
    LedgerTemplate = "ledger-template" => ledger::TemplateLedger,
    LedgerAuditRecord = "ledger-audit-record" => ledger::AuditRecord,
    LedgerTemplateRecord = "ledger-template-record" => ledger::TemplateRecord,
    LedgerApiExport = "ledger-api-export" => ledger::ApiExport,
    WebSnapshot = "web-snapshot" => snapshot::WebSnapshot,
    VectorFile = "vector-file" => vectors::VectorFile,
    Incident = "incident" => citeproof_model::Incident,
}

impl DocumentKind {
    pub fn from_name(name: &str) -> Option<DocumentKind> {
        DocumentKind::ALL.iter().copied().find(|k| k.name() == name)
    }

    pub fn file_name(self) -> String {
        format!("{}.schema.json", self.name())
    }

    pub fn schema_id(self) -> String {
        format!("{SCHEMA_ID_BASE}{}", self.file_name())
    }

    /// The JSON Schema (2020-12) of this kind, with its `$id`.
    pub fn schema(self) -> Value {
        with_id(self.generate(), &self.schema_id())
    }
}

impl fmt::Display for DocumentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

fn generate<T: JsonSchema>() -> Value {
    let mut settings = SchemaSettings::draft2020_12();
    settings.transforms.push(Box::new(forbid_null));
    settings.transforms.push(Box::new(standard_formats));
    settings
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// schemars lets every `Option` member be `null`. No citeproof document uses `null` for
/// "absent" (the AEF schema rejects it too), so `null` is removed from every optional member.
/// A *required* member that admits `null` (the ledger's `source`) keeps it: there `null` means
/// something.
fn forbid_null(schema: &mut schemars::Schema) {
    if let Some(obj) = schema.as_object_mut() {
        let required: Vec<String> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| {
                r.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default();
        if let Some(Value::Object(properties)) = obj.get_mut("properties") {
            for (name, property) in properties.iter_mut() {
                if !required.contains(name) {
                    strip_null(property);
                }
            }
        }
    }
    schemars::transform::transform_subschemas(&mut forbid_null, schema);
}

/// The `format` values of JSON Schema 2020-12 (§7.3). schemars also writes Rust type names
/// (`uint8` .. `uint64`, `int32`, `double`, ...); other validators reject those in strict mode
/// (ajv) or ignore them, so they are dropped. The range they imply is kept as `minimum`/`maximum`,
/// which schemars writes next to them.
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

fn standard_formats(schema: &mut schemars::Schema) {
    if let Some(obj) = schema.as_object_mut()
        && let Some(Value::String(format)) = obj.get("format")
        && !STANDARD_FORMATS.contains(&format.as_str())
    {
        let integer_max = match format.as_str() {
            "uint8" => Some(u64::from(u8::MAX)),
            "uint16" => Some(u64::from(u16::MAX)),
            "uint32" => Some(u64::from(u32::MAX)),
            _ => None,
        };
        obj.remove("format");
        if let Some(max) = integer_max {
            obj.entry("maximum").or_insert(Value::from(max));
        }
    }
    schemars::transform::transform_subschemas(&mut standard_formats, schema);
}

fn strip_null(property: &mut Value) {
    let Some(obj) = property.as_object_mut() else {
        return;
    };
    if let Some(Value::Array(types)) = obj.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let only = types.remove(0);
            obj.insert("type".into(), only);
        }
    }
    if let Some(Value::Array(any_of)) = obj.get("anyOf") {
        let rest: Vec<Value> = any_of
            .iter()
            .filter(|s| s.get("type").and_then(Value::as_str) != Some("null"))
            .cloned()
            .collect();
        if rest.len() == 1 && any_of.len() == 2 {
            obj.remove("anyOf");
            if let Some(Value::Object(inner)) = rest.into_iter().next() {
                for (k, v) in inner {
                    obj.entry(k).or_insert(v);
                }
            }
        }
    }
}

fn with_id(schema: Value, id: &str) -> Value {
    let Value::Object(map) = schema else {
        return schema;
    };
    // `$schema` and `$id` first, so the files read naturally.
    let mut out = serde_json::Map::new();
    if let Some(s) = map.get("$schema") {
        out.insert("$schema".into(), s.clone());
    }
    out.insert("$id".into(), Value::String(id.to_owned()));
    for (k, v) in map {
        if k != "$schema" {
            out.insert(k, v);
        }
    }
    Value::Object(out)
}

/// A compiled schema for one document kind.
pub struct SchemaValidator {
    kind: DocumentKind,
    validator: jsonschema::Validator,
}

impl fmt::Debug for SchemaValidator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("SchemaValidator")
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// The generated schema did not compile: a bug in citeproof, never caused by input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaBuildError(pub String);

impl fmt::Display for SchemaBuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "internal error: generated schema does not compile: {}",
            self.0
        )
    }
}
impl std::error::Error for SchemaBuildError {}

impl SchemaValidator {
    pub fn new(kind: DocumentKind) -> Result<SchemaValidator, SchemaBuildError> {
        compile(&kind.schema()).map(|validator| SchemaValidator { kind, validator })
    }

    /// The validator of `kind`, generated and compiled once per process (generation and
    /// compilation cost far more than validating one document).
    pub fn cached(kind: DocumentKind) -> Result<&'static SchemaValidator, SchemaBuildError> {
        static CACHE: OnceLock<Vec<OnceLock<Result<SchemaValidator, SchemaBuildError>>>> =
            OnceLock::new();
        let cells =
            CACHE.get_or_init(|| DocumentKind::ALL.iter().map(|_| OnceLock::new()).collect());
        let index = DocumentKind::ALL
            .iter()
            .position(|k| *k == kind)
            .ok_or_else(|| SchemaBuildError(format!("{kind} is not in DocumentKind::ALL")))?;
        let cell = cells
            .get(index)
            .ok_or_else(|| SchemaBuildError(format!("no cache slot for {kind}")))?;
        cell.get_or_init(|| SchemaValidator::new(kind))
            .as_ref()
            .map_err(Clone::clone)
    }

    pub fn kind(&self) -> DocumentKind {
        self.kind
    }

    /// Every schema violation of `instance`, as incidents with JSON pointers.
    pub fn validate(&self, instance: &Value) -> Vec<Incident> {
        schema_incidents(&self.validator, instance)
    }
}

/// Compiles any 2020-12 schema with format validation on (2020-12 makes formats annotations
/// unless asked; we want `uri` and `date-time` enforced). Unknown formats such as schemars'
/// `uint32` are ignored, as the spec requires.
pub fn compile(schema: &Value) -> Result<jsonschema::Validator, SchemaBuildError> {
    jsonschema::options()
        .with_draft(jsonschema::Draft::Draft202012)
        .should_validate_formats(true)
        .should_ignore_unknown_formats(true)
        .build(schema)
        .map_err(|e| SchemaBuildError(e.to_string()))
}

/// Runs a compiled validator and turns each error into an incident.
pub fn schema_incidents(validator: &jsonschema::Validator, instance: &Value) -> Vec<Incident> {
    validator
        .iter_errors(instance)
        .map(|error| {
            let pointer = error.instance_path().to_string();
            let keyword = error.schema_path().to_string();
            let code = match error.kind() {
                jsonschema::error::ValidationErrorKind::AdditionalProperties { .. }
                | jsonschema::error::ValidationErrorKind::UnevaluatedProperties { .. } => {
                    IncidentCode::UnknownMember
                }
                // The profile names specific codes for these shared definitions (JSON-005,
                // CANON-002); the keyword location tells which definition failed.
                _ if keyword.starts_with("/$defs/Timestamp/") => {
                    IncidentCode::SchemaTimestampInvalid
                }
                _ if keyword.starts_with("/$defs/ContentHash/") => IncidentCode::CanonHashSyntax,
                _ => IncidentCode::SchemaViolation,
            };
            Incident::new(code, error.to_string(), Location::pointer(pointer))
        })
        .collect()
}
