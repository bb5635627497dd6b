//! The spec descriptor: what a spec crate tells the rest of the workspace about itself, in one
//! `pub const SPEC: SpecDescriptor`. The reference implementation, the runner's lint of the
//! operation contracts (docs/ADAPTER.md, section 5), the generated variants and the fuzz bodies
//! iterate the descriptors (`citeproof_reference::SPECS`) instead of keeping their own lists.
//!
//! A spec's identity (its name, case prefix and requirement prefixes) is the [`Spec`] enum of
//! [`crate::vectors`], which vector files name; a descriptor adds its behaviour: the document
//! kinds whose whole check its crate does, and its operations with their input contracts.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::{Incident, protocol::OperationFn};

pub use crate::vectors::Spec;

/// One spec crate, as the workspace sees it.
#[derive(Debug, Clone, Copy)]
pub struct SpecDescriptor {
    pub spec: Spec,
    /// Document kinds (by their schema name, `citeproof_schema::DocumentKind::name`) whose
    /// whole check, schema rules included, this spec's crate does, so that every violation gets
    /// the profile's specific code (reporting rule 2). Other kinds are checked by their schema
    /// alone.
    pub documents: &'static [DocumentRule],
    /// The operations of docs/ADAPTER.md that vector files of this spec use.
    pub operations: &'static [Operation],
}

impl SpecDescriptor {
    /// The spec's short name (the `spec` of its vector files and of its reports).
    pub const fn name(&self) -> &'static str {
        self.spec.name()
    }

    /// The operation of this spec called `name`.
    pub fn operation(&self, name: &str) -> Option<&'static Operation> {
        self.operations.iter().find(|op| op.name == name)
    }
}

/// The check of one document kind by its spec crate.
#[derive(Debug, Clone, Copy)]
pub struct DocumentRule {
    /// The kind's schema name (`aca-manifest`, `ledger-audit-record`, ...).
    pub kind: &'static str,
    /// Every incident of a parsed document of this kind.
    pub validate: fn(&Value) -> Vec<Incident>,
}

impl DocumentRule {
    pub const fn new(kind: &'static str, validate: fn(&Value) -> Vec<Incident>) -> DocumentRule {
        DocumentRule { kind, validate }
    }
}

/// One operation of the adapter contract (docs/ADAPTER.md, section 5) and the reference's
/// implementation of it.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    pub name: &'static str,
    /// Input members that must be present. A group `a|b` means exactly one of `a` and `b`.
    pub required_input: &'static [&'static str],
    /// Input members that may be present.
    pub optional_input: &'static [&'static str],
    /// Members of `output` in a `valid` reply (empty: the operation has no output).
    pub output: &'static [&'static str],
    /// Members of `output` an `invalid` reply carries too (empty for most operations: an
    /// invalid answer needs no output).
    pub output_when_invalid: &'static [&'static str],
    /// The reference implementation.
    pub run: OperationFn,
}

impl Operation {
    /// An operation without output members for `invalid` answers.
    pub const fn new(
        name: &'static str,
        required_input: &'static [&'static str],
        optional_input: &'static [&'static str],
        output: &'static [&'static str],
        run: OperationFn,
    ) -> Operation {
        Operation {
            name,
            required_input,
            optional_input,
            output,
            output_when_invalid: &[],
            run,
        }
    }

    /// The input contract as a JSON Schema (2020-12): an object of exactly the listed members,
    /// each required one present, exactly one of each `a|b` group. Member values are not
    /// constrained here (the operation's own rules say what they hold).
    pub fn input_schema(&self) -> Value {
        let mut properties = serde_json::Map::new();
        let mut required = Vec::new();
        let mut exactly_one = Vec::new();
        for group in self.required_input {
            let alternatives: Vec<&str> = group.split('|').collect();
            for member in &alternatives {
                properties.insert((*member).to_owned(), Value::Bool(true));
            }
            match alternatives.as_slice() {
                [single] => required.push(Value::from(*single)),
                _ => exactly_one.push(serde_json::json!({
                    "oneOf": alternatives
                        .iter()
                        .map(|a| serde_json::json!({ "required": [a] }))
                        .collect::<Vec<_>>()
                })),
            }
        }
        for member in self.optional_input {
            properties.insert((*member).to_owned(), Value::Bool(true));
        }
        let mut schema = serde_json::json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        });
        if let (false, Some(obj)) = (exactly_one.is_empty(), schema.as_object_mut()) {
            obj.insert("allOf".into(), Value::Array(exactly_one));
        }
        schema
    }

    /// Problems of `input` against the member lists (missing, both alternatives, unknown).
    pub fn check_input(&self, input: &Value) -> Vec<String> {
        let Some(obj) = input.as_object() else {
            return vec!["input is not a JSON object".into()];
        };
        let mut problems = Vec::new();
        let mut known: BTreeSet<&str> = self.optional_input.iter().copied().collect();
        for group in self.required_input {
            let alternatives: Vec<&str> = group.split('|').collect();
            known.extend(alternatives.iter().copied());
            let present = alternatives
                .iter()
                .filter(|a| obj.contains_key(**a))
                .count();
            match (present, alternatives.len()) {
                (0, 1) => problems.push(format!("input lacks `{group}`")),
                (0, _) => problems.push(format!(
                    "input needs one of `{}`",
                    alternatives.join("`, `")
                )),
                (1, _) => {}
                _ => problems.push(format!(
                    "input has more than one of `{}`",
                    alternatives.join("`, `")
                )),
            }
        }
        for key in obj.keys() {
            if !known.contains(key.as_str()) {
                problems.push(format!(
                    "input member `{key}` is not defined for `{}`",
                    self.name
                ));
            }
        }
        problems
    }
}

/// The operation called `name` among `specs`, with the spec it belongs to.
pub fn find_operation(
    specs: &[&'static SpecDescriptor],
    name: &str,
) -> Option<(Spec, &'static Operation)> {
    specs
        .iter()
        .find_map(|d| d.operation(name).map(|op| (d.spec, op)))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::protocol::Reply;

    fn nothing(_: &Value) -> Reply {
        Reply::valid(None)
    }

    #[test]
    fn input_checks_find_missing_ambiguous_and_unknown_members() {
        let jcs = Operation::new(
            "jcs-canonicalize",
            &["json|json_base64"],
            &["x_opt"],
            &[],
            nothing,
        );
        assert!(jcs.check_input(&json!({"json": "1"})).is_empty());
        assert!(
            jcs.check_input(&json!({"json": "1", "x_opt": 2}))
                .is_empty()
        );
        assert_eq!(
            jcs.check_input(&json!({})),
            ["input needs one of `json`, `json_base64`"]
        );
        assert_eq!(
            jcs.check_input(&json!({"json": "1", "json_base64": ""})),
            ["input has more than one of `json`, `json_base64`"]
        );
        assert_eq!(
            jcs.check_input(&json!({"json": "1", "x": 1})),
            ["input member `x` is not defined for `jcs-canonicalize`"]
        );
        assert_eq!(jcs.check_input(&json!([])), ["input is not a JSON object"]);
        let one = Operation::new("hash-bytes", &["data_base64"], &[], &["hash"], nothing);
        assert_eq!(one.check_input(&json!({})), ["input lacks `data_base64`"]);
    }
}
