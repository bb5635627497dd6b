//! Component identifiers and component values (RFC 9421 §2.1, §2.2, §2.4).

use std::fmt;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use sfv::{BareItem, ItemSerializer, KeyRef, ListEntry, StringRef, Version};

use crate::error::{HttpSigError, Result};
use crate::message::{Fields, Message, Request, is_token, trim_ows};
use crate::sf::{self, SfType};

/// A parameter of a component identifier (RFC 9421 §2.1, §2.2.8, §2.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ComponentParam {
    /// `sf`: re-serialize the field as a structured field (§2.1.1).
    Sf,
    /// `key="..."`: one member of a dictionary field (§2.1.2).
    Key(String),
    /// `bs`: wrap each field line as a byte sequence (§2.1.3).
    Bs,
    /// `req`: take the component from the related request (§2.4).
    Req,
    /// `tr`: take the field from the trailers (§2.1.4) — not supported, always an error.
    Tr,
    /// `name="..."`: the query parameter name of `@query-param` (§2.2.8).
    Name(String),
}

impl ComponentParam {
    fn key(&self) -> &'static str {
        match self {
            ComponentParam::Sf => "sf",
            ComponentParam::Key(_) => "key",
            ComponentParam::Bs => "bs",
            ComponentParam::Req => "req",
            ComponentParam::Tr => "tr",
            ComponentParam::Name(_) => "name",
        }
    }
}

/// A component identifier: a component name (a lowercase field name or a derived component name
/// such as `@method`) plus ordered parameters. Serialized as an sf-string item with parameters,
/// e.g. `"@query-param";name="Pet"`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ComponentId {
    name: String,
    params: Vec<ComponentParam>,
}

/// The derived components of RFC 9421 §2.2 (without `@signature-params`, which is never covered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Derived {
    Method,
    TargetUri,
    Authority,
    Scheme,
    RequestTarget,
    Path,
    Query,
    QueryParam,
    Status,
}

impl Derived {
    fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "@method" => Derived::Method,
            "@target-uri" => Derived::TargetUri,
            "@authority" => Derived::Authority,
            "@scheme" => Derived::Scheme,
            "@request-target" => Derived::RequestTarget,
            "@path" => Derived::Path,
            "@query" => Derived::Query,
            "@query-param" => Derived::QueryParam,
            "@status" => Derived::Status,
            _ => return None,
        })
    }
}

impl ComponentId {
    /// A component identifier without parameters. `name` is a lowercase field name (a token) or a
    /// derived component name (`@method`, `@target-uri`, `@authority`, `@scheme`,
    /// `@request-target`, `@path`, `@query`, `@query-param`, `@status`).
    pub fn new(name: &str) -> Result<Self> {
        let id = Self {
            name: name.to_owned(),
            params: Vec::new(),
        };
        id.validate()?;
        Ok(id)
    }

    /// `@query-param;name="<name>"` (RFC 9421 §2.2.8). `name` must already be in the encoded form
    /// of §2.2.8 (percent-encoded with the `application/x-www-form-urlencoded` set).
    pub fn query_param(name: &str) -> Result<Self> {
        let id = Self {
            name: "@query-param".to_owned(),
            params: vec![ComponentParam::Name(name.to_owned())],
        };
        id.validate()?;
        Ok(id)
    }

    /// Adds a parameter (kept in the order added, which is the serialization order).
    pub fn with_param(mut self, param: ComponentParam) -> Result<Self> {
        self.params.push(param);
        self.validate()?;
        Ok(self)
    }

    /// Parses either a bare component name (`content-type`, `@status`) or a serialized component
    /// identifier (`"@query-param";name="Pet"`, `"content-digest";req`).
    pub fn parse(text: &str) -> Result<Self> {
        if text.starts_with('"') {
            let item = sf::parse_item(text, Version::Rfc8941).map_err(|detail| {
                HttpSigError::InvalidComponent {
                    component: text.to_owned(),
                    detail,
                }
            })?;
            Self::from_sf_item(&item)
        } else {
            Self::new(text)
        }
    }

    /// The component name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The parameters in order.
    pub fn params(&self) -> &[ComponentParam] {
        &self.params
    }

    fn has(&self, key: &str) -> bool {
        self.params.iter().any(|p| p.key() == key)
    }

    /// Whether this identifier carries the `req` parameter.
    pub fn is_req(&self) -> bool {
        self.has("req")
    }

