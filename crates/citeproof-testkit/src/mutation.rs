//! One-member mutations of a JSON document: every value replaced by each of a set of values,
//! and every member or element removed. The agreement tests walk them to hold two readings of a
//! document (a fast path and a slow one, a hand-written rule set and a JSON Schema) together.

use serde_json::Value;

/// Every JSON Pointer to a value in `v`, the root (`""`) last.
pub fn pointers(v: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect(v, String::new(), &mut out);
    out
}

fn collect(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, c) in m {
                let escaped = k.replace('~', "~0").replace('/', "~1");
                collect(c, format!("{at}/{escaped}"), out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                collect(c, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
    out.push(at);
}

/// `v` with the value at `pointer` replaced by `with`, or removed when `with` is `None`.
/// `None` when `pointer` names no value, or names the root to remove.
pub fn mutate(v: &Value, pointer: &str, with: Option<&Value>) -> Option<Value> {
    let mut v = v.clone();
    match with {
        Some(new) => *v.pointer_mut(pointer)? = new.clone(),
        None => {
            let (parent, last) = pointer.rsplit_once('/')?;
            match v.pointer_mut(parent)? {
                Value::Object(m) => {
                    m.remove(&last.replace("~1", "/").replace("~0", "~"))?;
                }
                Value::Array(a) => {
                    let i = last.parse::<usize>().ok().filter(|&i| i < a.len())?;
                    a.remove(i);
                }
                _ => return None,
            }
        }
    }
    Some(v)
}

/// Every one-member mutation of `base`: each value replaced by each of `replacements`, then
/// each member or element removed; with a label such as `/claims/0/text = ""`.
pub fn one_member_mutations(base: &Value, replacements: &[Value]) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for p in pointers(base) {
        for r in replacements {
            if let Some(doc) = mutate(base, &p, Some(r)) {
                out.push((format!("{p} = {r}"), doc));
            }
        }
        if let Some(doc) = mutate(base, &p, None) {
            out.push((format!("{p} removed"), doc));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pointers_escape_and_end_at_the_root() {
        let v = json!({"a/b": [1, {"~": 2}]});
        assert_eq!(
            pointers(&v),
            ["/a~1b/0", "/a~1b/1/~0", "/a~1b/1", "/a~1b", ""]
        );
    }

    #[test]
    fn mutations_replace_and_remove_one_member() {
        let v = json!({"a": [1, 2], "b": "x"});
        assert_eq!(mutate(&v, "/a/1", None), Some(json!({"a": [1], "b": "x"})));
        assert_eq!(
            mutate(&v, "/b", Some(&json!(null))),
            Some(json!({"a": [1, 2], "b": null}))
        );
        assert_eq!(mutate(&v, "", None), None);
        assert_eq!(mutate(&v, "/c", None), None);
        // Five values (/a/0, /a/1, /a, /b, the root) each replaced once; four removed (not the
        // root).
        let all = one_member_mutations(&v, &[json!(0)]);
        assert_eq!(all.len(), 5 + 4);
        assert!(
            all.iter()
                .any(|(l, d)| l == "/b removed" && *d == json!({"a": [1, 2]}))
        );
    }
}
