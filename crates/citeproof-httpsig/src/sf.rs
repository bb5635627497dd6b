//! Strict structured-field parsing on top of `sfv` (RFC 8941 / RFC 9651).
//!
//! `sfv`'s owned parser follows RFC 8941 to the letter: a repeated dictionary key or parameter
//! key silently replaces the earlier one. For signatures and digests that is an ambiguity an
//! attacker can use (two readers may pick different members), so this module parses with
//! visitors that reject any repeated key instead.

use std::fmt;

use sfv::visitor::{
    DictionaryVisitor, EntryVisitor, InnerListVisitor, ItemVisitor, ListVisitor, ParameterVisitor,
};
use sfv::{
    BareItem, BareItemFromInput, Dictionary, FieldType, InnerList, Item, KeyRef, List, ListEntry,
    Parameters, Parser, Version,
};

/// A repeated key found while parsing.
#[derive(Debug)]
struct DuplicateKey(String);

impl fmt::Display for DuplicateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "duplicate key `{}`", self.0)
    }
}

impl std::error::Error for DuplicateKey {}

fn insert_param(
    params: &mut Parameters,
    key: &KeyRef,
    value: BareItemFromInput<'_>,
) -> Result<(), DuplicateKey> {
    if params.contains_key(key) {
        return Err(DuplicateKey(format!("{key} (parameter)")));
    }
    params.insert(key.to_owned(), value.into());
    Ok(())
}

/// The parameters of an item or inner list.
fn entry_params(entry: &mut ListEntry) -> &mut Parameters {
    match entry {
        ListEntry::Item(item) => &mut item.params,
        ListEntry::InnerList(list) => &mut list.params,
    }
}

/// Where a parameter visitor stores the parameters, and what it hands back when done.
trait ParamsSink {
    type Out;
    fn params(&mut self) -> &mut Parameters;
    fn done(self) -> Self::Out;
}

/// The parameters of an item or inner list, filled in place.
impl ParamsSink for &mut Parameters {
    type Out = ();
    fn params(&mut self) -> &mut Parameters {
        self
    }
    fn done(self) {}
}

/// A top-level item, handed back whole.
impl ParamsSink for Item {
    type Out = Item;
    fn params(&mut self) -> &mut Parameters {
        &mut self.params
    }
    fn done(self) -> Item {
        self
    }
}

/// Parameters that reject a repeated key.
struct ItemParams<S>(S);

impl<'de, S: ParamsSink> ParameterVisitor<'de> for ItemParams<S> {
    type Out = S::Out;
    type Error = DuplicateKey;

    fn parameter(
        &mut self,
        key: &'de KeyRef,
        value: BareItemFromInput<'de>,
    ) -> Result<(), DuplicateKey> {
        insert_param(self.0.params(), key, value)
    }

    fn finish(self) -> Result<S::Out, DuplicateKey> {
        Ok(self.0.done())
    }
}

/// An item filled in place: a member of a list or dictionary, or of an inner list.
struct ItemSlot<'a>(&'a mut Item);

impl<'de> ItemVisitor<'de> for ItemSlot<'_> {
    type Out = ();
    type Error = DuplicateKey;

    fn bare_item(
        self,
        bare_item: BareItemFromInput<'de>,
    ) -> Result<impl ParameterVisitor<'de, Out = ()>, DuplicateKey> {
        self.0.bare_item = bare_item.into();
        Ok(ItemParams(&mut self.0.params))
    }
}

/// An inner list stored in a [`ListEntry`] slot (the slot is set to an inner list first).
struct EntryInnerList<'a>(&'a mut ListEntry);

impl<'de> InnerListVisitor<'de> for EntryInnerList<'_> {
    type Error = DuplicateKey;

    fn item(&mut self) -> Result<impl ItemVisitor<'de>, DuplicateKey> {
        match self.0 {
            ListEntry::InnerList(list) => Ok(ItemSlot(list.items.push_mut(Item::new(false)))),
            // The slot is always an inner list here (set by `Entry::inner_list`); report rather
            // than panic if that ever changes.
            ListEntry::Item(_) => Err(DuplicateKey("<internal: not an inner list>".into())),
        }
    }

    fn finish(self) -> Result<impl ParameterVisitor<'de>, DuplicateKey> {
        Ok(ItemParams(entry_params(self.0)))
    }
}

/// A dictionary or list member slot.
struct Entry<'a>(&'a mut ListEntry);

impl<'de> EntryVisitor<'de> for Entry<'_> {
    type Error = DuplicateKey;

    fn item(self) -> Result<impl ItemVisitor<'de>, DuplicateKey> {
        match self.0 {
            ListEntry::Item(item) => Ok(ItemSlot(item)),
            // Every slot starts as an item (`StrictDict` and `StrictList` make it so); report
            // rather than panic if that ever changes.
            ListEntry::InnerList(_) => Err(DuplicateKey("<internal: not an item>".into())),
        }
    }

    fn inner_list(self) -> Result<impl InnerListVisitor<'de>, DuplicateKey> {
        *self.0 = ListEntry::InnerList(InnerList::default());
        Ok(EntryInnerList(self.0))
    }
}

