//! Python objects built straight from a Rust report (any `Serialize` value), equal to what
//! `json.loads(serde_json::to_string(value))` gives, member order included, without the JSON
//! text in between.
//!
//! Why not a JSON round trip: for a 10,000-claim ACA report the text is 5 MB, and writing it,
//! then `json.loads` under the GIL, cost about 45% of the verification itself. Why not the
//! `pythonize` crate: its dicts follow the structs' field order, where every other output of
//! the report (the CLI's `--json`, the audit store) has `serde_json::Value`'s sorted members;
//! and it makes a new `str` for every string, where a report repeats most of its strings
//! (member names, hashes, URLs, verdict words, an excerpt equal to its claim text): here each
//! distinct string becomes one Python `str`, shared.
//!
//! The rules are serde_json's: a map's members sorted by key (byte order) with a repeated key
//! keeping its first place and its last value, a non-finite float is `None`, bytes are a list
//! of ints, an enum variant with data is a one-member dict, map keys are strings (numbers and
//! booleans written as their JSON text).

use std::borrow::Cow;
use std::fmt;

use pyo3::BoundObject;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyList, PyString};
use rustc_hash::FxHashMap;
use serde::ser::{self, Serialize};

use key_text::KeyText;

mod key_text;

/// Builds Python objects from serde values, one `str` per distinct string.
pub struct Builder<'py> {
    py: Python<'py>,
    /// Keyed with rustc-hash: SipHash took a tenth of the building time.
    strings: FxHashMap<Box<str>, Bound<'py, PyString>>,
}

impl fmt::Debug for Builder<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Builder")
            .field("strings", &self.strings.len())
            .finish()
    }
}

/// Why a value could not be built: a Python error, or a value JSON cannot carry.
#[derive(Debug)]
pub enum BuildError {
    Python(PyErr),
    Unsupported(String),
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BuildError::Python(e) => write!(f, "{e}"),
            BuildError::Unsupported(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for BuildError {}

impl ser::Error for BuildError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        BuildError::Unsupported(msg.to_string())
    }
}

impl From<PyErr> for BuildError {
    fn from(e: PyErr) -> Self {
        BuildError::Python(e)
    }
}

type Built<'py> = Result<Bound<'py, PyAny>, BuildError>;

impl<'py> Builder<'py> {
    pub fn new(py: Python<'py>) -> Builder<'py> {
        Builder {
            py,
            strings: FxHashMap::default(),
        }
    }

    /// `value` as Python objects.
    pub fn build<T: Serialize + ?Sized>(&mut self, value: &T) -> Built<'py> {
        value.serialize(ValueSerializer { b: self, top: None })
    }

    /// `value` as it is, or `{variant: value}`: serde_json's form of an externally tagged
    /// variant with data.
    fn tagged(&mut self, variant: Option<&'static str>, value: Bound<'py, PyAny>) -> Built<'py> {
        let Some(variant) = variant else {
            return Ok(value);
        };
        let key = self.string(variant);
        dict_of(
            self.py,
            vec![Entry {
                name: Cow::Borrowed(variant),
                key,
                value,
            }],
        )
    }

    /// A dict of the members `first`, then those members of `value` (which must serialize as a
    /// map) whose names `first` lacks: serde_json's `entry(k).or_insert(v)` merge, as the CLI
    /// wraps a report in its `--json` envelope. The members of `value` named in `first` are
    /// never built.
    pub fn object_with<T: Serialize + ?Sized>(
        &mut self,
        first: Vec<(&'static str, Bound<'py, PyAny>)>,
        value: &T,
    ) -> Result<Bound<'py, PyDict>, BuildError> {
        let names: Vec<&str> = first.iter().map(|(k, _)| *k).collect();
        let seed = first
            .into_iter()
            .map(|(name, value)| Entry {
                name: Cow::Borrowed(name),
                key: self.string(name),
                value,
            })
            .collect();
        let top = Top { skip: &names, seed };
        let built = value.serialize(ValueSerializer {
            b: self,
            top: Some(top),
        })?;
        built.cast_into::<PyDict>().map_err(|_| {
            BuildError::Unsupported("the value does not serialize as an object".into())
        })
    }

    /// The one Python `str` of this text.
    fn string(&mut self, s: &str) -> Bound<'py, PyString> {
        if let Some(found) = self.strings.get(s) {
            return found.clone();
        }
        let made = PyString::new(self.py, s);
        self.strings.insert(s.into(), made.clone());
        made
    }
}

/// One member of a dict being built, with its name kept for sorting.
struct Entry<'py> {
    name: Cow<'static, str>,
    key: Bound<'py, PyString>,
    value: Bound<'py, PyAny>,
}

