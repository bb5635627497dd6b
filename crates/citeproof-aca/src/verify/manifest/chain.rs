//! The chain of tool calls of a manifest (ACA-L3-001 to ACA-L3-005), in time linear in the
//! number of steps: a signed manifest of 140 000 steps is valid input.

use std::cell::LazyCell;
use std::collections::{HashMap, HashSet};
use std::ops::Deref;

use citeproof_model::{Incident, IncidentCode, jcs::canonicalize, sha256_bytes};
use serde_json::{Map, Value};

use super::{CheckedStep, has_unknown_members, unknown_members};
use crate::verify::jsonpath::{Ctx, child, content_hash, index, kind, profile_integer};
use crate::verify::url::web_url_problem;

/// Members of a chain step (ACA-L3-001).
const STEP_MEMBERS: &[&str] = &[
    "step",
    "tool",
    "inputs",
    "inputs_hash",
    "inputs_ref",
    "outputs_ref",
    "sources",
];

/// The chain's steps, checked in one pass with every reference rule O(1) (see [`Spans`]).
pub(super) fn check_chain(ctx: &Ctx, steps: &[Value], out: &mut Vec<Incident>) -> Vec<CheckedStep> {
    let spans = Spans::of(steps);
    let mut checked = Vec::with_capacity(steps.len());
    for (i, step) in steps.iter().enumerate() {
        let n = i + 1;
        // Written only when an incident needs it: a valid chain of 140 000 steps formats none.
        let base = LazyCell::new(|| index("/chain", i));
        let mut c = CheckedStep {
            step: n,
            ..CheckedStep::default()
        };
        let Some(obj) = step.as_object() else {
            out.push(ctx.at_step(
                IncidentCode::SchemaViolation,
                &base,
                n,
                format!("a chain step must be an object, found {}", kind(step)),
            ));
            checked.push(c);
            continue;
        };
        if has_unknown_members(obj, STEP_MEMBERS) {
            for mut inc in unknown_members(ctx, obj, STEP_MEMBERS, &base) {
                inc.location.step = Some(n as u64);
                out.push(inc);
            }
        }
        check_step_number(ctx, obj, &base, n, out);
        check_tool(ctx, obj, &base, n, out);
        check_outputs_ref(ctx, obj, &base, (i, &spans), &mut c, out);
        check_step_sources(ctx, obj, &base, n, &mut c, out);
        check_inputs(ctx, obj, &base, n, out);
        check_inputs_ref(ctx, obj, &base, (i, &spans), out);
        checked.push(c);
    }
    checked
}

/// First and last index of each `outputs_ref`: every rule is then O(1) per reference, so a
/// chain of n steps costs O(n), not O(n^2) (a signed 140k-step manifest is valid input). The
/// references are chosen by whoever signed the manifest: std's keyed SipHash, not an unkeyed
/// fast hash, so that colliding references cannot make the map quadratic.
struct Spans<'a>(HashMap<&'a str, (usize, usize)>);

