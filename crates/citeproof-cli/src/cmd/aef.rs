//! `citeproof aef verify|sign|new`: AI Evidence Format v0.1 evidence objects.
//!
//! - `verify FILE | --batch LIST [--source FILE|URL] [--media-type T] [--key JWK|PEM]
//!   [--level N] [--allow-private]` with the options of every verify (`--now`, `--trust`,
//!   `--json`): Levels 1-3; exit 0 when the required level (default: the level the object
//!   claims, 3 when signed, else 2) is met, 1 when not, 2 on usage errors, 3 when it could not
//!   be checked.
//! - `sign FILE --key KEY.pem --kid ID [--signed-by S] [--signing-key-uri URL]`: the object with
//!   `verification.signature` set (detached JWS, EdDSA, over its JCS form).
//! - `new --source FILE|URL --selector TYPE=VALUE --claim TEXT ...`: a valid evidence object whose
//!   `exact_text` and `content_hash` are computed from the source (optionally signed).

use std::process::ExitCode;

use citeproof_aef::build::{EvidenceSignOptions, NewEvidence, build_evidence, sign_evidence};
use citeproof_aef::{self as aef, AefReport, SourceChoice, VerifyOptions};
use citeproof_fetch::{FetchPolicy, Fetcher, HttpFetcher};
use citeproof_jose::{KeySet, SigningKey, load_public_keys, load_signing_key};
use citeproof_model::aef::{RetrievalMethod, SelectorType, SourceType, SynthesisRole};
use citeproof_model::json::parse_strict;
use citeproof_model::{Severity, Timestamp, sha256_bytes};
use clap::builder::PossibleValuesParser;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::cmd::common::{VerifyCommon, file_subject, push_incidents, verdict_line};
use crate::cmd::{Failure, batch};
use crate::input::{display, read_document, read_limited};

/// `source.type` values of the published schema (a test checks each against the model).
const SOURCE_TYPES: [&str; 7] = [
    "document",
    "webpage",
    "api_response",
    "knowledge_graph",
    "aeo_declaration",
    "dataset",
    "database_row",
];
/// `synthesis_role` values.
const SYNTHESIS_ROLES: [&str; 4] = ["supporting", "contradicting", "partial", "background"];
/// `retrieval.method` values of the published schema.
const RETRIEVAL_METHODS: [&str; 6] = [
    "vector",
    "keyword",
    "graph",
    "hybrid",
    "direct_fetch",
    "model_recall",
];

/// Largest local source file read (the fetch cap of FETCH-004).
const MAX_SOURCE_BYTES: usize = 10 * 1024 * 1024;

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: EvidenceCommand,
}

#[derive(Debug, clap::Subcommand)]
enum EvidenceCommand {
    /// Verify an evidence object (Levels 1-3): schema, span and content hash, signature.
    Verify(VerifyArgs),
    /// Sign an evidence object: set `verification.signature` (detached JWS, EdDSA).
    Sign(SignArgs),
    /// Build an evidence object from a source and a span, computing `exact_text` and
    /// `content_hash`.
    New(Box<NewArgs>),
}