/// Dictionary visitor that rejects repeated member keys.
#[derive(Default)]
struct StrictDict(Dictionary);

impl<'de> DictionaryVisitor<'de> for StrictDict {
    type Out = Dictionary;
    type Error = DuplicateKey;

    fn entry(&mut self, key: &'de KeyRef) -> Result<impl EntryVisitor<'de>, DuplicateKey> {
        if self.0.contains_key(key) {
            return Err(DuplicateKey(key.as_str().to_owned()));
        }
        let slot = self
            .0
            .entry(key.to_owned())
            .or_insert(ListEntry::Item(Item::new(false)));
        Ok(Entry(slot))
    }

    fn finish(self) -> Result<Dictionary, DuplicateKey> {
        Ok(self.0)
    }
}

/// List visitor that rejects repeated parameter keys.
#[derive(Default)]
struct StrictList(List);

impl<'de> ListVisitor<'de> for StrictList {
    type Out = List;
    type Error = DuplicateKey;

    fn entry(&mut self) -> Result<impl EntryVisitor<'de>, DuplicateKey> {
        Ok(Entry(self.0.push_mut(ListEntry::Item(Item::new(false)))))
    }

    fn finish(self) -> Result<List, DuplicateKey> {
        Ok(self.0)
    }
}

/// Top-level item visitor that rejects repeated parameter keys.
struct StrictItem;

impl<'de> ItemVisitor<'de> for StrictItem {
    type Out = Item;
    type Error = DuplicateKey;

    fn bare_item(
        self,
        bare_item: BareItemFromInput<'de>,
    ) -> Result<impl ParameterVisitor<'de, Out = Item>, DuplicateKey> {
        Ok(ItemParams(Item::new(bare_item)))
    }
}

/// The structured type of a field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SfType {
    Item,
    List,
    Dictionary,
}

/// Runs one of `sfv`'s visitor parsers over `input`, its error as text.
fn parse_with<'de, T>(
    input: &'de str,
    version: Version,
    parse: impl FnOnce(Parser<'de>) -> Result<T, sfv::Error>,
) -> Result<T, String> {
    parse(Parser::new(input).with_version(version)).map_err(|e| e.to_string())
}

/// Parses a dictionary, rejecting repeated keys (members and parameters).
pub(crate) fn parse_dictionary(input: &str, version: Version) -> Result<Dictionary, String> {
    parse_with(input, version, |p| {
        p.parse_dictionary_with_visitor(StrictDict::default())
    })
}

/// Parses the RFC 8941 dictionary of the header field `field` (`Signature-Input`, `Signature`,
/// `Content-Digest`), rejecting repeated keys; a field that does not parse is
/// [`HttpSigError::InvalidStructuredField`].
pub(crate) fn field_dictionary(field: &str, value: &str) -> crate::error::Result<Dictionary> {
    parse_dictionary(value, Version::Rfc8941).map_err(|detail| {
        crate::error::HttpSigError::InvalidStructuredField {
            field: field.to_owned(),
            detail,
        }
    })
}

/// Parses a list, rejecting repeated parameter keys.
pub(crate) fn parse_list(input: &str, version: Version) -> Result<List, String> {
    parse_with(input, version, |p| {
        p.parse_list_with_visitor(StrictList::default())
    })
}

/// Parses an item, rejecting repeated parameter keys.
pub(crate) fn parse_item(input: &str, version: Version) -> Result<Item, String> {
    parse_with(input, version, |p| p.parse_item_with_visitor(StrictItem))
}

/// Parses `input` as `ty` and returns its canonical serialization (RFC 8941 §4.1).
pub(crate) fn reserialize(input: &str, ty: SfType) -> Result<String, String> {
    Ok(match ty {
        SfType::Item => parse_item(input, Version::Rfc9651)?.serialize(),
        SfType::List => parse_list(input, Version::Rfc9651)?
            .serialize()
            .unwrap_or_default(),
        SfType::Dictionary => parse_dictionary(input, Version::Rfc9651)?
            .serialize()
            .unwrap_or_default(),
    })
}

/// Canonical serialization of one dictionary member value (an item or an inner list).
pub(crate) fn serialize_entry(entry: &ListEntry) -> String {
    match entry {
        ListEntry::Item(item) => item.serialize(),
        ListEntry::InnerList(_) => {
            let list: List = vec![entry.clone()];
            list.serialize().unwrap_or_default()
        }
    }
}

/// A short human name for the type of a bare item, for error messages.
pub(crate) fn bare_item_kind(item: &BareItem) -> &'static str {
    match item {
        BareItem::Decimal(_) => "decimal",
        BareItem::Integer(_) => "integer",
        BareItem::String(_) => "string",
        BareItem::ByteSequence(_) => "byte sequence",
        BareItem::Boolean(_) => "boolean",
        BareItem::Token(_) => "token",
        BareItem::Date(_) => "date",
        BareItem::DisplayString(_) => "display string",
    }
}