    /// The identifier serialized as an sf-string item with parameters (RFC 9421 §2.5 step 2.1).
    pub fn serialize(&self) -> Result<String> {
        let name = StringRef::from_str(&self.name).map_err(|e| self.invalid(e.to_string()))?;
        let mut ser = ItemSerializer::new().bare_item(name);
        for p in &self.params {
            let key = KeyRef::from_str(p.key()).map_err(|e| self.invalid(e.to_string()))?;
            ser = match p {
                ComponentParam::Key(v) | ComponentParam::Name(v) => {
                    let v = StringRef::from_str(v).map_err(|e| self.invalid(e.to_string()))?;
                    ser.parameter(key, v)
                }
                _ => ser.parameter(key, true),
            };
        }
        Ok(ser.finish())
    }

    /// Same identifier (name and parameter set, ignoring parameter order), as used for duplicate
    /// detection (§2.5) and policy matching.
    pub fn same_as(&self, other: &ComponentId) -> bool {
        self.name == other.name
            && self.params.len() == other.params.len()
            && self.params.iter().all(|p| other.params.contains(p))
    }

    fn invalid(&self, detail: impl Into<String>) -> HttpSigError {
        HttpSigError::InvalidComponent {
            component: self.to_string(),
            detail: detail.into(),
        }
    }

    /// Checks the name and the parameters against RFC 9421 §2.1/§2.2.
    pub(crate) fn validate(&self) -> Result<()> {
        // Parameter keys must not repeat.
        for (i, p) in self.params.iter().enumerate() {
            if self.params[..i].iter().any(|q| q.key() == p.key()) {
                return Err(self.invalid(format!("parameter `{}` repeated", p.key())));
            }
        }
        for p in &self.params {
            if let ComponentParam::Key(v) | ComponentParam::Name(v) = p
                && StringRef::from_str(v).is_err()
            {
                return Err(
                    self.invalid(format!("parameter `{}` is not a valid sf-string", p.key()))
                );
            }
        }
        if let Some(rest) = self.name.strip_prefix('@') {
            if rest.is_empty() {
                return Err(self.invalid("empty derived component name"));
            }
            if self.name == "@signature-params" {
                return Err(self.invalid("`@signature-params` cannot be a covered component"));
            }
            let Some(kind) = Derived::from_name(&self.name) else {
                return Err(self.invalid("unknown derived component"));
            };
            for p in &self.params {
                match p {
                    ComponentParam::Req => {}
                    ComponentParam::Name(_) if kind == Derived::QueryParam => {}
                    _ => {
                        return Err(self.invalid(format!(
                            "parameter `{}` is not allowed on {}",
                            p.key(),
                            self.name
                        )));
                    }
                }
            }
            if kind == Derived::QueryParam && !self.has("name") {
                return Err(self.invalid("`@query-param` requires the `name` parameter"));
            }
        } else {
            if !is_token(&self.name) || self.name.bytes().any(|b| b.is_ascii_uppercase()) {
                return Err(self.invalid("field names must be lowercase tokens"));
            }
            if self.has("name") {
                return Err(self.invalid("`name` is only allowed on `@query-param`"));
            }
            if self.has("bs") && (self.has("sf") || self.has("key")) {
                return Err(self.invalid("`bs` cannot be combined with `sf` or `key`"));
            }
        }
        Ok(())
    }

    /// Converts a parsed inner-list item of `Signature-Input` into an identifier.
    pub(crate) fn from_sf_item(item: &sfv::Item) -> Result<Self> {
        let text = sf::serialize_entry(&ListEntry::Item(item.clone()));
        let invalid = |detail: String| HttpSigError::InvalidComponent {
            component: text.clone(),
            detail,
        };
        let BareItem::String(name) = &item.bare_item else {
            return Err(invalid(format!(
                "component identifiers are sf-strings, not {}",
                sf::bare_item_kind(&item.bare_item)
            )));
        };
        let mut params = Vec::new();
        for (key, value) in &item.params {
            let param = match (key.as_str(), value) {
                ("sf", BareItem::Boolean(true)) => ComponentParam::Sf,
                ("bs", BareItem::Boolean(true)) => ComponentParam::Bs,
                ("req", BareItem::Boolean(true)) => ComponentParam::Req,
                ("tr", BareItem::Boolean(true)) => ComponentParam::Tr,
                ("key", BareItem::String(s)) => ComponentParam::Key(s.as_str().to_owned()),
                ("name", BareItem::String(s)) => ComponentParam::Name(s.as_str().to_owned()),
                ("sf" | "bs" | "req" | "tr", _) => {
                    return Err(invalid(format!("parameter `{key}` must be boolean true")));
                }
                ("key" | "name", _) => {
                    return Err(invalid(format!("parameter `{key}` must be a string")));
                }
                _ => return Err(invalid(format!("unknown component parameter `{key}`"))),
            };
            params.push(param);
        }
        let id = Self {
            name: name.as_str().to_owned(),
            params,
        };
        id.validate()?;
        Ok(id)
    }