#[derive(Debug, clap::Args)]
struct VerifyArgs {
    /// Evidence object (JSON), or `-` for standard input.
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    file: Option<String>,
    /// Verify every evidence object listed in FILE (`-`: stdin), one path a line, on every
    /// core, with the same options; prints one JSON line per object (the `--json` object plus
    /// `input` and `line`), in input order. Exit status: the worst over the lines.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// Read the source from this file or URL instead of fetching `source.uri`.
    #[arg(long)]
    source: Option<String>,
    /// Media type of a `--source` file (default: from its extension).
    #[arg(long)]
    media_type: Option<String>,
    /// Verify the signature with this key (PEM public key, JWK or JWK Set) instead of fetching
    /// `verification.signing_key_uri`; a key you give is trusted (profile AEF-L3-006).
    #[arg(long)]
    key: Option<String>,
    /// Trust keys fetched from this `signing_key_uri` (repeatable). Without `--key` or a trusted
    /// location, a signature under a key the document names itself gets `aef-key-untrusted` and
    /// the object stays below Level 3.
    #[arg(long = "trust-key-uri", value_name = "URL")]
    trust_key_uri: Vec<String>,
    /// Level to check and require (1-3). Default: 3 when the object is signed, else 2.
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=3))]
    level: Option<u8>,
    /// Allow loopback and private addresses (local demos and tests); link-local stays refused.
    #[arg(long)]
    allow_private: bool,
    /// `spec`: the published schema's values (the conformance levels). `landing`: also read the
    /// landing page's values (api, book, paper, semantic, direct, css_selector,
    /// fragment_identifier, page_range) with a warning; the result is not an AEF conformance
    /// level.
    #[arg(long, value_enum, default_value = "spec")]
    vocabulary: VocabularyArg,
    #[command(flatten)]
    common: VerifyCommon,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum VocabularyArg {
    Spec,
    Landing,
}

#[derive(Debug, clap::Args)]
struct SignArgs {
    /// Evidence object (JSON), or `-` for standard input.
    file: String,
    /// Private key: PKCS#8 PEM or a private JWK.
    #[arg(long)]
    key: String,
    /// Key id put in the JWS header.
    #[arg(long)]
    kid: String,
    /// Set `verification.signed_by` (covered by the signature).
    #[arg(long)]
    signed_by: Option<String>,
    /// Set `verification.signing_key_uri` (where verifiers fetch the JWK or JWK Set).
    #[arg(long)]
    signing_key_uri: Option<String>,
    /// Print `{"command","ok","incidents","evidence"}` instead of the bare evidence object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct NewArgs {
    /// The source: a file, or an http(s) URL to fetch.
    #[arg(long)]
    source: String,
    /// The span: `TYPE=VALUE` (`text_quote=three pillars`, `css=p.lead`, `line_range=3-5`, ...)
    /// or `none`. TYPE is one of: byte_range, line_range, xpath, css, text_quote,
    /// paragraph_index, none.
    #[arg(long)]
    selector: String,
    /// The claim the evidence supports, verbatim.
    #[arg(long)]
    claim: String,
    /// `source.uri` (default: the source URL; for a file, its `file://` URL).
    #[arg(long)]
    uri: Option<String>,
    /// Media type of a `--source` file (default: from its extension), or instead of the
    /// response's `Content-Type`.
    #[arg(long)]
    media_type: Option<String>,
    /// text_quote: the quote, when `--selector text_quote=ANCHOR` gives only its beginning.
    #[arg(long)]
    quote: Option<String>,
    /// `span.surrounding_context`, to disambiguate a quote.
    #[arg(long)]
    context: Option<String>,
    /// `evidence_id` (default: derived from the other members).
    #[arg(long)]
    id: Option<String>,
    /// `source.type`.
    #[arg(long = "type", default_value = "webpage", value_parser = PossibleValuesParser::new(SOURCE_TYPES))]
    source_type: String,
    /// `synthesis_role`.
    #[arg(long, default_value = "supporting", value_parser = PossibleValuesParser::new(SYNTHESIS_ROLES))]
    role: String,
    /// `retrieval.method`.
    #[arg(long, default_value = "direct_fetch", value_parser = PossibleValuesParser::new(RETRIEVAL_METHODS))]
    method: String,
    /// `source.title`.
    #[arg(long)]
    title: Option<String>,
    /// `source.publisher`.
    #[arg(long)]
    publisher: Option<String>,
    /// `source.fetched_at` (RFC 3339; default: now).
    #[arg(long)]
    fetched_at: Option<String>,
    /// Sign with this private key (PKCS#8 PEM or private JWK); needs --kid.
    #[arg(long, requires = "kid")]
    key: Option<String>,
    /// Key id of the JWS header.
    #[arg(long, requires = "key")]
    kid: Option<String>,
    /// `verification.signed_by`.
    #[arg(long)]
    signed_by: Option<String>,
    /// `verification.signing_key_uri`.
    #[arg(long)]
    signing_key_uri: Option<String>,
    /// Allow loopback and private addresses when fetching the source.
    #[arg(long)]
    allow_private: bool,
    /// Print `{"command","ok","incidents","evidence"}` (incidents: the object's Level 1
    /// warnings) instead of the bare evidence object.
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    match args.command {
        EvidenceCommand::Verify(a) => verify(a),
        EvidenceCommand::Sign(a) => sign(a),
        EvidenceCommand::New(a) => new(*a),
    }
}

