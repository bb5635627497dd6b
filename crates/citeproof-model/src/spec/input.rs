//! Typed operation inputs: each operation of docs/ADAPTER.md section 5 reads its `input` into
//! one serde struct (`#[serde(deny_unknown_fields)]`, schemars `JsonSchema`), parsed once, and
//! its body takes the struct. The same struct gives the published input schema
//! (`schemas/adapter/operations.json`) and the runner's lint of every vector's input, so the
//! contract is written once.
//!
//! The input arrives as a parsed value: the runner and `citeproof adapter` read it with the
//! strict parser (a repeated member is refused before an operation sees it), and nothing here
//! parses text again, so no member is ever resolved "last wins".

use schemars::JsonSchema;
use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::pointer;
use crate::protocol::Reply;

/// The name of the operation whose input a struct is; [`crate::operation_input!`] writes it.
pub trait OperationName {
    /// The operation's name (`hash-bytes`, `aca-verify-snapshot`, ...).
    const NAME: &'static str;
}

/// Declares the input struct of an operation: `operation_input! { /// doc
/// pub struct HashBytes = "hash-bytes" { data_base64: Base64 } }` is the struct with
/// `Deserialize` and `JsonSchema`, unknown members refused, and its [`OperationName`]. The
/// crate implements [`OperationInput`] (the operation's body) for it.
#[macro_export]
macro_rules! operation_input {
    ($(#[$meta:meta])* $vis:vis struct $name:ident = $op:literal { $($body:tt)* }) => {
        $(#[$meta])*
        #[derive(::serde::Deserialize, ::schemars::JsonSchema)]
        #[serde(deny_unknown_fields)]
        $vis struct $name { $($body)* }

        impl $crate::spec::OperationName for $name {
            const NAME: &'static str = $op;
        }
    };
}

/// Declares an operation whose one input member is `document`, the raw JSON text of a
/// document, and whose body is `$run` on the document's bytes: `document_operation! { /// doc
/// pub struct ManifestValidate = "aca-manifest-validate" => |bytes: &[u8]| ... }`.
#[macro_export]
macro_rules! document_operation {
    ($(#[$meta:meta])* $vis:vis struct $name:ident = $op:literal => $run:expr) => {
        $crate::operation_input! {
            $(#[$meta])*
            $vis struct $name = $op {
                document: String,
            }
        }

        impl $crate::spec::OperationInput for $name {
            fn run(self) -> $crate::protocol::Reply {
                let run: fn(&[u8]) -> $crate::protocol::Reply = $run;
                run(self.document.as_bytes())
            }
        }
    };
}

/// The input of one operation and the operation's body.
pub trait OperationInput: OperationName + DeserializeOwned + JsonSchema {
    /// Groups of members of which exactly one must be present (each member of a group is an
    /// optional field of the struct; the check and the schema's `oneOf` come from this list).
    const EXACTLY_ONE: &'static [&'static [&'static str]] = &[];

    /// The operation on its parsed input. Never panics on input.
    fn run(self) -> Reply;
}

/// Why an input cannot be read: the message the lint prints and the reply's `errored` message
/// (after `bad input: `).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl InputError {
    /// The reply of an operation to an input it cannot read.
    pub fn reply(&self) -> Reply {
        Reply::errored(format!("bad input: {}", self.0))
    }
}

/// The members of `I` by their serde names, in declaration order.
pub fn member_names<I: DeserializeOwned>() -> &'static [&'static str] {
    let mut names: &'static [&'static str] = &[];
    let _ = I::deserialize(FieldProbe(&mut names));
    names
}

/// Reads `input` as the input of operation `I::NAME`: member problems first (not an object,
/// an `EXACTLY_ONE` group broken, unknown members; every one found), then the first error of
/// the struct, with the JSON pointer of the member it is about.
pub fn parse<I: OperationInput>(input: &Value) -> Result<I, Vec<InputError>> {
    let Some(obj) = input.as_object() else {
        return Err(vec![InputError("input is not a JSON object".into())]);
    };
    let known = member_names::<I>();
    let mut problems = Vec::new();
    for group in I::EXACTLY_ONE {
        let present = group.iter().filter(|m| obj.contains_key(**m)).count();
        let listed = group.join("`, `");
        match present {
            0 => problems.push(InputError(format!("input needs one of `{listed}`"))),
            1 => {}
            _ => problems.push(InputError(format!("input has more than one of `{listed}`"))),
        }
    }
    let unknown: Vec<&String> = obj
        .keys()
        .filter(|key| !known.contains(&key.as_str()))
        .collect();
    for key in &unknown {
        problems.push(InputError(format!(
            "input member `{key}` is not defined for `{}`",
            I::NAME
        )));
    }
    // The known members are read even when others are wrong, so that every problem is listed.
    let parsed = if unknown.is_empty() {
        read::<I>(input)
    } else {
        let mut known_only = obj.clone();
        known_only.retain(|key, _| known.contains(&key.as_str()));
        read::<I>(&Value::Object(known_only))
    };
    match parsed {
        Ok(parsed) if problems.is_empty() => Ok(parsed),
        Ok(_) => Err(problems),
        Err(e) => {
            problems.push(e);
            Err(problems)
        }
    }
}

/// Reads `value` as a `T`, the first error given with the JSON pointer of the member it is
/// about (for input members read apart from an operation's struct).
pub fn read<T: DeserializeOwned>(value: &Value) -> Result<T, InputError> {
    serde_path_to_error::deserialize(value).map_err(|e| located(&e))
}

/// The reply of operation `I` to `input`: its body on the parsed struct, or `errored` naming the
/// first problem.
pub fn run<I: OperationInput>(input: &Value) -> Reply {
    match parse::<I>(input) {
        Ok(parsed) => parsed.run(),
        Err(problems) => problems
            .first()
            .map_or_else(|| Reply::errored("bad input"), InputError::reply),
    }
}

/// A serde error with the pointer of the member it is about (`input lacks `x`` for a missing
/// top-level member, as the member lists said before the inputs were typed).
fn located(e: &serde_path_to_error::Error<serde_json::Error>) -> InputError {
    let mut at = String::new();
    for segment in e.path().iter() {
        match segment {
            serde_path_to_error::Segment::Seq { index } => at = pointer::index(&at, *index),
            serde_path_to_error::Segment::Map { key } => at = pointer::child(&at, key),
            serde_path_to_error::Segment::Enum { .. } | serde_path_to_error::Segment::Unknown => {}
        }
    }
    let message = e.inner().to_string();
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|m| m.strip_suffix('`'));
    match (at.as_str(), missing) {
        ("", Some(member)) => InputError(format!("input lacks `{member}`")),
        ("", None) => InputError(message),
        (at, _) => InputError(format!("`{at}`: {message}")),
    }
}

/// The input schema of `I`: JSON Schema 2020-12, subschemas inline, the `EXACTLY_ONE` groups as
/// `allOf: [{oneOf: [{required: [a]}, {required: [b]}]}]`; no `$schema` or `title` (the caller
/// puts each operation's schema into one document).
pub fn schema<I: OperationInput>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut value = generator.into_root_schema_for::<I>().to_value();
    drop_null_defaults(&mut value);
    if let Some(obj) = value.as_object_mut() {
        for annotation in ["$schema", "title", "description"] {
            obj.remove(annotation);
        }
        if !I::EXACTLY_ONE.is_empty() {
            let groups: Vec<Value> = I::EXACTLY_ONE
                .iter()
                .map(|group| {
                    let one: Vec<Value> = group
                        .iter()
                        .map(|m| serde_json::json!({ "required": [m] }))
                        .collect();
                    serde_json::json!({ "oneOf": one })
                })
                .collect();
            obj.insert("allOf".into(), Value::Array(groups));
        }
    }
    value
}

