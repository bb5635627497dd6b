//! How a reply is compared with a case's expected result: the result, the error codes (exact
//! or at least the expected ones), the warnings and the output, with JSON numbers compared by
//! value.

use citeproof_model::vectors::Validity;
use serde_json::Value;

use crate::protocol::{Answer, ResultReply};
use crate::suite::Expected;

/// Compares an answer with the expected result. `Err` says why the case failed.
pub fn evaluate(expected: &Expected, actual: &ResultReply) -> Result<(), String> {
    let answer = actual.result.unwrap_or(Answer::Invalid);
    match (expected.result, answer) {
        (Validity::Valid, Answer::Invalid) => {
            return Err(format!(
                "expected valid, got invalid with errors [{}]",
                actual.errors.join(", ")
            ));
        }
        (Validity::Invalid, Answer::Valid) => {
            return Err(format!(
                "expected invalid with errors [{}], got valid",
                expected.errors.join(", ")
            ));
        }
        (Validity::Invalid, Answer::Invalid) => {
            compare_errors(expected, &actual.errors)?;
            // Operations whose invalid answers carry output (chain-verify's verdicts).
            if let Some(want) = &expected.output {
                compare_output(want, actual.output.as_ref())?;
            }
        }
        (Validity::Valid, Answer::Valid) => {
            if let Some(want) = &expected.output {
                compare_output(want, actual.output.as_ref())?;
            }
        }
    }
    match &expected.warnings {
        Some(want) => compare_warnings(want, &actual.warnings),
        None => Ok(()),
    }
}

fn missing_codes<'a>(want: &'a [String], got: &[String]) -> Vec<&'a str> {
    want.iter()
        .filter(|c| !got.contains(c))
        .map(String::as_str)
        .collect()
}

fn compare_errors(expected: &Expected, got: &[String]) -> Result<(), String> {
    let missing = missing_codes(&expected.errors, got);
    let extra = if expected.errors_match.is_exact() {
        missing_codes(got, &expected.errors)
    } else {
        Vec::new()
    };
    if missing.is_empty() && extra.is_empty() {
        return Ok(());
    }
    let mut why = Vec::new();
    if !missing.is_empty() {
        why.push(format!("error codes [{}] are missing", missing.join(", ")));
    }
    if !extra.is_empty() {
        why.push(format!(
            "error codes [{}] were not expected (the case lists exactly [{}])",
            extra.join(", "),
            expected.errors.join(", ")
        ));
    }
    Err(format!(
        "invalid as expected, but {} (got [{}])",
        why.join(" and "),
        got.join(", ")
    ))
}

fn compare_warnings(want: &[String], got: &[String]) -> Result<(), String> {
    let missing = missing_codes(want, got);
    let extra = missing_codes(got, want);
    if missing.is_empty() && extra.is_empty() {
        return Ok(());
    }
    Err(format!(
        "warning codes differ: expected exactly [{}], got [{}]",
        want.join(", "),
        got.join(", ")
    ))
}

/// Every member of the expected output must be present and JSON-equal; other members of the
/// actual output are ignored.
fn compare_output(want: &Value, got: Option<&Value>) -> Result<(), String> {
    let Some(got) = got else {
        return Err(format!("expected output {want}, got no output"));
    };
    let (Some(want_obj), Some(got_obj)) = (want.as_object(), got.as_object()) else {
        return if json_equal(want, got) {
            Ok(())
        } else {
            Err(format!("expected output {want}, got {got}"))
        };
    };
    let mut diffs = Vec::new();
    for (key, w) in want_obj {
        match got_obj.get(key) {
            None => diffs.push(format!("`{key}`: expected {w}, missing")),
            Some(g) if !json_equal(w, g) => diffs.push(format!("`{key}`: expected {w}, got {g}")),
            Some(_) => {}
        }
    }
    if diffs.is_empty() {
        Ok(())
    } else {
        Err(format!("wrong output: {}", diffs.join("; ")))
    }
}

