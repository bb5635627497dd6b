//! Reports a person reads, from a recorded (or just verified) report: one self-contained HTML
//! page, Markdown, CSV and JSON. The page is built by minijinja with HTML autoescaping from a
//! view model decided here, so that every word a person reads agrees with the verdict:
//!
//! - the banner's words come from the outcome alone (VERIFIED / NOT VERIFIED / COULD NOT CHECK);
//! - an item is called passing only when it is verified *and* no failed code concerns it; a
//!   spec word that says "verified" or "valid" on an item that failed is replaced;
//! - a URL becomes a link only when it is `http:` or `https:`; the page has no script and no
//!   external asset.

use minijinja::{Environment, context};
use serde::Serialize;
use serde_json::Value;

use crate::{AuditError, Record};

/// An export format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Html,
    Markdown,
    Csv,
    Json,
}

impl Format {
    pub fn parse(text: &str) -> Option<Format> {
        match text {
            "html" => Some(Format::Html),
            "markdown" | "md" => Some(Format::Markdown),
            "csv" => Some(Format::Csv),
            "json" => Some(Format::Json),
            _ => None,
        }
    }
}

/// Where the report comes from: a stored row (id and chain hash) or a verification just run.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Provenance {
    pub id: Option<i64>,
    pub row_hash: Option<String>,
    pub prev_hash: Option<String>,
}

#[derive(Debug, Serialize)]
struct Banner {
    word: &'static str,
    class: &'static str,
    sentence: String,
}

#[derive(Debug, Serialize)]
struct Check {
    level: u64,
    code: String,
    severity: String,
    words: String,
}

#[derive(Debug, Serialize)]
struct SourceRow {
    url: String,
    href: Option<String>,
    locator: Option<String>,
    declared_hash: Option<String>,
    computed_hash: Option<String>,
    excerpt: Option<String>,
    ok: bool,
    failed: Vec<String>,
}

#[derive(Debug, Serialize)]
struct ItemRow {
    kind: String,
    id: String,
    text: Option<String>,
    ok: bool,
    /// The status a person reads.
    status: String,
    /// The badge word (seed 004's chain badges, the spec's word, or ours).
    badge: String,
    badge_class: &'static str,
    failed: Vec<Check>,
    sources: Vec<SourceRow>,
    children: Vec<ItemRow>,
}

#[derive(Debug, Default, Serialize)]
struct TrustView {
    signers: Vec<(String, Vec<String>)>,
    key_locations: Vec<String>,
    origins: Vec<String>,
}

/// The scheme-checked link of a URL from the document.
fn safe_href(text: &str) -> Option<String> {
    let parsed = url::Url::parse(text.trim()).ok()?;
    matches!(parsed.scheme(), "http" | "https").then(|| parsed.to_string())
}

const PASSING_WORDS: [&str; 5] = ["verified", "valid", "supported", "ok", "passed"];

fn str_field(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn codes(v: &Value) -> Vec<String> {
    strings(v, "failed")
}

/// The strings of the array member `key` (none when it is absent or not an array).
fn strings(v: &Value, key: &str) -> Vec<String> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect()
        })
        .unwrap_or_default()
}

/// The words of a failed code: the message of the first incident with that code, else the code
/// made readable.
fn words_of(code: &str, incidents: &[Check]) -> String {
    incidents
        .iter()
        .find(|i| i.code == code)
        .map(|i| i.words.clone())
        .unwrap_or_else(|| code.replace('-', " "))
}