fn is_url(s: &str) -> bool {
    let lower = s.get(..8).unwrap_or(s).to_ascii_lowercase();
    lower.starts_with("http://") || lower.starts_with("https://")
}

/// Media type of a local file from its extension (file contents are never sniffed).
fn media_type_of(path: &str) -> &'static str {
    let ext = path
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "html" | "htm" => "text/html",
        "xhtml" => "application/xhtml+xml",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "txt" | "text" => "text/plain",
        "md" | "markdown" => "text/markdown",
        "json" => "application/json",
        "pdf" => "application/pdf",
        _ => citeproof_span::media::OCTET_STREAM,
    }
}

fn enum_arg<T: DeserializeOwned>(what: &str, value: &str) -> Result<T, Failure> {
    serde_json::from_value(json!(value))
        .map_err(|_| Failure::Usage(format!("unknown {what} `{value}`")))
}

fn fetcher(allow_private: bool) -> HttpFetcher {
    HttpFetcher::new(FetchPolicy {
        allow_private,
        ..FetchPolicy::default()
    })
}

fn verify(a: VerifyArgs) -> Result<ExitCode, Failure> {
    let trust = a.common.load_trust()?;
    let source = match &a.source {
        None => SourceChoice::FromUri,
        Some(s) if is_url(s) => SourceChoice::Url(s.clone()),
        Some(path) => SourceChoice::Bytes {
            media_type: a
                .media_type
                .clone()
                .unwrap_or_else(|| media_type_of(path).to_owned()),
            body: read_limited(path, MAX_SOURCE_BYTES)?,
        },
    };
    let keys: Option<KeySet> = match &a.key {
        None => None,
        Some(path) => Some(
            load_public_keys(&read_limited(path, 1024 * 1024)?)
                .map_err(|e| Failure::Usage(format!("cannot use the key in {path}: {e}")))?,
        ),
    };
    let options = VerifyOptions {
        source,
        keys,
        trusted_key_uris: a.trust_key_uri.clone(),
        required_level: a.level,
        vocabulary: match a.vocabulary {
            VocabularyArg::Spec => aef::Vocabulary::Spec,
            VocabularyArg::Landing => aef::Vocabulary::Landing,
        },
        now: Some(a.common.time()),
        trust,
    };
    let fetcher = fetcher(a.allow_private);
    let verify_file = |file: &str| -> Result<AefReport, Failure> {
        let bytes = read_document(file)?;
        let mut report = aef::verify(&bytes, &fetcher, &options);
        report.subject = file_subject(file, &bytes);
        Ok(report)
    };
    if let Some(list) = &a.batch {
        let in_batch = |file: &str| verify_file(batch::file_line(file)?);
        let digest = |path: &Option<String>| path.as_deref().map(batch::file_digest).transpose();
        let configuration = json!({
            "source": digest(&a.source)?, "media_type": a.media_type, "key": digest(&a.key)?,
            "trust_key_uri": a.trust_key_uri, "level": a.level,
            "vocabulary": format!("{:?}", a.vocabulary), "now": a.common.now,
            "trust": digest(&a.common.trust)?, "allow_private": a.allow_private,
        });
        let mut settle = batch::recorder(aef::SPEC.name(), &a.common, configuration)?;
        return batch::run("aef verify", list, in_batch, &mut settle);
    }
    let file = a.file.as_deref().unwrap_or("-");
    let report = verify_file(file)?;
    crate::cmd::record::finish("aef verify", &report, &a.common, || {
        readable(display(file), &report)
    })
}

