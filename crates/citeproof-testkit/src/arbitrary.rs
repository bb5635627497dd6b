//! Arbitrary JSON values for the no-panic property tests, biased toward the member names and
//! words of the document a test feeds, so that random values often get past the first check.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// What the values of one test look like.
#[derive(Debug, Clone)]
pub struct JsonShape {
    /// Regex of the arbitrary strings.
    pub text: &'static str,
    /// Strings of the document (each as likely as any other).
    pub words: &'static [&'static str],
    /// A further kind of leaf (`None`: none).
    pub extra_leaf: Option<BoxedStrategy<Value>>,
    /// Member names of the document; then one name of `name_pattern`, as likely as each of them.
    pub names: &'static [&'static str],
    /// Regex of the other member names.
    pub name_pattern: &'static str,
    /// Most members of an object (and items of an array: fewer than 6).
    pub max_members: usize,
    /// The expected branch size of the recursion (proptest's `prop_recursive`).
    pub branch: u32,
}

/// Every member name the JSON Schema `schema` declares (the keys of `properties` at any depth,
/// definitions included), sorted and without repeats: a [`JsonShape::names`] that follows the
/// model when it gains a member. Leaked, as a strategy's names are `'static` (a test calls this
/// once).
pub fn schema_member_names(schemas: &[Value]) -> &'static [&'static str] {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(map) => {
                if let Some(Value::Object(props)) = map.get("properties") {
                    out.extend(props.keys().cloned());
                }
                map.values().for_each(|child| walk(child, out));
            }
            Value::Array(items) => items.iter().for_each(|child| walk(child, out)),
            _ => {}
        }
    }
    let mut names = Vec::new();
    schemas.iter().for_each(|s| walk(s, &mut names));
    names.sort();
    names.dedup();
    let names: Vec<&'static str> = names
        .into_iter()
        .map(|n| &*Box::leak(n.into_boxed_str()))
        .collect();
    Box::leak(names.into_boxed_slice())
}

/// Values up to 4 levels deep, up to 48 nodes: null, booleans, 64-bit integers, finite numbers,
/// strings of `shape.text`, the words, the extra leaf, arrays and objects with names of the
/// shape.
pub fn json_value(shape: JsonShape) -> impl Strategy<Value = Value> {
    let words = shape.words.to_vec();
    let mut leaves = vec![
        Just(Value::Null).boxed(),
        any::<bool>().prop_map(Value::Bool).boxed(),
        any::<i64>().prop_map(|n| json!(n)).boxed(),
        any::<f64>()
            .prop_filter("finite", |f| f.is_finite())
            .prop_map(|f| json!(f))
            .boxed(),
        shape.text.prop_map(Value::String).boxed(),
        prop::sample::select(words)
            .prop_map(|s| Value::String(s.to_owned()))
            .boxed(),
    ];
    leaves.extend(shape.extra_leaf);
    let leaf = proptest::strategy::Union::new(leaves);
    let names = shape.names.to_vec();
    let known = u32::try_from(names.len()).unwrap_or(u32::MAX);
    let (pattern, max_members) = (shape.name_pattern, shape.max_members);
    leaf.prop_recursive(4, 48, shape.branch, move |inner| {
        let name = prop_oneof![
            known => prop::sample::select(names.clone()).prop_map(str::to_owned),
            1 => pattern,
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::btree_map(name, inner, 0..max_members)
                .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