/// JSON equality with numbers compared by value (`1` equals `1.0`).
pub fn json_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            if x.is_f64() || y.is_f64() {
                x.as_f64() == y.as_f64()
            } else {
                x == y
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_equal(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_equal(v, w)))
        }
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::suite::ErrorsMatch;

    fn expected(result: Validity, errors: &[&str], output: Option<Value>) -> Expected {
        Expected {
            result,
            errors: errors.iter().map(|s| (*s).to_owned()).collect(),
            errors_match: ErrorsMatch::Exact,
            warnings: None,
            output,
        }
    }

    fn reply(
        answer: Answer,
        errors: &[&str],
        warnings: &[&str],
        output: Option<Value>,
    ) -> ResultReply {
        ResultReply {
            result: Some(answer),
            errors: errors.iter().map(|s| (*s).to_owned()).collect(),
            warnings: warnings.iter().map(|s| (*s).to_owned()).collect(),
            output,
        }
    }

    #[test]
    fn evaluation_rules() {
        let v = expected(Validity::Valid, &[], Some(json!({"hash": "h"})));
        assert!(
            evaluate(
                &v,
                &reply(
                    Answer::Valid,
                    &[],
                    &[],
                    Some(json!({"hash": "h", "extra": 1}))
                )
            )
            .is_ok()
        );
        assert!(
            evaluate(
                &v,
                &reply(Answer::Valid, &[], &[], Some(json!({"hash": "x"})))
            )
            .is_err()
        );
        assert!(evaluate(&v, &reply(Answer::Valid, &[], &[], None)).is_err());
        assert!(evaluate(&v, &reply(Answer::Invalid, &["a"], &[], None)).is_err());

        let mut i = expected(Validity::Invalid, &["a", "b"], None);
        assert!(evaluate(&i, &reply(Answer::Invalid, &["b", "a"], &[], None)).is_ok());
        // Exact by default: listing every registered code does not pass.
        assert!(evaluate(&i, &reply(Answer::Invalid, &["b", "a", "c"], &[], None)).is_err());
        assert!(evaluate(&i, &reply(Answer::Invalid, &["a"], &[], None)).is_err());
        assert!(evaluate(&i, &reply(Answer::Valid, &[], &[], None)).is_err());
        i.errors_match = ErrorsMatch::Superset;
        assert!(evaluate(&i, &reply(Answer::Invalid, &["b", "a", "c"], &[], None)).is_ok());
        assert!(evaluate(&i, &reply(Answer::Invalid, &["a", "c"], &[], None)).is_err());

        // Warnings, when listed, are asserted in both directions and on either result.
        let mut w = expected(Validity::Valid, &[], None);
        w.warnings = Some(vec!["w".into()]);
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &["w"], None)).is_ok());
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &[], None)).is_err());
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &["w", "x"], None)).is_err());
        w.warnings = Some(Vec::new());
        assert!(evaluate(&w, &reply(Answer::Valid, &[], &["w"], None)).is_err());
        let mut iw = expected(Validity::Invalid, &["a"], None);
        iw.warnings = Some(vec!["w".into()]);
        assert!(evaluate(&iw, &reply(Answer::Invalid, &["a"], &["w"], None)).is_ok());
        assert!(evaluate(&iw, &reply(Answer::Invalid, &["a"], &[], None)).is_err());

        // Rejecting a document over a SHOULD fails a case that expects it valid with a warning
        // (warnings never lower a level).
        assert!(evaluate(&w, &reply(Answer::Invalid, &["w"], &[], None)).is_err());

        // An invalid case with an expected output (chain-verify's verdicts) compares it too:
        // the right codes with the wrong verdict fail.
        let verdict = expected(
            Validity::Invalid,
            &["a"],
            Some(json!({"verdicts": {"x": "tampered"}})),
        );
        let answer = |v: &str| Some(json!({"verdicts": {"x": v}, "level": 0}));
        assert!(
            evaluate(
                &verdict,
                &reply(Answer::Invalid, &["a"], &[], answer("tampered"))
            )
            .is_ok()
        );
        assert!(
            evaluate(
                &verdict,
                &reply(Answer::Invalid, &["a"], &[], answer("verified"))
            )
            .is_err()
        );
        assert!(evaluate(&verdict, &reply(Answer::Invalid, &["a"], &[], None)).is_err());
    }

    #[test]
    fn numbers_compare_by_value_nested_objects_exactly() {
        assert!(json_equal(&json!({"level": 1}), &json!({"level": 1.0})));
        assert!(!json_equal(&json!([{"a": 1}]), &json!([{"a": 1, "b": 2}])));
    }
}
