//! Lists outside the code that must say what the spec descriptors say, derived from them and
//! compared: the `spec` enum of `schemas/conformance-report.json` and the operation table of
//! docs/ADAPTER.md (section 5). A new spec or operation fails here until both are updated.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::{collections::BTreeMap, path::PathBuf};

use citeproof_model::spec::{Operation, Spec};
use citeproof_reference::SPECS;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_conformance_report_schema_names_every_spec() {
    let text = std::fs::read_to_string(root().join("schemas/conformance-report.json")).unwrap();
    let schema: Value = serde_json::from_str(&text).unwrap();
    let listed: Vec<&str> = schema["$defs"]["spec"]["enum"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    let derived: Vec<&str> = Spec::ALL.iter().map(|s| s.name()).collect();
    assert_eq!(
        listed, derived,
        "schemas/conformance-report.json `$defs.spec.enum`"
    );
}

/// `a`, `b` \| `c`, `d`? as docs/ADAPTER.md writes an input column.
fn input_column(op: &Operation) -> String {
    let required = op.required_input().into_iter().map(|group| {
        group
            .split('|')
            .map(|m| format!("`{m}`"))
            .collect::<Vec<_>>()
            .join(" \\| ")
    });
    let optional = op.optional_input().into_iter().map(|m| format!("`{m}`?"));
    required.chain(optional).collect::<Vec<_>>().join(", ")
}

fn output_column(op: &Operation) -> String {
    if op.output.is_empty() {
        return "–".into();
    }
    let members = op
        .output
        .iter()
        .map(|m| format!("`{m}`"))
        .collect::<Vec<_>>()
        .join(", ");
    if op.output_when_invalid.is_empty() {
        members
    } else {
        assert_eq!(op.output_when_invalid, op.output, "{}", op.name);
        format!("{members} (valid and invalid answers)")
    }
}

/// The rows of the operation table: name → [spec, input, output, reference].
fn adapter_table(doc: &str) -> BTreeMap<String, Vec<String>> {
    let section = doc.split("\n## 5. Operations").nth(1).unwrap();
    section
        .lines()
        .skip_while(|l| !l.starts_with("| operation |"))
        .skip(2)
        .take_while(|l| l.starts_with("| `"))
        .map(|line| {
            let cells: Vec<String> = line
                .replace("\\|", "\u{0}")
                .trim_matches('|')
                .split('|')
                .map(|c| c.trim().replace('\u{0}', "\\|"))
                .collect();
            let name = cells[0].trim_matches('`').to_owned();
            (name, cells[1..].to_vec())
        })
        .collect()
}

#[test]
fn the_adapter_contract_table_is_the_descriptors() {
    let doc = std::fs::read_to_string(root().join("docs/ADAPTER.md")).unwrap();
    let table = adapter_table(&doc);
    let mut expected = BTreeMap::new();
    for spec in SPECS {
        for op in spec.operations {
            expected.insert(
                op.name.to_owned(),
                [spec.name().to_owned(), input_column(op), output_column(op)],
            );
            assert!(
                doc.lines()
                    .any(|l| l.starts_with("#### ") && l.contains(&format!("`{}`", op.name))),
                "docs/ADAPTER.md has no section for `{}`",
                op.name
            );
        }
    }
    assert_eq!(
        table.keys().collect::<Vec<_>>(),
        expected.keys().collect::<Vec<_>>(),
        "the operations of docs/ADAPTER.md section 5"
    );
    for (name, columns) in &expected {
        let row = &table[name];
        assert_eq!(&row[..3], columns, "docs/ADAPTER.md row of `{name}`");
        assert!(row[3].starts_with("yes"), "`{name}`: the reference has it");
    }
}

/// The published input schemas and the lint's member check are two renderings of one contract:
/// on every committed vector's input, and on each input with a required member removed and with
/// an unknown member added, the schema accepts exactly what `check_input` accepts.
#[test]
fn the_operation_input_schemas_agree_with_the_lint() {
    let schema = citeproof_reference::operations_schema();
    let suite = citeproof_conformance::Suite::load(&root().join("vectors")).unwrap();
    let mut checked = 0;
    for spec in SPECS {
        for op in spec.operations {
            let mut def = schema["$defs"][op.name].clone();
            def["$schema"] = schema["$schema"].clone();
            let validator = citeproof_schema::compile(&def).unwrap();
            for case in suite.cases().filter(|c| c.operation == op.name) {
                let mut inputs = vec![case.input.clone()];
                let mut unknown = case.input.clone();
                unknown["no-such-member"] = Value::Null;
                inputs.push(unknown);
                for member in case.input.as_object().unwrap().keys() {
                    let mut less = case.input.clone();
                    less.as_object_mut().unwrap().remove(member);
                    inputs.push(less);
                }
                for input in inputs {
                    assert_eq!(
                        validator.is_valid(&input),
                        op.check_input(&input).is_empty(),
                        "{}: {input}",
                        case.id
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 5000, "{checked}");
}

#[test]
fn the_published_operation_schemas_are_current() {
    let text = std::fs::read_to_string(root().join("schemas/adapter/operations.json")).unwrap();
    let committed: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        committed,
        citeproof_reference::operations_schema(),
        "run `cargo xtask schemas`"
    );
}