    /// Derives the component value from `message` (RFC 9421 §2.1, §2.2, §2.4).
    pub(crate) fn value(&self, message: &Message) -> Result<String> {
        self.validate()?;
        if self.has("tr") {
            return Err(HttpSigError::TrailersUnsupported {
                component: self.to_string(),
            });
        }
        let req = self.is_req();
        if self.name == "@status" {
            return match (message, req) {
                (Message::Response(r), false) => {
                    if !(100..=999).contains(&r.status) {
                        return Err(
                            self.invalid(format!("status {} is not three digits", r.status))
                        );
                    }
                    Ok(format!("{:03}", r.status))
                }
                (Message::Request(_), false) => Err(HttpSigError::StatusOnRequest),
                (_, true) => Err(HttpSigError::ComponentNotApplicable {
                    component: self.to_string(),
                    detail: "`@status` cannot be taken from the related request".into(),
                }),
            };
        }
        // Select the message the component is taken from.
        let source: SourceMsg<'_> = match (message, req) {
            (Message::Request(_), true) => {
                return Err(HttpSigError::ComponentNotApplicable {
                    component: self.to_string(),
                    detail: "`req` is only meaningful on a response".into(),
                });
            }
            (Message::Request(r), false) => SourceMsg::Request(r),
            (Message::Response(r), true) => match &r.request {
                Some(request) => SourceMsg::Request(request),
                None => {
                    return Err(HttpSigError::RelatedRequestMissing {
                        component: self.to_string(),
                    });
                }
            },
            (Message::Response(r), false) => SourceMsg::Response(&r.headers),
        };
        match Derived::from_name(&self.name) {
            Some(kind) => {
                let SourceMsg::Request(request) = source else {
                    return Err(HttpSigError::ComponentNotApplicable {
                        component: self.to_string(),
                        detail: format!(
                            "{} is a request component; use `req` to take it from the related request",
                            self.name
                        ),
                    });
                };
                self.derived_value(kind, request)
            }
            None => {
                let fields = match source {
                    SourceMsg::Request(r) => &r.headers,
                    SourceMsg::Response(f) => f,
                };
                self.field_value(fields)
            }
        }
    }

    fn derived_value(&self, kind: Derived, r: &Request) -> Result<String> {
        let t = &r.target;
        Ok(match kind {
            Derived::Method => {
                if !is_token(&r.method) {
                    return Err(self.invalid(format!("method {:?} is not a token", r.method)));
                }
                r.method.clone()
            }
            Derived::TargetUri => t.to_string(),
            Derived::Authority => normalize_authority(t.scheme(), t.authority()),
            Derived::Scheme => t.scheme().to_owned(),
            Derived::RequestTarget => match &r.request_target {
                Some(rt) => {
                    if rt.is_empty() || !rt.bytes().all(|b| b.is_ascii_graphic()) {
                        return Err(self.invalid("request target is not visible ASCII"));
                    }
                    rt.clone()
                }
                None => match t.query() {
                    Some(q) => format!("{}?{q}", path_or_slash(t.path())),
                    None => path_or_slash(t.path()).to_owned(),
                },
            },
            Derived::Path => path_or_slash(t.path()).to_owned(),
            Derived::Query => format!("?{}", t.query().unwrap_or("")),
            Derived::QueryParam => {
                let wanted = self
                    .params
                    .iter()
                    .find_map(|p| match p {
                        ComponentParam::Name(n) => Some(n.as_str()),
                        _ => None,
                    })
                    .unwrap_or_default();
                let mut found: Option<String> = None;
                for (name, value) in form_urlencoded_pairs(t.query().unwrap_or("")) {
                    if name == wanted {
                        if found.is_some() {
                            return Err(HttpSigError::AmbiguousQueryParam {
                                name: wanted.to_owned(),
                            });
                        }
                        found = Some(value);
                    }
                }
                found.ok_or_else(|| HttpSigError::MissingComponent {
                    component: self.to_string(),
                })?
            }
            Derived::Status => return Err(HttpSigError::StatusOnRequest),
        })
    }

    fn field_value(&self, fields: &Fields) -> Result<String> {
        let lines: Vec<&str> = fields.get_all(&self.name).map(trim_ows).collect();
        if lines.is_empty() {
            return Err(HttpSigError::MissingComponent {
                component: self.to_string(),
            });
        }
        if self.has("bs") {
            let wrapped: Vec<String> = lines
                .iter()
                .map(|l| format!(":{}:", STANDARD.encode(l.as_bytes())))
                .collect();
            return Ok(wrapped.join(", "));
        }
        let combined = lines.join(", ");
        let invalid_sf = |detail: String| HttpSigError::InvalidStructuredField {
            field: self.to_string(),
            detail,
        };
        if let Some(key) = self.params.iter().find_map(|p| match p {
            ComponentParam::Key(k) => Some(k.as_str()),
            _ => None,
        }) {
            let dict = sf::parse_dictionary(&combined, Version::Rfc9651).map_err(invalid_sf)?;
            let entry = dict
                .get(key)
                .ok_or_else(|| HttpSigError::MissingComponent {
                    component: self.to_string(),
                })?;
            return Ok(sf::serialize_entry(entry));
        }
        if self.has("sf") {
            return match known_sf_type(&self.name) {
                Some(ty) => sf::reserialize(&combined, ty).map_err(invalid_sf),
                // Not a registered structured field: take the first of Dictionary, List, Item
                // that parses. Where a value parses as more than one of these, their strict
                // serializations coincide, so the choice does not change the component value.
                None => [SfType::Dictionary, SfType::List, SfType::Item]
                    .into_iter()
                    .find_map(|ty| sf::reserialize(&combined, ty).ok())
                    .ok_or_else(|| invalid_sf("not a valid Dictionary, List or Item".to_owned())),
            };
        }
        Ok(combined)
    }
}