/// serde_json's map order (a `BTreeMap<String, _>`): by name, byte order; stable, so that of
/// repeated names the last one inserted wins, as a `BTreeMap` insert does.
fn sort_entries(entries: &mut [Entry<'_>]) {
    if !entries.is_sorted_by(|a, b| a.name <= b.name) {
        entries.sort_by(|a, b| a.name.cmp(&b.name));
    }
}

fn dict_of<'py>(py: Python<'py>, mut entries: Vec<Entry<'py>>) -> Built<'py> {
    sort_entries(&mut entries);
    let dict = PyDict::new(py);
    for e in entries {
        dict.set_item(e.key, e.value)?;
    }
    Ok(dict.into_any())
}

fn list_of<'py>(py: Python<'py>, items: Vec<Bound<'py, PyAny>>) -> Built<'py> {
    Ok(PyList::new(py, items)?.into_any())
}

/// The serializer of one value.
struct ValueSerializer<'b, 'py> {
    b: &'b mut Builder<'py>,
    /// The top level of [`Builder::object_with`].
    top: Option<Top<'b, 'py>>,
}

/// Members a top-level map starts with, and the names of its own members not to build.
struct Top<'b, 'py> {
    skip: &'b [&'b str],
    seed: Vec<Entry<'py>>,
}

impl<'b, 'py> ValueSerializer<'b, 'py> {
    fn int(self, v: impl IntoPyObject<'py>) -> Built<'py> {
        v.into_pyobject(self.b.py)
            .map(BoundObject::into_any)
            .map(BoundObject::into_bound)
            .map_err(|e| BuildError::Python(e.into()))
    }

    fn float(self, v: f64) -> Built<'py> {
        if v.is_finite() {
            Ok(PyFloat::new(self.b.py, v).into_any())
        } else {
            Ok(self.b.py.None().into_bound(self.b.py))
        }
    }
}

/// Every integer type that fits a Python int as it is: one line each instead of a method each.
macro_rules! ints {
    ($($method:ident: $ty:ty),*) => {
        $(fn $method(self, v: $ty) -> Built<'py> {
            self.int(v)
        })*
    };
}

/// A tuple struct is built as a list and a struct as a dict, as serde_json writes them; their
/// enum variants as the same, tagged with the variant's name.
macro_rules! compound {
    ($plain:ident, $variant:ident, $of:ident, $builder:ident) => {
        fn $plain(self, _: &'static str, len: usize) -> Result<$builder<'b, 'py>, BuildError> {
            self.$of(Some(len))
        }
        fn $variant(
            self,
            _: &'static str,
            _: u32,
            variant: &'static str,
            len: usize,
        ) -> Result<$builder<'b, 'py>, BuildError> {
            let mut built = self.$of(Some(len))?;
            built.variant = Some(variant);
            Ok(built)
        }
    };
}

impl<'b, 'py> ser::Serializer for ValueSerializer<'b, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = BuildError;
    type SerializeSeq = SeqBuilder<'b, 'py>;
    type SerializeTuple = SeqBuilder<'b, 'py>;
    type SerializeTupleStruct = SeqBuilder<'b, 'py>;
    type SerializeTupleVariant = SeqBuilder<'b, 'py>;
    type SerializeMap = MapBuilder<'b, 'py>;
    type SerializeStruct = MapBuilder<'b, 'py>;
    type SerializeStructVariant = MapBuilder<'b, 'py>;

    fn serialize_bool(self, v: bool) -> Built<'py> {
        Ok(PyBool::new(self.b.py, v).to_owned().into_any())
    }
    ints!(serialize_i8: i8, serialize_i16: i16, serialize_i32: i32, serialize_i64: i64);
    fn serialize_i128(self, v: i128) -> Built<'py> {
        match i64::try_from(v) {
            Ok(small) => self.int(small),
            Err(_) => u64::try_from(v)
                .map_err(|_| BuildError::Unsupported("number out of range".into()))
                .and_then(|u| self.int(u)),
        }
    }
    ints!(serialize_u8: u8, serialize_u16: u16, serialize_u32: u32, serialize_u64: u64);
    fn serialize_u128(self, v: u128) -> Built<'py> {
        u64::try_from(v)
            .map_err(|_| BuildError::Unsupported("number out of range".into()))
            .and_then(|u| self.int(u))
    }
    fn serialize_f32(self, v: f32) -> Built<'py> {
        // serde_json writes an f32 in its own shortest form (0.1f32 is `0.1`, which Python
        // reads as the double 0.1), not as the f64 it widens to.
        let shortest = v.to_string().parse::<f64>().unwrap_or(f64::NAN);
        self.float(if v.is_finite() { shortest } else { f64::NAN })
    }
    fn serialize_f64(self, v: f64) -> Built<'py> {
        self.float(v)
    }
    fn serialize_char(self, v: char) -> Built<'py> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_str(self, v: &str) -> Built<'py> {
        Ok(self.b.string(v).into_any())
    }
    fn serialize_bytes(self, v: &[u8]) -> Built<'py> {
        let py = self.b.py;
        let items = v
            .iter()
            .map(|byte| byte.into_pyobject(py).map(BoundObject::into_any))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| BuildError::Python(e.into()))?;
        list_of(py, items)
    }
    fn serialize_none(self) -> Built<'py> {
        Ok(self.b.py.None().into_bound(self.b.py))
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Built<'py> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Built<'py> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Built<'py> {
        self.serialize_none()
    }
    fn serialize_unit_variant(self, _: &'static str, _: u32, variant: &'static str) -> Built<'py> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Built<'py> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: u32,
        variant: &'static str,
        value: &T,
    ) -> Built<'py> {
        let inner = self.b.build(value)?;
        self.b.tagged(Some(variant), inner)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqBuilder<'b, 'py>, BuildError> {
        Ok(SeqBuilder {
            b: self.b,
            items: Vec::with_capacity(len.unwrap_or(0)),
            variant: None,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqBuilder<'b, 'py>, BuildError> {
        self.serialize_seq(Some(len))
    }
    fn serialize_map(self, len: Option<usize>) -> Result<MapBuilder<'b, 'py>, BuildError> {
        let (skip, entries) = match self.top {
            Some(Top { skip, mut seed }) => {
                seed.reserve(len.unwrap_or(16));
                (skip, seed)
            }
            None => (&[][..], Vec::with_capacity(len.unwrap_or(8))),
        };
        Ok(MapBuilder {
            b: self.b,
            skip,
            entries,
            pending: None,
            variant: None,
        })
    }
    compound!(
        serialize_tuple_struct,
        serialize_tuple_variant,
        serialize_seq,
        SeqBuilder
    );
    compound!(
        serialize_struct,
        serialize_struct_variant,
        serialize_map,
        MapBuilder
    );
}

/// A list (or the list of a tuple variant) being built.
struct SeqBuilder<'b, 'py> {
    b: &'b mut Builder<'py>,
    items: Vec<Bound<'py, PyAny>>,
    variant: Option<&'static str>,
}

impl<'py> SeqBuilder<'_, 'py> {
    fn push<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), BuildError> {
        let item = self.b.build(value)?;
        self.items.push(item);
        Ok(())
    }

    fn finish(self) -> Built<'py> {
        let list = list_of(self.b.py, self.items)?;
        self.b.tagged(self.variant, list)
    }
}

