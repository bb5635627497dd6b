//! The text of a map key, as serde_json writes it.

use serde::Serialize;
use serde::ser;

use super::BuildError;

/// A map key as serde_json writes it: a string as is, an integer or a boolean as its text;
/// anything else is refused (a report has no other keys).
pub struct KeyText;

fn key_must_be_a_string() -> BuildError {
    BuildError::Unsupported("key must be a string".into())
}

/// Scalars whose Rust text is their JSON text (strings as they are, numbers, booleans): one
/// line each instead of a method each.
macro_rules! as_text {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, v: $ty) -> Result<String, BuildError> {
            Ok(v.to_string())
        })*
    };
}

/// Scalars serde_json refuses as keys.
macro_rules! refused {
    ($($method:ident($($arg:ty),*)),*) => {
        $(fn $method(self, $(_: $arg),*) -> Result<String, BuildError> {
            Err(key_must_be_a_string())
        })*
    };
}

impl ser::Serializer for KeyText {
    type Ok = String;
    type Error = BuildError;
    type SerializeSeq = ser::Impossible<String, BuildError>;
    type SerializeTuple = ser::Impossible<String, BuildError>;
    type SerializeTupleStruct = ser::Impossible<String, BuildError>;
    type SerializeTupleVariant = ser::Impossible<String, BuildError>;
    type SerializeMap = ser::Impossible<String, BuildError>;
    type SerializeStruct = ser::Impossible<String, BuildError>;
    type SerializeStructVariant = ser::Impossible<String, BuildError>;

    as_text!(
        serialize_str: &str,
        serialize_char: char,
        serialize_bool: bool,
        serialize_i8: i8,
        serialize_i16: i16,
        serialize_i32: i32,
        serialize_i64: i64,
        serialize_i128: i128,
        serialize_u8: u8,
        serialize_u16: u16,
        serialize_u32: u32,
        serialize_u64: u64,
        serialize_u128: u128
    );
    refused!(
        serialize_f32(f32),
        serialize_f64(f64),
        serialize_bytes(&[u8]),
        serialize_none(),
        serialize_unit(),
        serialize_unit_struct(&'static str)
    );
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
    ) -> Result<String, BuildError> {
        Ok(variant.to_owned())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        value: &T,
    ) -> Result<String, BuildError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: &T,
    ) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleStruct, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeTupleVariant, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct(
        self,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStruct, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self::SerializeStructVariant, BuildError> {
        Err(key_must_be_a_string())
    }
}