fn item_row(v: &Value, incidents: &[Check], depth: usize) -> ItemRow {
    let failed_codes = codes(v);
    let ok = v.get("verified").and_then(Value::as_bool) == Some(true) && failed_codes.is_empty();
    let spec_word = str_field(v, "verdict");
    let (badge, badge_class) = match spec_word.as_deref() {
        Some(w) if !ok && PASSING_WORDS.contains(&w.to_ascii_lowercase().as_str()) => {
            ("NOT VERIFIED".to_owned(), "bad")
        }
        Some(w) => {
            let class = match w {
                "verified" | "valid" | "supported" if ok => "good",
                "stale" | "unverified" | "partially-signed" => "warn",
                _ if ok => "good",
                _ => "bad",
            };
            (w.to_uppercase().replace('-', " "), class)
        }
        None if ok => ("VERIFIED".to_owned(), "good"),
        None => ("NOT VERIFIED".to_owned(), "bad"),
    };
    let sources = v
        .get("sources")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .map(|s| {
                    let url = str_field(s, "url").unwrap_or_default();
                    let failed = codes(s);
                    SourceRow {
                        href: safe_href(&url),
                        url,
                        locator: str_field(s, "locator"),
                        declared_hash: str_field(s, "declared_hash"),
                        computed_hash: str_field(s, "computed_hash"),
                        excerpt: str_field(s, "excerpt"),
                        ok: s.get("verified").and_then(Value::as_bool) == Some(true)
                            && failed.is_empty(),
                        failed,
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    // Nesting is bounded by the report's own limits; this bound only keeps a hostile stored
    // value from exhausting the stack.
    let children = if depth < 32 {
        v.get("items")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|c| item_row(c, incidents, depth + 1))
                    .collect()
            })
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    ItemRow {
        kind: str_field(v, "kind").unwrap_or_default(),
        id: str_field(v, "id").unwrap_or_default(),
        text: str_field(v, "text"),
        ok,
        status: if ok {
            "no failed check".into()
        } else {
            "FAILED".into()
        },
        badge,
        badge_class,
        failed: failed_codes
            .iter()
            .map(|c| Check {
                level: 0,
                code: c.clone(),
                severity: "error".into(),
                words: words_of(c, incidents),
            })
            .collect(),
        sources,
        children,
    }
}

fn trust_view(v: Option<&Value>) -> TrustView {
    let Some(t) = v else {
        return TrustView::default();
    };
    let strings = |key: &str| strings(t, key);
    let mut signers = Vec::new();
    if let Some(map) = t.get("signers").and_then(Value::as_object) {
        for (signer, keys) in map {
            let mut lines = Vec::new();
            for s in keys
                .get("secrets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                if let Some(name) = s.as_str() {
                    lines.push(format!(
                        "HMAC secret `{name}` (configured by you: the trust file or a key option)"
                    ));
                }
            }
            for k in keys
                .get("keys")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = k.get(0).and_then(Value::as_str).unwrap_or("?");
                let thumb = k.get(1).and_then(Value::as_str).unwrap_or("?");
                lines.push(format!(
                    "Ed25519 key `{name}`, thumbprint {thumb} (configured by you: the trust file or a key option)"
                ));
            }
            if let Some(code) = keys.get("broken").and_then(Value::as_str) {
                lines.push(format!("key set did not load: {code}"));
            }
            signers.push((signer.clone(), lines));
        }
    }
    TrustView {
        signers,
        key_locations: strings("key_locations"),
        origins: strings("origins"),
    }
}

fn banner(record: &Record) -> Banner {
    let (word, class) = match record.outcome.as_str() {
        "verified" if record.verified => ("VERIFIED", "good"),
        "could-not-check" => ("COULD NOT CHECK", "warn"),
        _ => ("NOT VERIFIED", "bad"),
    };
    let sentence = match word {
        "VERIFIED" => format!(
            "Level {} reached; level {} was required. Every required check passed.",
            record.level, record.required_level
        ),
        "COULD NOT CHECK" => format!(
            "The checks that decide level {} could not run (network, timeout or snapshot). This is not a pass.",
            record.level + 1
        ),
        _ => format!(
            "Level {} reached; level {} was required. The checks below failed.",
            record.level, record.required_level
        ),
    };
    Banner {
        word,
        class,
        sentence,
    }
}

fn time_text(t: i64) -> String {
    citeproof_model::Timestamp::from_unix(t)
        .map(|x| x.as_str().to_owned())
        .unwrap_or_else(|_| t.to_string())
}

/// Every claim-like item (one with a text or sources), depth first: the rows of the claims table.
fn claim_rows<'a>(items: &'a [ItemRow], out: &mut Vec<&'a ItemRow>) {
    for i in items {
        if i.text.is_some() || !i.sources.is_empty() {
            out.push(i);
        }
        claim_rows(&i.children, out);
    }
}

fn environment() -> Result<Environment<'static>, AuditError> {
    let mut env = Environment::new();
    env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
    env.add_filter("md", markdown_escape);
    env.add_template("report.html", include_str!("../templates/report.html"))
        .map_err(template_error)?;
    env.add_template("report.md", include_str!("../templates/report.md"))
        .map_err(template_error)?;
    Ok(env)
}

fn template_error(e: minijinja::Error) -> AuditError {
    AuditError::Record(format!("report template: {e}"))
}