macro_rules! seq_impl {
    ($trait:ident, $method:ident) => {
        impl<'py> ser::$trait for SeqBuilder<'_, 'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = BuildError;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), BuildError> {
                self.push(value)
            }
            fn end(self) -> Built<'py> {
                self.finish()
            }
        }
    };
}

seq_impl!(SerializeSeq, serialize_element);
seq_impl!(SerializeTuple, serialize_element);
seq_impl!(SerializeTupleStruct, serialize_field);
seq_impl!(SerializeTupleVariant, serialize_field);

/// A dict (a map, a struct, the dict of a struct variant) being built.
struct MapBuilder<'b, 'py> {
    b: &'b mut Builder<'py>,
    /// Member names not to build (the top level of [`Builder::object_with`]).
    skip: &'b [&'b str],
    entries: Vec<Entry<'py>>,
    /// The key given by `serialize_key`, awaiting its value (`None` inside: skipped).
    pending: Option<Option<(Cow<'static, str>, Bound<'py, PyString>)>>,
    variant: Option<&'static str>,
}

impl<'py> MapBuilder<'_, 'py> {
    /// The key's text and its Python `str`, or `None` when the member is skipped.
    fn key(
        &mut self,
        name: Cow<'static, str>,
    ) -> Option<(Cow<'static, str>, Bound<'py, PyString>)> {
        if self.skip.contains(&&*name) {
            return None;
        }
        let key = self.b.string(&name);
        Some((name, key))
    }

    fn value<T: Serialize + ?Sized>(
        &mut self,
        key: Option<(Cow<'static, str>, Bound<'py, PyString>)>,
        value: &T,
    ) -> Result<(), BuildError> {
        let Some((name, key)) = key else {
            return Ok(());
        };
        let value = self.b.build(value)?;
        self.entries.push(Entry { name, key, value });
        Ok(())
    }

    fn finish(self) -> Built<'py> {
        let dict = dict_of(self.b.py, self.entries)?;
        self.b.tagged(self.variant, dict)
    }
}

impl<'py> ser::SerializeMap for MapBuilder<'_, 'py> {
    type Ok = Bound<'py, PyAny>;
    type Error = BuildError;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), BuildError> {
        let name = key.serialize(KeyText)?;
        self.pending = Some(self.key(Cow::Owned(name)));
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), BuildError> {
        let key = self.pending.take().ok_or_else(|| {
            BuildError::Unsupported("a map value was given before its key".into())
        })?;
        self.value(key, value)
    }
    fn end(self) -> Built<'py> {
        self.finish()
    }
}

/// A struct and the dict of a struct variant are built alike: one impl for both traits, as
/// `seq_impl!` does for the four list-like ones.
macro_rules! struct_impl {
    ($trait:ident) => {
        impl<'py> ser::$trait for MapBuilder<'_, 'py> {
            type Ok = Bound<'py, PyAny>;
            type Error = BuildError;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                name: &'static str,
                value: &T,
            ) -> Result<(), BuildError> {
                let key = self.key(Cow::Borrowed(name));
                self.value(key, value)
            }
            fn end(self) -> Built<'py> {
                self.finish()
            }
        }
    };
}

struct_impl!(SerializeStruct);
struct_impl!(SerializeStructVariant);