impl fmt::Display for ComponentId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\"{}\"", self.name.escape_default())?;
        for p in &self.params {
            match p {
                ComponentParam::Key(v) | ComponentParam::Name(v) => {
                    write!(f, ";{}=\"{}\"", p.key(), v.escape_default())?
                }
                _ => write!(f, ";{}", p.key())?,
            }
        }
        Ok(())
    }
}

enum SourceMsg<'a> {
    Request(&'a Request),
    Response(&'a Fields),
}

fn path_or_slash(path: &str) -> &str {
    if path.is_empty() { "/" } else { path }
}

/// `@authority` (RFC 9421 §2.2.3): lowercase host, default port removed.
fn normalize_authority(scheme: &str, authority: &str) -> String {
    let lower = authority.to_ascii_lowercase();
    let default_port = match scheme {
        "https" => Some(":443"),
        "http" => Some(":80"),
        _ => None,
    };
    if let Some(port) = default_port
        && let Some(host) = lower.strip_suffix(port)
    {
        return host.to_owned();
    }
    if let Some(host) = lower.strip_suffix(':') {
        return host.to_owned();
    }
    lower
}

/// Structured types of registered structured fields (RFC 9421 §2.1.1 needs the type to be known).
fn known_sf_type(name: &str) -> Option<SfType> {
    Some(match name {
        "signature-input"
        | "signature"
        | "accept-signature"
        | "content-digest"
        | "repr-digest"
        | "want-content-digest"
        | "want-repr-digest"
        | "priority"
        | "cdn-cache-control" => SfType::Dictionary,
        "cache-status" | "proxy-status" | "client-cert-chain" | "accept-ch" => SfType::List,
        "client-cert" => SfType::Item,
        _ => return None,
    })
}

/// Parses a query with the WHATWG `application/x-www-form-urlencoded` parser and re-encodes
/// names and values as RFC 9421 §2.2.8 requires (percent-encode set of
/// `application/x-www-form-urlencoded`, spaces as `%20`).
fn form_urlencoded_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|s| !s.is_empty())
        .map(|seq| {
            let (name, value) = seq.split_once('=').unwrap_or((seq, ""));
            (reencode(name), reencode(value))
        })
        .collect()
}

fn reencode(raw: &str) -> String {
    // Decode: '+' → space, then percent-decode (invalid escapes kept literally), then UTF-8
    // decode with replacement (WHATWG "UTF-8 decode without BOM").
    let bytes = raw.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'+' {
            decoded.push(b' ');
            i += 1;
        } else if b == b'%'
            && i + 2 < bytes.len()
            && bytes[i + 1].is_ascii_hexdigit()
            && bytes[i + 2].is_ascii_hexdigit()
        {
            decoded.push(hex_val(bytes[i + 1]) * 16 + hex_val(bytes[i + 2]));
            i += 3;
        } else {
            decoded.push(b);
            i += 1;
        }
    }
    let text = String::from_utf8_lossy(&decoded);
    let mut out = String::with_capacity(text.len());
    for b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'*' | b'-' | b'.' | b'_') {
            out.push(char::from(*b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn hex_val(b: u8) -> u8 {
    match b {
        b'0'..=b'9' => b - b'0',
        b'a'..=b'f' => b - b'a' + 10,
        b'A'..=b'F' => b - b'A' + 10,
        _ => 0,
    }
}