impl<'a> Spans<'a> {
    fn of(steps: &'a [Value]) -> Spans<'a> {
        let mut span: HashMap<&str, (usize, usize)> = HashMap::with_capacity(steps.len());
        for (i, s) in steps.iter().enumerate() {
            if let Some(r) = s
                .get("outputs_ref")
                .and_then(Value::as_str)
                .filter(|r| !r.is_empty())
            {
                span.entry(r).or_insert((i, i)).1 = i;
            }
        }
        Spans(span)
    }

    fn first(&self, r: &str) -> Option<usize> {
        self.0.get(r).map(|&(first, _)| first)
    }

    fn last(&self, r: &str) -> Option<usize> {
        self.0.get(r).map(|&(_, last)| last)
    }
}

type Members = Map<String, Value>;

/// ACA-L3-002: `step` is the element's 1-based position.
fn check_step_number(
    ctx: &Ctx,
    obj: &Members,
    base: &impl Deref<Target = String>,
    n: usize,
    out: &mut Vec<Incident>,
) {
    match obj.get("step") {
        None => out.push(ctx.at_step(
            IncidentCode::SchemaViolation,
            base,
            n,
            "missing member `step`".into(),
        )),
        Some(v) => match profile_integer(v) {
            Some(k) if k == n as u64 => {}
            Some(k) => out.push(ctx.at_step(
                IncidentCode::AcaChainStepOrder,
                &child(base, "step"),
                n,
                format!(
                    "element {n} of the chain has step {k}; steps must be 1 to n in array order"
                ),
            )),
            None => out.push(ctx.at_step(
                IncidentCode::SchemaViolation,
                &child(base, "step"),
                n,
                format!("step must be an integer, found {v}"),
            )),
        },
    }
}

/// ACA-L3-003: a non-empty `tool` of at most 256 characters.
fn check_tool(
    ctx: &Ctx,
    obj: &Members,
    base: &impl Deref<Target = String>,
    n: usize,
    out: &mut Vec<Incident>,
) {
    match obj.get("tool") {
        None => out.push(ctx.at_step(
            IncidentCode::AcaChainToolMissing,
            base,
            n,
            "the step has no `tool`".into(),
        )),
        Some(Value::String(t)) if t.is_empty() => out.push(ctx.at_step(
            IncidentCode::AcaChainToolMissing,
            &child(base, "tool"),
            n,
            "the step's `tool` is empty".into(),
        )),
        Some(Value::String(t)) if t.chars().count() > 256 => out.push(ctx.at_step(
            IncidentCode::SchemaViolation,
            &child(base, "tool"),
            n,
            "tool is longer than 256 characters".into(),
        )),
        Some(Value::String(_)) => {}
        Some(v) => out.push(ctx.at_step(
            IncidentCode::SchemaViolation,
            &child(base, "tool"),
            n,
            format!("tool must be a string, found {}", kind(v)),
        )),
    }
}

/// ACA-L3-003: a non-empty `outputs_ref` no earlier step has.
fn check_outputs_ref(
    ctx: &Ctx,
    obj: &Members,
    base: &impl Deref<Target = String>,
    (i, spans): (usize, &Spans<'_>),
    c: &mut CheckedStep,
    out: &mut Vec<Incident>,
) {
    let n = i + 1;
    match obj.get("outputs_ref") {
        None => out.push(ctx.at_step(
            IncidentCode::AcaChainOutputsRefMissing,
            base,
            n,
            "the step has no `outputs_ref`".into(),
        )),
        Some(Value::String(r)) if r.is_empty() => out.push(ctx.at_step(
            IncidentCode::AcaChainOutputsRefMissing,
            &child(base, "outputs_ref"),
            n,
            "the step's `outputs_ref` is empty".into(),
        )),
        Some(Value::String(r)) if r.chars().count() > 2048 => out.push(ctx.at_step(
            IncidentCode::SchemaViolation,
            &child(base, "outputs_ref"),
            n,
            "outputs_ref is longer than 2048 characters".into(),
        )),
        Some(Value::String(r)) => {
            if spans.first(r).is_some_and(|j| j < i) {
                out.push(ctx.at_step(
                    IncidentCode::AcaChainOutputsRefDuplicate,
                    &child(base, "outputs_ref"),
                    n,
                    format!("outputs_ref `{r}` is also the outputs_ref of an earlier step"),
                ));
            }
            c.outputs_ref = Some(r.clone());
        }
        Some(v) => out.push(ctx.at_step(
            IncidentCode::SchemaViolation,
            &child(base, "outputs_ref"),
            n,
            format!("outputs_ref must be a string, found {}", kind(v)),
        )),
    }
}

/// ACA-L3-003: `sources`, when present, are web URLs.
fn check_step_sources(
    ctx: &Ctx,
    obj: &Members,
    base: &impl Deref<Target = String>,
    n: usize,
    c: &mut CheckedStep,
    out: &mut Vec<Incident>,
) {
    match obj.get("sources") {
        None => {}
        Some(Value::Array(urls)) => {
            for (j, u) in urls.iter().enumerate() {
                let p = LazyCell::new(|| index(&child(base, "sources"), j));
                match u {
                    Value::String(s) => match web_url_problem(s) {
                        None => c.sources.push(s.clone()),
                        Some(problem) => out.push(ctx.at_step(
                            IncidentCode::AcaUrlInvalid,
                            &p,
                            n,
                            format!("chain source `{s}` is not a web URL: {problem}"),
                        )),
                    },
                    v => out.push(ctx.at_step(
                        IncidentCode::SchemaViolation,
                        &p,
                        n,
                        format!("a chain source must be a URL string, found {}", kind(v)),
                    )),
                }
            }
        }
        Some(v) => out.push(ctx.at_step(
            IncidentCode::SchemaViolation,
            &child(base, "sources"),
            n,
            format!("sources must be an array of URLs, found {}", kind(v)),
        )),
    }
}

/// ACA-L3-005: `inputs` hash to `inputs_hash`; a step has inputs of some form.
fn check_inputs(
    ctx: &Ctx,
    obj: &Members,
    base: &impl Deref<Target = String>,
    n: usize,
    out: &mut Vec<Incident>,
) {
    let inputs = match obj.get("inputs") {
        None => None,
        Some(Value::Object(m)) => Some(m),
        Some(v) => {
            out.push(ctx.at_step(
                IncidentCode::SchemaViolation,
                &child(base, "inputs"),
                n,
                format!("inputs must be a JSON object, found {}", kind(v)),
            ));
            None
        }
    };
    let inputs_hash = match obj.get("inputs_hash") {
        None => None,
        Some(v) => match content_hash(v) {
            Ok(h) => Some(h),
            Err((code, msg)) => {
                out.push(ctx.at_step(
                    code,
                    &child(base, "inputs_hash"),
                    n,
                    format!("inputs_hash: {msg}"),
                ));
                None
            }
        },
    };
    if let (Some(inputs), Some(recorded)) = (inputs, inputs_hash) {
        let actual = sha256_bytes(&canonicalize(&Value::Object(inputs.clone())));
        if actual != recorded {
            out.push(ctx.at_step(
                IncidentCode::AcaChainInputsHashMismatch,
                &child(base, "inputs_hash"),
                n,
                format!("inputs_hash is {recorded} but the JCS hash of inputs is {actual}"),
            ));
        }
    }
    if !obj.contains_key("inputs")
        && !obj.contains_key("inputs_hash")
        && !obj.contains_key("inputs_ref")
    {
        out.push(ctx.at_step(
            IncidentCode::AcaChainInputsMissing,
            base,
            n,
            "the step has none of `inputs`, `inputs_hash` and `inputs_ref`".into(),
        ));
    }
}

/// ACA-L3-004: every `inputs_ref` names the output of an earlier step.
fn check_inputs_ref(
    ctx: &Ctx,
    obj: &Members,
    base: &impl Deref<Target = String>,
    (i, spans): (usize, &Spans<'_>),
    out: &mut Vec<Incident>,
) {
    let n = i + 1;

    if let Some(r) = obj.get("inputs_ref") {
        let p = LazyCell::new(|| child(base, "inputs_ref"));
        match refs_of(r) {
            None => out.push(ctx.at_step(
                IncidentCode::AcaChainRefInvalid,
                &p,
                n,
                format!("inputs_ref must be a non-empty string or a non-empty array of distinct non-empty strings, found {r}"),
            )),
            Some(refs) => {
                for reference in refs {
                    let earlier = spans.first(reference).is_some_and(|j| j < i);
                    if earlier {
                        continue;
                    }
                    let later = spans.last(reference).is_some_and(|j| j >= i);
                    if later {
                        out.push(ctx.at_step(
                            IncidentCode::AcaChainRefForward,
                            &p,
                            n,
                            format!("inputs_ref `{reference}` names the output of this or a later step"),
                        ));
                    } else {
                        out.push(ctx.at_step(
                            IncidentCode::AcaChainRefUnknown,
                            &p,
                            n,
                            format!("inputs_ref `{reference}` names no step's outputs_ref"),
                        ));
                    }
                }
            }
        }
    }
}

fn refs_of(v: &Value) -> Option<Vec<&str>> {
    match v {
        Value::String(s) if !s.is_empty() => Some(vec![s.as_str()]),
        Value::Array(items) if !items.is_empty() => {
            let mut out: Vec<&str> = Vec::with_capacity(items.len());
            let mut seen: HashSet<&str> = HashSet::with_capacity(items.len());
            for item in items {
                let s = item.as_str().filter(|s| !s.is_empty())?;
                if !seen.insert(s) {
                    return None;
                }
                out.push(s);
            }
            Some(out)
        }
        _ => None,
    }
}
