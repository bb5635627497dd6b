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
