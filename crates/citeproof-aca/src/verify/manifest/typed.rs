//! The fast path of a manifest: read straight from the strict reader's tokens into the checked
//! manifest, without a `Value` tree, a map per object or a copy of any string the checks only
//! look at (strings borrow from the input unless they hold an escape).
//!
//! It is the path of valid documents only. Every member is checked where it is read with the
//! predicates of the `Value` walk ([`super::check_manifest`]), and at the first member that walk
//! would report (a wrong type, a missing or unknown member, an invalid id, URL, timestamp, hash
//! or offset, a chain step out of order, a reference that does not resolve, an inputs hash that
//! does not match) the typed reading gives up and the document is read again into a `Value` and
//! walked, so every incident keeps its code, message and pointer. The rules across claims and
//! steps ([`super::check_across`]) are the same code on both paths. A test holds the two paths
//! equal on every manifest of the vectors and on mutations of them.

use std::borrow::Cow;
use std::collections::HashSet;

use citeproof_model::ids::{is_claim_id, is_run_id};
use citeproof_model::json::{Event, MAX_DOCUMENT_BYTES, Mode, Reader, Token, parse_strict};
use citeproof_model::{ContentHash, Timestamp, jcs::canonicalize, sha256_bytes};

use super::{
    Chain, CheckedClaim, CheckedManifest, CheckedSource, CheckedStep, ManifestFindings,
    check_across,
};
use crate::verify::jsonpath::{Ctx, child, index};
use crate::verify::url::web_url_problem;

/// `None`: the typed reading gave up (the document is not a valid manifest, or not JSON).
type Fast<T> = Option<T>;

/// Reads and checks a manifest without a tree: the findings and whether the bytes are their own
/// JCS form, or `None` when the document has anything to report but the rules across claims
/// and steps.
pub(super) fn read(bytes: &[u8], url: Option<&str>) -> Fast<(ManifestFindings, bool)> {
    let reader = Reader::new(bytes, Mode::Strict, MAX_DOCUMENT_BYTES)
        .ok()?
        .with_jcs_form();
    let mut t = Tokens { reader };
    let mut urls = Urls::default();
    let mut m = CheckedManifest::default();
    let (mut agent_id, mut claims, mut chain) = (false, None, None);
    t.begin(Event::BeginObject)?;
    while let Some(name) = t.name()? {
        match &*name {
            "run_id" => {
                m.run_id = Some(t.string()?)
                    .filter(|s| is_run_id(s))
                    .map(Cow::into_owned)
            }
            "agent_id" => agent_id = !t.string()?.is_empty(),
            "emitted_at" => m.emitted_at = Some(timestamp(&t.string()?)?),
            "response_url" => {
                m.has_response_url_member = true;
                m.response_url = Some(urls.web(t.string()?)?.into_owned());
            }
            "claims" => claims = Some(read_claims(&mut t, &mut urls)?),
            "chain" => chain = Some(read_chain(&mut t, &mut urls)?),
            other if other.starts_with("x-") => t.skip()?,
            _ => return None,
        }
    }
    t.end()?;
    if m.run_id.is_none() || !agent_id || m.emitted_at.is_none() {
        return None;
    }
    m.claims = claims?;
    m.has_chain_member = chain.is_some();
    let canonical = t.reader.is_jcs_form();
    let chain = match chain {
        None => Chain::Absent,
        Some(steps) if steps.steps.is_empty() => Chain::Empty,
        Some(steps) => Chain::Steps(steps.checked(bytes, canonical)?),
    };
    let ctx = Ctx {
        url: url.map(str::to_owned),
    };
    let mut f = ManifestFindings {
        manifest: m,
        ..ManifestFindings::default()
    };
    check_across(&ctx, &mut f, chain);
    Some((f, canonical))
}

/// The tokens of one document, each expected where the typed reading is.
struct Tokens<'a> {
    reader: Reader<'a>,
}

