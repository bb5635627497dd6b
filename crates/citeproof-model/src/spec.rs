//! The spec descriptor: what a spec crate tells the rest of the workspace about itself, in one
//! `pub const SPEC: SpecDescriptor`. The reference implementation, the runner's lint of the
//! operation contracts (docs/ADAPTER.md, section 5), the generated variants and the fuzz bodies
//! iterate the descriptors (`citeproof_reference::SPECS`) instead of keeping their own lists.
//!
//! A spec's identity (its name, case prefix and requirement prefixes) is the [`Spec`] enum of
//! [`crate::vectors`], which vector files name; a descriptor adds its behaviour: the document
//! kinds whose whole check its crate does, and its operations with their input contracts.

use serde_json::Value;

use crate::Incident;
use crate::protocol::OperationFn;

mod input;

pub use input::{
    Base64, InputError, OperationInput, OperationName, Optional, RequiredLevel, TextOrObject,
    member_names, parse, read,
};

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
/// implementation of it. Its input is a typed struct ([`OperationInput`]); the member lists, the
/// published schema, the lint's check and the reference's parse all come from that one type.
#[derive(Debug, Clone, Copy)]
pub struct Operation {
    pub name: &'static str,
    /// Members of `output` in a `valid` reply (empty: the operation has no output).
    pub output: &'static [&'static str],
    /// Members of `output` an `invalid` reply carries too (empty for most operations: an
    /// invalid answer needs no output).
    pub output_when_invalid: &'static [&'static str],
    /// The reference implementation: the typed input read, then the operation's body.
    pub run: OperationFn,
    check: fn(&Value) -> Vec<String>,
    schema: fn() -> Value,
    members: fn() -> &'static [&'static str],
    exactly_one: &'static [&'static [&'static str]],
}

impl Operation {
    /// The operation whose input is `I` (named `I::NAME`), without output members for
    /// `invalid` answers.
    pub const fn new<I: OperationInput>(output: &'static [&'static str]) -> Operation {
        Operation {
            name: I::NAME,
            output,
            output_when_invalid: &[],
            run: input::run::<I>,
            check: check_typed::<I>,
            schema: input::schema::<I>,
            members: input::member_names::<I>,
            exactly_one: I::EXACTLY_ONE,
        }
    }

    /// The same operation, whose `invalid` answers carry `members` of the output too.
    pub const fn with_output_when_invalid(self, members: &'static [&'static str]) -> Operation {
        Operation {
            output_when_invalid: members,
            ..self
        }
    }

    /// The input contract as a JSON Schema (2020-12), generated from the input type: exactly
    /// its members, each required one present, exactly one of each `a|b` group, every member's
    /// type.
    pub fn input_schema(&self) -> Value {
        (self.schema)()
    }

    /// Problems of `input` as this operation reads it (not an object, unknown members, a
    /// broken `a|b` group, then the first member that does not read), as the lint prints them.
    pub fn check_input(&self, input: &Value) -> Vec<String> {
        (self.check)(input)
    }

    /// The members that must be present, in order; a group `a|b` means exactly one of them.
    pub fn required_input(&self) -> Vec<String> {
        let required = self.schema_required();
        let mut out = Vec::new();
        for member in (self.members)() {
            if let Some(group) = self.exactly_one.iter().find(|g| g.contains(member)) {
                if group.first() == Some(member) {
                    out.push(group.join("|"));
                }
            } else if required.contains(member) {
                out.push((*member).to_owned());
            }
        }
        out
    }

    /// The members that may be present, in order.
    pub fn optional_input(&self) -> Vec<&'static str> {
        let required = self.schema_required();
        (self.members)()
            .iter()
            .copied()
            .filter(|m| !required.contains(m) && !self.exactly_one.iter().any(|g| g.contains(m)))
            .collect()
    }

    fn schema_required(&self) -> Vec<&'static str> {
        let schema = self.input_schema();
        (self.members)()
            .iter()
            .copied()
            .filter(|m| {
                schema["required"]
                    .as_array()
                    .is_some_and(|r| r.iter().any(|v| v == m))
            })
            .collect()
    }
}

fn check_typed<I: OperationInput>(input: &Value) -> Vec<String> {
    match input::parse::<I>(input) {
        Ok(_) => Vec::new(),
        Err(problems) => problems.into_iter().map(|p| p.0).collect(),
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
    use crate::operation_input;
    use crate::protocol::Reply;

    operation_input! {
        #[allow(dead_code)]
        /// `jcs-canonicalize`'s shape, with an optional member of a type.
        struct Jcs = "jcs-canonicalize" {
            #[serde(default)]
            json: Optional<String>,
            #[serde(default)]
            json_base64: Optional<Base64>,
            #[serde(default)]
            x_opt: Optional<u8>,
        }
    }

    impl OperationInput for Jcs {
        const EXACTLY_ONE: &'static [&'static [&'static str]] = &[&["json", "json_base64"]];
        fn run(self) -> Reply {
            Reply::valid(None)
        }
    }

    operation_input! {
        #[allow(dead_code)]
        struct Hash = "hash-bytes" {
            data_base64: Base64,
            nested: Option<Vec<u8>>,
        }
    }

    impl OperationInput for Hash {
        fn run(self) -> Reply {
            Reply::valid(None)
        }
    }

    #[test]
    fn input_checks_find_missing_ambiguous_unknown_and_mistyped_members() {
        let jcs = Operation::new::<Jcs>(&[]);
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
        // `null` is not "absent": an optional member that is present must have its type.
        assert_eq!(
            jcs.check_input(&json!({"json": "1", "x_opt": null})),
            ["`/x_opt`: invalid type: null, expected u8"]
        );
        assert_eq!(
            jcs.check_input(&json!({"json_base64": "a"})),
            ["`/json_base64`: not standard base64: Invalid input length: 1"]
        );
        let one = Operation::new::<Hash>(&["hash"]);
        assert_eq!(one.check_input(&json!({})), ["input lacks `data_base64`"]);
        assert_eq!(
            one.check_input(&json!({"data_base64": "", "nested": [1, "2"]})),
            ["`/nested/1`: invalid type: string \"2\", expected u8"]
        );
        match (one.run)(&json!({"data_base64": 7})) {
            Reply::Errored { message } => assert_eq!(
                message,
                "bad input: `/data_base64`: invalid type: integer `7`, expected a string"
            ),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn member_lists_and_schema_come_from_the_type() {
        let jcs = Operation::new::<Jcs>(&[]);
        assert_eq!(jcs.name, "jcs-canonicalize");
        assert_eq!(jcs.required_input(), ["json|json_base64"]);
        assert_eq!(jcs.optional_input(), ["x_opt"]);
        let schema = jcs.input_schema();
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(
            schema["allOf"],
            json!([{"oneOf": [{"required": ["json"]}, {"required": ["json_base64"]}]}])
        );
        assert_eq!(schema["properties"]["x_opt"]["type"], json!("integer"));
        let hash = Operation::new::<Hash>(&["hash"]);
        assert_eq!(hash.required_input(), ["data_base64"]);
        assert_eq!(hash.optional_input(), ["nested"]);
    }
}