/// Markdown text from the document: no markup, no HTML, one line.
fn markdown_escape(text: String) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' | '\r' => out.push(' '),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '#' | '!' | '(' | ')' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Renders `record` in `format`.
pub fn render(record: &Record, from: &Provenance, format: Format) -> Result<String, AuditError> {
    let checks: Vec<Check> = record
        .incidents
        .iter()
        .map(|i| Check {
            level: u64::from(i.level),
            code: i.code.clone(),
            severity: i.severity.clone(),
            words: i.message.clone(),
        })
        .collect();
    let items: Vec<ItemRow> = record
        .report
        .get("items")
        .and_then(Value::as_array)
        .map(|a| a.iter().map(|v| item_row(v, &checks, 0)).collect())
        .unwrap_or_default();
    match format {
        Format::Json => json(record, from),
        Format::Csv => csv(record, from, &items),
        Format::Html | Format::Markdown => {
            let mut claims = Vec::new();
            claim_rows(&items, &mut claims);
            let failed: Vec<&Check> = checks.iter().filter(|c| c.severity == "error").collect();
            let ctx = context! {
                banner => banner(record),
                record => record,
                subject_href => safe_href(&record.subject),
                verified_at => time_text(record.verified_at),
                recorded_at => time_text(record.recorded_at),
                from => from,
                failed => failed,
                incidents => checks,
                claims => claims,
                items => items,
                trust => trust_view(record.report.get("trust")),
            };
            let name = if format == Format::Html {
                "report.html"
            } else {
                "report.md"
            };
            environment()?
                .get_template(name)
                .and_then(|t| t.render(ctx))
                .map_err(template_error)
        }
    }
}

fn json(record: &Record, from: &Provenance) -> Result<String, AuditError> {
    let mut obj = serde_json::Map::new();
    obj.insert("command".into(), Value::String("audit show".into()));
    obj.insert("ok".into(), Value::Bool(record.verified));
    obj.insert(
        "incidents".into(),
        record
            .report
            .get("incidents")
            .cloned()
            .unwrap_or(Value::Array(Vec::new())),
    );
    if let Value::Object(members) = &record.report {
        for (k, v) in members {
            obj.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    obj.insert(
        "record".into(),
        serde_json::json!({
            "id": from.id,
            "row_hash": from.row_hash,
            "prev_hash": from.prev_hash,
            "verified_at": record.verified_at,
            "recorded_at": record.recorded_at,
        }),
    );
    serde_json::to_string_pretty(&Value::Object(obj)).map_err(|e| AuditError::Record(e.to_string()))
}

/// A cell from the document that a spreadsheet would run as a formula is quoted (OWASP CSV
/// injection).
fn cell(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

fn csv(record: &Record, from: &Provenance, items: &[ItemRow]) -> Result<String, AuditError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let err = |e: csv::Error| AuditError::Record(e.to_string());
    w.write_record([
        "record",
        "spec",
        "subject",
        "outcome",
        "item_path",
        "kind",
        "item_id",
        "text",
        "status",
        "failed",
        "source_url",
        "locator",
        "declared_hash",
        "computed_hash",
        "excerpt",
    ])
    .map_err(err)?;
    let mut rows = Vec::new();
    flatten(items, "", &mut rows);
    let id = from.id.map(|i| i.to_string()).unwrap_or_default();
    for (path, item) in rows {
        let head = [
            id.clone(),
            cell(&record.spec),
            cell(&record.subject),
            record.outcome.clone(),
            cell(&path),
            cell(&item.kind),
            cell(&item.id),
            cell(item.text.as_deref().unwrap_or("")),
            item.status.clone(),
            item.failed
                .iter()
                .map(|c| c.code.as_str())
                .collect::<Vec<_>>()
                .join(" "),
        ];
        let empty = SourceRow {
            url: String::new(),
            href: None,
            locator: None,
            declared_hash: None,
            computed_hash: None,
            excerpt: None,
            ok: true,
            failed: Vec::new(),
        };
        let sources: Vec<&SourceRow> = if item.sources.is_empty() {
            vec![&empty]
        } else {
            item.sources.iter().collect()
        };
        for s in sources {
            let mut row: Vec<String> = head.to_vec();
            row.extend([
                cell(&s.url),
                cell(s.locator.as_deref().unwrap_or("")),
                cell(s.declared_hash.as_deref().unwrap_or("")),
                cell(s.computed_hash.as_deref().unwrap_or("")),
                cell(s.excerpt.as_deref().unwrap_or("")),
            ]);
            w.write_record(&row).map_err(err)?;
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| AuditError::Record(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| AuditError::Record(e.to_string()))
}

fn flatten<'a>(items: &'a [ItemRow], prefix: &str, out: &mut Vec<(String, &'a ItemRow)>) {
    for i in items {
        let path = if prefix.is_empty() {
            i.id.clone()
        } else {
            format!("{prefix}/{}", i.id)
        };
        out.push((path.clone(), i));
        flatten(&i.children, &path, out);
    }
}

/// Finds an item by id anywhere in a report's items (`audit show --claim ID`).
pub fn find_item<'a>(report: &'a Value, id: &str) -> Option<&'a Value> {
    fn walk<'a>(items: &'a Value, id: &str, depth: usize) -> Option<&'a Value> {
        for item in items.as_array()? {
            if item.get("id").and_then(Value::as_str) == Some(id) {
                return Some(item);
            }
            if depth < 64
                && let Some(found) = item.get("items").and_then(|c| walk(c, id, depth + 1))
            {
                return Some(found);
            }
        }
        None
    }
    walk(report.get("items")?, id, 0)
}