impl<'a> Tokens<'a> {
    fn next(&mut self) -> Fast<Token<'a>> {
        self.reader.next_token().ok().flatten()
    }

    fn event(&mut self) -> Fast<Event<'a>> {
        self.next().map(|t| t.event)
    }

    fn begin(&mut self, open: Event<'static>) -> Fast<()> {
        (self.event()? == open).then_some(())
    }

    /// The next member's name; `Some(None)` at the end of the object.
    fn name(&mut self) -> Fast<Option<Cow<'a, str>>> {
        match self.event()? {
            Event::Name(name) => Some(Some(name)),
            Event::EndObject => Some(None),
            _ => None,
        }
    }

    fn string(&mut self) -> Fast<Cow<'a, str>> {
        match self.event()? {
            Event::String(s) => Some(s),
            _ => None,
        }
    }

    /// A JSON-003 integer (as `profile_integer` reads one).
    fn integer(&mut self) -> Fast<u64> {
        match self.event()? {
            Event::Number(n) => n.as_u64().filter(|n| *n < 1 << 53),
            _ => None,
        }
    }

    /// An array, each element read by `element` from its first token.
    fn array<T>(
        &mut self,
        mut element: impl FnMut(&mut Self, Event<'a>) -> Fast<T>,
    ) -> Fast<Vec<T>> {
        self.begin(Event::BeginArray)?;
        let mut items = Vec::new();
        loop {
            match self.event()? {
                Event::EndArray => return Some(items),
                first => items.push(element(self, first)?),
            }
        }
    }

    /// Skips one value of any shape.
    fn skip(&mut self) -> Fast<()> {
        let first = self.next()?;
        self.skip_from(first).map(|_| ())
    }

    /// Skips the rest of the value that begins with `first`; returns where it ends.
    fn skip_from(&mut self, first: Token<'a>) -> Fast<usize> {
        let mut depth = 0usize;
        let mut token = first;
        loop {
            match token.event {
                Event::BeginArray | Event::BeginObject => depth += 1,
                Event::EndArray | Event::EndObject => depth = depth.checked_sub(1)?,
                _ => {}
            }
            if depth == 0 {
                return Some(token.offset + token.raw.len());
            }
            token = self.next()?;
        }
    }

    /// An object, skipped: the byte range it is written in.
    fn object_span(&mut self) -> Fast<(usize, usize)> {
        let first = self.next()?;
        let start = first.offset;
        if first.event != Event::BeginObject {
            return None;
        }
        Some((start, self.skip_from(first)?))
    }

    /// After the document's value: nothing but whitespace.
    fn end(&mut self) -> Fast<()> {
        self.reader.next_token().ok()?.is_none().then_some(())
    }
}

/// A profile timestamp (what `members::timestamp` accepts).
fn timestamp(s: &str) -> Fast<Timestamp> {
    Timestamp::parse(s)
        .ok()
        .filter(|t| t.profile_violation().is_none())
}

/// A content hash (what `members::content_hash` accepts).
fn content_hash(s: &str) -> Fast<ContentHash> {
    s.parse().ok()
}

/// The web URLs seen valid so far: each distinct URL is parsed once.
#[derive(Default)]
struct Urls<'a> {
    valid: HashSet<Cow<'a, str>>,
}

impl<'a> Urls<'a> {
    fn web(&mut self, u: Cow<'a, str>) -> Fast<Cow<'a, str>> {
        if !self.valid.contains(&u) {
            if web_url_problem(&u).is_some() {
                return None;
            }
            self.valid.insert(u.clone());
        }
        Some(u)
    }
}

fn read_claims<'a>(t: &mut Tokens<'a>, urls: &mut Urls<'a>) -> Fast<Vec<CheckedClaim>> {
    let mut i = 0;
    let claims = t.array(|t, first| {
        let claim = read_claim(t, first, i, urls);
        i += 1;
        claim
    })?;
    (!claims.is_empty()).then_some(claims)
}

fn read_claim<'a>(
    t: &mut Tokens<'a>,
    first: Event<'a>,
    i: usize,
    urls: &mut Urls<'a>,
) -> Fast<CheckedClaim> {
    if first != Event::BeginObject {
        return None;
    }
    let base = index("/claims", i);
    let (mut claim_id, mut text, mut sources) = (None, None, None);
    while let Some(name) = t.name()? {
        match &*name {
            "claim_id" => claim_id = Some(t.string()?).filter(|s| is_claim_id(s)),
            "text" => text = Some(t.string()?).filter(|s| !s.is_empty()),
            "confidence" => {
                t.string()
                    .filter(|c| matches!(&**c, "high" | "medium" | "low"))?;
            }
            "sources" => {
                let at = child(&base, "sources");
                let mut j = 0;
                let read = t.array(|t, first| {
                    let source = read_source(t, first, index(&at, j), urls);
                    j += 1;
                    source
                })?;
                sources = Some(read).filter(|s| !s.is_empty());
            }
            other if other.starts_with("x-") => t.skip()?,
            _ => return None,
        }
    }
    Some(CheckedClaim {
        pointer: base,
        claim_id: Some(claim_id?.into_owned()),
        text: Some(text?.into_owned()),
        sources: sources?,
    })
}

fn read_source<'a>(
    t: &mut Tokens<'a>,
    first: Event<'a>,
    pointer: String,
    urls: &mut Urls<'a>,
) -> Fast<CheckedSource> {
    if first != Event::BeginObject {
        return None;
    }
    let mut s = CheckedSource {
        pointer,
        ..CheckedSource::default()
    };
    while let Some(name) = t.name()? {
        match &*name {
            "url" => s.url = Some(urls.web(t.string()?)?.into_owned()),
            "retrieved_at" => s.retrieved_at = Some(timestamp(&t.string()?)?),
            "hash" => s.hash = Some(content_hash(&t.string()?)?),
            "excerpt_hash" => s.excerpt_hash = Some(content_hash(&t.string()?)?),
            "excerpt_offset" => {
                t.begin(Event::BeginArray)?;
                let (start, end) = (t.integer()?, t.integer()?);
                t.begin(Event::EndArray)?;
                s.excerpt_offset = Some((start, end)).filter(|_| start < end);
            }
            other if other.starts_with("x-") => t.skip()?,
            _ => return None,
        }
    }
    (s.url.is_some() && s.retrieved_at.is_some() && s.hash.is_some() && s.excerpt_offset.is_some())
        .then_some(s)
}

