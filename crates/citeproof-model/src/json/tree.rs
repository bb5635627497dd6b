//! Trees built from a [`Reader`]'s tokens, without recursion.

use serde_json::{Map, Value};

use super::JsonError;
use super::scan::{Event, Reader, Token};
use crate::incident::IncidentCode;

/// A tree [`build`] can make: how to make a leaf (a string, number or literal token), a member
/// key (from a name token), an array and an object.
pub trait Tree: Sized {
    /// What an object's member is keyed by.
    type Key;
    /// An object's members while it is read.
    type Members: Default;

    fn key(name: Token<'_>) -> Self::Key;
    fn leaf(token: Token<'_>) -> Self;
    fn push_member(members: &mut Self::Members, key: Self::Key, value: Self);
    fn array(items: Vec<Self>) -> Self;
    fn object(members: Self::Members) -> Self;
}

/// A container being read.
enum Partial<T: Tree> {
    Array(Vec<T>),
    Object(T::Members, Option<T::Key>),
}

/// Reads the whole input into a `T`: the reader's first error, or the tree.
pub fn build<T: Tree>(reader: &mut Reader<'_>) -> Result<T, JsonError> {
    let mut stack: Vec<Partial<T>> = Vec::new();
    while let Some(token) = reader.next_token()? {
        let offset = token.offset;
        let value = match token.event {
            Event::BeginArray => {
                stack.push(Partial::Array(Vec::new()));
                continue;
            }
            Event::BeginObject => {
                stack.push(Partial::Object(T::Members::default(), None));
                continue;
            }
            Event::Name(_) => match stack.last_mut() {
                Some(Partial::Object(_, key)) => {
                    *key = Some(T::key(token));
                    continue;
                }
                _ => return Err(out_of_order(offset)),
            },
            Event::EndArray => match stack.pop() {
                Some(Partial::Array(items)) => T::array(items),
                _ => return Err(out_of_order(offset)),
            },
            Event::EndObject => match stack.pop() {
                Some(Partial::Object(members, None)) => T::object(members),
                _ => return Err(out_of_order(offset)),
            },
            _ => T::leaf(token),
        };
        match stack.last_mut() {
            None => {
                return match reader.next_token()? {
                    None => Ok(value),
                    Some(token) => Err(out_of_order(token.offset)),
                };
            }
            Some(Partial::Array(items)) => items.push(value),
            Some(Partial::Object(members, key)) => match key.take() {
                Some(key) => T::push_member(members, key, value),
                None => return Err(out_of_order(offset)),
            },
        }
    }
    Err(out_of_order(reader.pos))
}

/// [`build`] for `serde_json::Value`, the tree of [`super::parse_strict`]: the elements of every
/// open array wait in one buffer for the whole input, so reading an array allocates the array
/// and nothing else, and members go straight into their object's map (a `Vec` per container and
/// a map built from a `Vec` per object were most of a manifest's parse).
pub(super) fn build_value(reader: &mut Reader<'_>) -> Result<Value, JsonError> {
    /// An open container: where an array's pending elements begin, or an object's map and the
    /// name of the member being read.
    enum Open {
        Array(usize),
        Object(Map<String, Value>, Option<String>),
    }
    let mut open: Vec<Open> = Vec::new();
    let mut items: Vec<Value> = Vec::new();
    while let Some(token) = reader.next_token()? {
        let offset = token.offset;
        let value = match token.event {
            Event::BeginArray => {
                open.push(Open::Array(items.len()));
                continue;
            }
            Event::BeginObject => {
                open.push(Open::Object(Map::new(), None));
                continue;
            }
            Event::Name(name) => match open.last_mut() {
                Some(Open::Object(_, key)) => {
                    *key = Some(name.into_owned());
                    continue;
                }
                _ => return Err(out_of_order(offset)),
            },
            Event::EndArray => match open.pop() {
                Some(Open::Array(start)) if start <= items.len() => {
                    Value::Array(items.split_off(start))
                }
                _ => return Err(out_of_order(offset)),
            },
            Event::EndObject => match open.pop() {
                Some(Open::Object(map, None)) => Value::Object(map),
                _ => return Err(out_of_order(offset)),
            },
            Event::String(s) => Value::String(s.into_owned()),
            Event::Number(n) => Value::Number(n),
            Event::Bool(b) => Value::Bool(b),
            Event::Null => Value::Null,
        };
        match open.last_mut() {
            None => {
                return match reader.next_token()? {
                    None => Ok(value),
                    Some(token) => Err(out_of_order(token.offset)),
                };
            }
            Some(Open::Array(_)) => items.push(value),
            Some(Open::Object(map, key)) => match key.take() {
                Some(key) => {
                    map.insert(key, value);
                }
                None => return Err(out_of_order(offset)),
            },
        }
    }
    Err(out_of_order(reader.pos))
}

/// A token stream the reader never yields (a bug, reported rather than panicked on).
fn out_of_order(offset: usize) -> JsonError {
    JsonError::at(
        IncidentCode::JsonSyntax,
        offset,
        "internal error: JSON tokens out of order".into(),
    )
}

impl Tree for Value {
    type Key = String;
    type Members = Map<String, Value>;

    fn key(name: Token<'_>) -> String {
        match name.event {
            Event::Name(name) => name.into_owned(),
            _ => String::new(),
        }
    }

    fn leaf(token: Token<'_>) -> Value {
        match token.event {
            Event::String(s) => Value::String(s.into_owned()),
            Event::Number(n) => Value::Number(n),
            Event::Bool(b) => Value::Bool(b),
            _ => Value::Null,
        }
    }

    fn push_member(members: &mut Map<String, Value>, key: String, value: Value) {
        members.insert(key, value);
    }

    fn array(items: Vec<Value>) -> Value {
        Value::Array(items)
    }

    fn object(members: Map<String, Value>) -> Value {
        Value::Object(members)
    }
}