fn readable(file: &str, r: &AefReport) -> String {
    let lenient = r.details.vocabulary == aef::Vocabulary::Landing;
    let mut out = format!(
        "evidence: {file}\n{}{}\n",
        verdict_line(r),
        if lenient {
            " (lenient vocabulary: not an AEF conformance level)"
        } else {
            ""
        }
    );
    if let Some(span) = &r.details.span {
        out.push_str(&format!(
            "span ({}): {}\n  {:?}\n",
            span.media_type, span.content_hash, span.exact_text
        ));
    }
    push_incidents(&mut out, &r.verdict.incidents, |i| {
        format!("L{} {}", i.level, i.incident)
    });
    out
}

fn signing_key(path: &str) -> Result<SigningKey, Failure> {
    load_signing_key(&read_limited(path, 1024 * 1024)?)
        .map_err(|e| Failure::Usage(format!("cannot use the private key in {path}: {e}")))
}

/// An evidence object as written: bare, or in the `--json` envelope with its warnings.
fn print_evidence(command: &str, evidence: &Value, json: bool) -> Result<(), Failure> {
    if json {
        let warnings = aef::validate(evidence);
        return crate::out::json_report(command, true, &warnings, &json!({ "evidence": evidence }));
    }
    print_json(evidence)
}

fn print_json(value: &Value) -> Result<(), Failure> {
    let text = serde_json::to_string_pretty(value).map_err(|e| Failure::Usage(e.to_string()))?;
    crate::out::println(&text)
}