/// The steps of a chain as read, before the inputs hashes are checked.
struct Steps {
    steps: Vec<CheckedStep>,
    /// Each step's `inputs` (where it is written) and its `inputs_hash`, when it has both.
    hashed: Vec<((usize, usize), ContentHash)>,
}

impl Steps {
    /// The checked steps, when every recorded inputs hash is the JCS hash of its inputs. In a
    /// document that is its own JCS form, the bytes of `inputs` are that form already.
    fn checked(self, bytes: &[u8], canonical: bool) -> Fast<Vec<CheckedStep>> {
        for ((start, end), recorded) in &self.hashed {
            let written = bytes.get(*start..*end)?;
            let actual = if canonical {
                sha256_bytes(written)
            } else {
                sha256_bytes(&canonicalize(&parse_strict(written).ok()?))
            };
            if actual != *recorded {
                return None;
            }
        }
        Some(self.steps)
    }
}

/// The chain (ACA-L3-001 to -005), the checks of `check_chain` on each step as it is read: every
/// reference must name the `outputs_ref` of an earlier step, so the earlier steps' references
/// are all a step needs.
fn read_chain<'a>(t: &mut Tokens<'a>, urls: &mut Urls<'a>) -> Fast<Steps> {
    t.begin(Event::BeginArray)?;
    // Keyed SipHash, as in `check_chain`: the signer picks the references.
    let mut outputs: HashSet<Cow<'a, str>> = HashSet::new();
    let mut steps = Steps {
        steps: Vec::new(),
        hashed: Vec::new(),
    };
    let mut refs: Vec<Cow<'a, str>> = Vec::new();
    loop {
        match t.event()? {
            Event::EndArray => return Some(steps),
            Event::BeginObject => {}
            _ => return None,
        }
        let n = steps.steps.len() + 1;
        let (mut step, mut tool, mut output, mut sources) = (None, None, None, Vec::new());
        let (mut inputs, mut inputs_hash, mut has_refs) = (None, None, false);
        refs.clear();
        while let Some(name) = t.name()? {
            match &*name {
                "step" => step = Some(t.integer()?),
                "tool" => tool = Some(t.string()?),
                "outputs_ref" => output = Some(t.string()?),
                "sources" => {
                    sources = t.array(|_, first| match first {
                        Event::String(u) => Some(urls.web(u)?.into_owned()),
                        _ => None,
                    })?;
                }
                "inputs" => inputs = Some(t.object_span()?),
                "inputs_hash" => inputs_hash = Some(content_hash(&t.string()?)?),
                "inputs_ref" => {
                    has_refs = true;
                    read_refs(t, &mut refs)?;
                }
                other if other.starts_with("x-") => t.skip()?,
                _ => return None,
            }
        }
        tool.filter(|s| !s.is_empty() && s.chars().count() <= 256)?;
        let output = output.filter(|s| !s.is_empty() && s.chars().count() <= 2048)?;
        if step != Some(n as u64) || (inputs.is_none() && inputs_hash.is_none() && !has_refs) {
            return None;
        }
        if !refs.iter().all(|r| outputs.contains(r)) {
            return None;
        }
        let outputs_ref = Some(String::from(&*output));
        // A repeated `outputs_ref`: the insertion says so, one lookup for both.
        if !outputs.insert(output) {
            return None;
        }
        if let (Some(span), Some(recorded)) = (inputs, inputs_hash) {
            steps.hashed.push((span, recorded));
        }
        steps.steps.push(CheckedStep {
            step: n,
            outputs_ref,
            sources,
        });
    }
}

/// `inputs_ref`: a non-empty string, or a non-empty array of distinct non-empty strings.
fn read_refs<'a>(t: &mut Tokens<'a>, refs: &mut Vec<Cow<'a, str>>) -> Fast<()> {
    match t.event()? {
        Event::String(s) if !s.is_empty() => refs.push(s),
        Event::BeginArray => loop {
            match t.event()? {
                Event::EndArray if !refs.is_empty() => break,
                Event::String(s) if !s.is_empty() => refs.push(s),
                _ => return None,
            }
        },
        _ => return None,
    }
    let distinct = if refs.len() <= 8 {
        refs.iter()
            .enumerate()
            .all(|(k, r)| !refs.get(..k).unwrap_or_default().contains(r))
    } else {
        let mut seen = HashSet::with_capacity(refs.len());
        refs.iter().all(|r| seen.insert(r))
    };
    distinct.then_some(())
}