/// schemars writes `"default": null` for an optional member; here `null` is refused, and absent
/// is what the default means, so the annotation would mislead.
fn drop_null_defaults(value: &mut Value) {
    match value {
        Value::Object(obj) => {
            if obj.get("default") == Some(&Value::Null) {
                obj.remove("default");
            }
            obj.values_mut().for_each(drop_null_defaults);
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null_defaults),
        _ => {}
    }
}

/// A required level of `1..=MAX`, refused when the input is read otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequiredLevel<const MAX: u8>(pub u8);

impl<'de, const MAX: u8> Deserialize<'de> for RequiredLevel<MAX> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match u8::deserialize(d)? {
            level @ 1.. if level <= MAX => Ok(RequiredLevel(level)),
            other => Err(de::Error::custom(format!(
                "a required level is 1 to {MAX}, not {other}"
            ))),
        }
    }
}

impl<const MAX: u8> JsonSchema for RequiredLevel<MAX> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        format!("RequiredLevel{MAX}").into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({ "type": "integer", "minimum": 1, "maximum": MAX })
    }
}

/// An optional input member (the field needs `#[serde(default)]`): absent is `None`; present,
/// it must be a `T` (`null` is not "absent"). Its schema is `T`'s.
#[derive(Debug, Clone, PartialEq)]
pub struct Optional<T>(pub Option<T>);

impl<T> Default for Optional<T> {
    fn default() -> Self {
        Optional(None)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Optional<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|t| Optional(Some(t)))
    }
}

impl<T: JsonSchema> JsonSchema for Optional<T> {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

/// Bytes given as standard base64 with padding (RFC 4648 §4), decoded when the input is read.
#[derive(Debug, Clone, PartialEq, Eq, Default, JsonSchema)]
#[schemars(
    transparent,
    extend(
        "contentEncoding" = "base64",
        "pattern" = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$"
    )
)]
pub struct Base64(#[schemars(with = "String")] pub Vec<u8>);

impl<'de> Deserialize<'de> for Base64 {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use base64::Engine as _;
        let text = String::deserialize(d)?;
        base64::engine::general_purpose::STANDARD
            .decode(text)
            .map(Base64)
            .map_err(|e| de::Error::custom(format!("not standard base64: {e}")))
    }
}

impl Serialize for Base64 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use base64::Engine as _;
        s.serialize_str(&base64::engine::general_purpose::STANDARD.encode(&self.0))
    }
}

/// A JSON document given as its text (a string) or as a JSON object.
#[derive(Debug, Clone, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum TextOrObject {
    Text(String),
    Object(serde_json::Map<String, Value>),
}

impl TextOrObject {
    /// The document's bytes: the text as given, or the object written out.
    pub fn to_bytes(&self) -> Vec<u8> {
        match self {
            TextOrObject::Text(text) => text.as_bytes().to_vec(),
            TextOrObject::Object(map) => Value::Object(map.clone()).to_string().into_bytes(),
        }
    }
}

/// A deserializer that only records the field names a struct asks for.
struct FieldProbe<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for FieldProbe<'_> {
    type Error = de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("only structs have member names"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        _: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("names recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}