fn sign(a: SignArgs) -> Result<ExitCode, Failure> {
    let bytes = read_document(&a.file)?;
    let value = parse_strict(&bytes)
        .map_err(|e| Failure::Invalid(format!("{}: {}", display(&a.file), e.to_incident())))?;
    let errors: Vec<String> = aef::validate(&value)
        .into_iter()
        .filter(|i| i.severity == Severity::Error)
        .map(|i| i.to_string())
        .collect();
    if !errors.is_empty() {
        return Err(Failure::Invalid(format!(
            "{} is not a valid evidence object, refusing to sign:\n  {}",
            display(&a.file),
            errors.join("\n  ")
        )));
    }
    let key = signing_key(&a.key)?;
    let options = EvidenceSignOptions {
        kid: Some(a.kid),
        signed_by: a.signed_by,
        signing_key_uri: a.signing_key_uri,
    };
    let signed =
        sign_evidence(&value, &key, &options).map_err(|e| Failure::Invalid(e.to_string()))?;
    print_evidence("aef sign", &signed, a.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The source bytes and media type, from a file or a fetch (status 200, no content coding).
fn load_source(a: &NewArgs) -> Result<(Vec<u8>, String, String), Failure> {
    if is_url(&a.source) {
        let resp = fetcher(a.allow_private).fetch(&a.source).map_err(|e| {
            Failure::Invalid(format!("cannot fetch {}: {e} [{}]", a.source, e.code()))
        })?;
        if resp.status != 200 {
            return Err(Failure::Invalid(format!(
                "{} answered with status {}, not 200",
                a.source, resp.status
            )));
        }
        if resp
            .header_values("content-encoding")
            .any(|v| !v.trim().is_empty() && !v.trim().eq_ignore_ascii_case("identity"))
        {
            return Err(Failure::Invalid(format!(
                "{} was served with a content coding",
                a.source
            )));
        }
        let media = a.media_type.clone().unwrap_or_else(|| {
            resp.content_type_essence()
                .unwrap_or_else(|| citeproof_span::media::OCTET_STREAM.to_owned())
        });
        Ok((
            Vec::from(resp.body),
            media,
            a.uri.clone().unwrap_or_else(|| a.source.clone()),
        ))
    } else {
        let body = read_limited(&a.source, MAX_SOURCE_BYTES)?;
        let media = a
            .media_type
            .clone()
            .unwrap_or_else(|| media_type_of(&a.source).to_owned());
        let uri = match &a.uri {
            Some(u) => u.clone(),
            None => {
                let abs = std::fs::canonicalize(&a.source)
                    .map_err(|e| Failure::Usage(format!("{}: {e}", a.source)))?;
                let url = format!("file://{}", abs.display());
                eprintln!(
                    "citeproof: note: source.uri is {url}; pass --uri with the source's web URL so that verifiers can fetch it"
                );
                url
            }
        };
        Ok((body, media, uri))
    }
}

fn new(a: NewArgs) -> Result<ExitCode, Failure> {
    let (selector_type, selector_value) = match a.selector.split_once('=') {
        Some((t, v)) => (
            enum_arg::<SelectorType>("selector type", t)?,
            Some(v.to_owned()),
        ),
        None => (
            enum_arg::<SelectorType>("selector type", &a.selector)?,
            None,
        ),
    };
    if !selector_type.is_spec_vocabulary() {
        return Err(Failure::Usage(format!(
            "selector type `{}` is a landing-page value, not an AEF v0.1 selector type (profile AEF-VOC-001)",
            a.selector.split('=').next().unwrap_or_default()
        )));
    }
    let (body, media_type, uri) = load_source(&a)?;
    let fetched_at = match &a.fetched_at {
        Some(t) => t.clone(),
        None => Timestamp::from_unix(super::now())
            .map_err(Failure::Usage)?
            .as_str()
            .to_owned(),
    };
    let id = a.id.clone().unwrap_or_else(|| {
        let seed = format!(
            "{}\n{}\n{}\n{}\n{}",
            a.claim,
            uri,
            a.selector,
            fetched_at,
            a.quote.as_deref().unwrap_or("")
        );
        let digest = sha256_bytes(seed.as_bytes()).to_string();
        format!("ev-{}", &digest[7..23])
    });
    let mut input = NewEvidence::new(
        id,
        a.claim.clone(),
        uri,
        fetched_at,
        selector_type,
        selector_value,
    );
    input.source_type = enum_arg::<SourceType>("source type", &a.source_type)?;
    input.synthesis_role = enum_arg::<SynthesisRole>("synthesis role", &a.role)?;
    input.retrieval_method = enum_arg::<RetrievalMethod>("retrieval method", &a.method)?;
    input.quote = a.quote.clone();
    input.surrounding_context = a.context.clone();
    input.title = a.title.clone();
    input.publisher = a.publisher.clone();
    input.signed_by = a.signed_by.clone();
    input.signing_key_uri = a.signing_key_uri.clone();
    let doc = build_evidence(&input, &media_type, &body)
        .map_err(|e| Failure::Invalid(format!("{e} [{}]", e.code())))?;
    let doc = match (&a.key, &a.kid) {
        (Some(key), Some(kid)) => {
            let options = EvidenceSignOptions {
                kid: Some(kid.clone()),
                ..EvidenceSignOptions::default()
            };
            sign_evidence(&doc, &signing_key(key)?, &options)
                .map_err(|e| Failure::Invalid(e.to_string()))?
        }
        _ => doc,
    };
    print_evidence("aef new", &doc, a.json)?;
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listed_values_are_the_model_vocabulary() {
        for v in SOURCE_TYPES {
            assert!(enum_arg::<SourceType>("t", v).is_ok(), "{v}");
        }
        for v in SYNTHESIS_ROLES {
            assert!(enum_arg::<SynthesisRole>("r", v).is_ok(), "{v}");
        }
        for v in RETRIEVAL_METHODS {
            assert!(enum_arg::<RetrievalMethod>("m", v).is_ok(), "{v}");
        }
    }
}
