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

    fn serialize_str(self, v: &str) -> Result<String, BuildError> {
        Ok(v.to_owned())
    }
    fn serialize_char(self, v: char) -> Result<String, BuildError> {
        Ok(v.to_string())
    }
    fn serialize_bool(self, v: bool) -> Result<String, BuildError> {
        Ok(v.to_string())
    }
    fn serialize_i64(self, v: i64) -> Result<String, BuildError> {
        Ok(v.to_string())
    }
    fn serialize_u64(self, v: u64) -> Result<String, BuildError> {
        Ok(v.to_string())
    }
    fn serialize_i128(self, v: i128) -> Result<String, BuildError> {
        Ok(v.to_string())
    }
    fn serialize_u128(self, v: u128) -> Result<String, BuildError> {
        Ok(v.to_string())
    }
    fn serialize_i8(self, v: i8) -> Result<String, BuildError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<String, BuildError> {
        self.serialize_i64(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<String, BuildError> {
        self.serialize_i64(v.into())
    }
    fn serialize_u8(self, v: u8) -> Result<String, BuildError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<String, BuildError> {
        self.serialize_u64(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<String, BuildError> {
        self.serialize_u64(v.into())
    }
    fn serialize_f32(self, _: f32) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_f64(self, _: f64) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_bytes(self, _: &[u8]) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_none(self) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit(self) -> Result<String, BuildError> {
        Err(key_must_be_a_string())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<String, BuildError> {
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
