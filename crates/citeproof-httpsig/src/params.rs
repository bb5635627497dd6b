//! Signature parameters and the `Signature-Input` / `Signature` fields (RFC 9421 §2.3, §4.1, §4.2).

use sfv::{
    BareItem, FieldType, InnerList, Integer, Item, KeyRef, List, ListEntry, Parameters, StringRef,
    Version,
};

use crate::component::ComponentId;
use crate::error::{HttpSigError, Result, malformed};
use crate::sf;

/// A signature parameter (RFC 9421 §2.3). Integers are Unix seconds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SigParam {
    /// `created`: creation time.
    Created(i64),
    /// `expires`: expiration time.
    Expires(i64),
    /// `nonce`: a unique value.
    Nonce(String),
    /// `alg`: the algorithm; this crate only accepts `ed25519`.
    Alg(String),
    /// `keyid`: the key identifier.
    KeyId(String),
    /// `tag`: an application-specific tag.
    Tag(String),
    /// A parameter this crate does not know (RFC 9421 §6.3: the registry is extensible). It
    /// is kept, with its value as serialized sf bare item text, so the `@signature-params` line
    /// reproduces the signer's bytes; it is covered by the signature and otherwise ignored.
    Other {
        /// Parameter key.
        name: String,
        /// The value as a serialized sf bare item.
        value: String,
    },
}

/// Names of the signature parameters, for policies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ParamName {
    /// `created`
    Created,
    /// `expires`
    Expires,
    /// `nonce`
    Nonce,
    /// `alg`
    Alg,
    /// `keyid`
    KeyId,
    /// `tag`
    Tag,
    /// Any parameter not registered by RFC 9421.
    Other,
}

impl ParamName {
    /// The parameter key as serialized.
    pub fn as_str(self) -> &'static str {
        match self {
            ParamName::Created => "created",
            ParamName::Expires => "expires",
            ParamName::Nonce => "nonce",
            ParamName::Alg => "alg",
            ParamName::KeyId => "keyid",
            ParamName::Tag => "tag",
            ParamName::Other => "(unregistered)",
        }
    }
}

impl SigParam {
    /// The parameter's name.
    pub fn name(&self) -> ParamName {
        match self {
            SigParam::Created(_) => ParamName::Created,
            SigParam::Expires(_) => ParamName::Expires,
            SigParam::Nonce(_) => ParamName::Nonce,
            SigParam::Alg(_) => ParamName::Alg,
            SigParam::KeyId(_) => ParamName::KeyId,
            SigParam::Tag(_) => ParamName::Tag,
            SigParam::Other { .. } => ParamName::Other,
        }
    }

    /// The parameter key as serialized.
    pub fn key(&self) -> &str {
        match self {
            SigParam::Other { name, .. } => name,
            known => known.name().as_str(),
        }
    }
}

/// The builder (`with_*`) and the reader of each registered parameter: twelve methods that,
/// written out, differ only in the parameter's name and value type (a macro, so that every
/// parameter gets both and they cannot drift apart).
macro_rules! param_accessors {
    ($($ty:tt: $key:literal $variant:ident, $with:ident, $get:ident;)*) => {$(
        param_accessors!(@one $ty, $key, $variant, $with, $get);
    )*};
    (@one i64, $key:literal, $variant:ident, $with:ident, $get:ident) => {
        #[doc = concat!("Appends `", $key, "`.")]
        pub fn $with(mut self, value: i64) -> Self {
            self.params.push(SigParam::$variant(value));
            self
        }

        #[doc = concat!("`", $key, "`, if present.")]
        pub fn $get(&self) -> Option<i64> {
            self.params.iter().find_map(|p| match p {
                SigParam::$variant(v) => Some(*v),
                _ => None,
            })
        }
    };
    (@one str, $key:literal, $variant:ident, $with:ident, $get:ident) => {
        #[doc = concat!("Appends `", $key, "`.")]
        pub fn $with(mut self, value: &str) -> Self {
            self.params.push(SigParam::$variant(value.to_owned()));
            self
        }

        #[doc = concat!("`", $key, "`, if present.")]
        pub fn $get(&self) -> Option<&str> {
            self.params.iter().find_map(|p| match p {
                SigParam::$variant(v) => Some(v.as_str()),
                _ => None,
            })
        }
    };
}

/// The covered components and signature parameters of one signature: the value of one
/// `Signature-Input` member and of the `@signature-params` line (RFC 9421 §2.3). Parameters are
/// serialized in the order they were added / parsed.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SignatureParams {
    /// Covered components, in order.
    pub components: Vec<ComponentId>,
    /// Signature parameters, in order.
    pub params: Vec<SigParam>,
}

impl SignatureParams {
    /// Parameters covering `components`, with no signature parameters yet.
    pub fn new(components: Vec<ComponentId>) -> Self {
        Self {
            components,
            params: Vec::new(),
        }
    }

    /// Whether the parameter is present.
    pub fn has(&self, name: ParamName) -> bool {
        self.params.iter().any(|p| p.name() == name)
    }

    param_accessors! {
        i64: "created" Created, with_created, created;
        i64: "expires" Expires, with_expires, expires;
        str: "nonce" Nonce, with_nonce, nonce;
        str: "alg" Alg, with_alg, alg;
        str: "keyid" KeyId, with_keyid, keyid;
        str: "tag" Tag, with_tag, tag;
    }

    /// Checks components (valid, no duplicates — RFC 9421 §2.5) and parameters (no repeats,
    /// integers in the sf-integer range and not negative, strings valid sf-strings).
    pub fn validate(&self) -> Result<()> {
        for (i, c) in self.components.iter().enumerate() {
            c.validate()?;
            if self.components[..i].iter().any(|d| d.same_as(c)) {
                return Err(HttpSigError::DuplicateComponent {
                    component: c.to_string(),
                });
            }
        }
        for (i, p) in self.params.iter().enumerate() {
            let name = p.key();
            if self.params[..i].iter().any(|q| q.key() == name) {
                return Err(HttpSigError::InvalidParameter {
                    param: name.to_owned(),
                    detail: "repeated".into(),
                });
            }
            match p {
                SigParam::Created(v) | SigParam::Expires(v) => {
                    if *v < 0 || Integer::try_from(*v).is_err() {
                        return Err(HttpSigError::InvalidParameter {
                            param: name.to_owned(),
                            detail: format!("{v} is not a non-negative sf-integer"),
                        });
                    }
                }
                SigParam::Nonce(v) | SigParam::Alg(v) | SigParam::KeyId(v) | SigParam::Tag(v) => {
                    if StringRef::from_str(v).is_err() {
                        return Err(HttpSigError::InvalidParameter {
                            param: name.to_owned(),
                            detail: "not a valid sf-string (printable ASCII only)".into(),
                        });
                    }
                }
                SigParam::Other { name, value } => {
                    if KeyRef::from_str(name).is_err() {
                        return Err(HttpSigError::InvalidParameter {
                            param: name.clone(),
                            detail: "not an sf-key".into(),
                        });
                    }
                    sf::parse_item(value, Version::Rfc8941).map_err(|e| {
                        HttpSigError::InvalidParameter {
                            param: name.clone(),
                            detail: e,
                        }
                    })?;
                }
            }
        }
        if let (Some(c), Some(e)) = (self.created(), self.expires())
            && e < c
        {
            return Err(HttpSigError::InvalidParameter {
                param: "expires".into(),
                detail: format!("expires ({e}) is before created ({c})"),
            });
        }
        Ok(())
    }

    fn to_inner_list(&self) -> Result<InnerList> {
        self.validate()?;
        let mut items = Vec::with_capacity(self.components.len());
        for c in &self.components {
            let text = c.serialize()?;
            let item = sf::parse_item(&text, Version::Rfc8941).map_err(malformed)?;
            items.push(item);
        }
        let mut params = Parameters::new();
        for p in &self.params {
            let key = KeyRef::from_str(p.key())
                .map_err(|e| malformed(e.to_string()))?
                .to_owned();
            let value: BareItem = match p {
                SigParam::Created(v) | SigParam::Expires(v) => {
                    BareItem::Integer(Integer::try_from(*v).map_err(|e| malformed(e.to_string()))?)
                }
                SigParam::Nonce(v) | SigParam::Alg(v) | SigParam::KeyId(v) | SigParam::Tag(v) => {
                    BareItem::String(
                        StringRef::from_str(v)
                            .map_err(|e| malformed(e.to_string()))?
                            .to_owned(),
                    )
                }
                SigParam::Other { value, .. } => {
                    sf::parse_item(value, Version::Rfc8941)
                        .map_err(malformed)?
                        .bare_item
                }
            };
            params.insert(key, value);
        }
        Ok(InnerList::with_params(items, params))
    }

    /// The canonical serialization of the inner list (RFC 9421 §2.3), e.g.
    /// `("@method" "@authority");created=1618884473;keyid="test-key-ed25519"`. This is the value
    /// of the `@signature-params` line and of the `Signature-Input` member.
    pub fn serialize(&self) -> Result<String> {
        let list: List = vec![ListEntry::InnerList(self.to_inner_list()?)];
        list.serialize()
            .ok_or_else(|| malformed("empty serialization"))
    }

    fn from_inner_list(list: &InnerList) -> Result<Self> {
        let mut components = Vec::with_capacity(list.items.len());
        for item in &list.items {
            components.push(ComponentId::from_sf_item(item)?);
        }
        let mut params = Vec::with_capacity(list.params.len());
        for (key, value) in &list.params {
            let key = key.as_str();
            let int = |v: &BareItem| -> Result<i64> {
                match v {
                    BareItem::Integer(i) => Ok(i64::from(*i)),
                    other => Err(HttpSigError::InvalidParameter {
                        param: key.to_owned(),
                        detail: format!("must be an integer, not a {}", sf::bare_item_kind(other)),
                    }),
                }
            };
            let string = |v: &BareItem| -> Result<String> {
                match v {
                    BareItem::String(s) => Ok(s.as_str().to_owned()),
                    other => Err(HttpSigError::InvalidParameter {
                        param: key.to_owned(),
                        detail: format!("must be a string, not a {}", sf::bare_item_kind(other)),
                    }),
                }
            };
            params.push(match key {
                "created" => SigParam::Created(int(value)?),
                "expires" => SigParam::Expires(int(value)?),
                "nonce" => SigParam::Nonce(string(value)?),
                "alg" => SigParam::Alg(string(value)?),
                "keyid" => SigParam::KeyId(string(value)?),
                "tag" => SigParam::Tag(string(value)?),
                _ => SigParam::Other {
                    name: key.to_owned(),
                    value: Item::new(value.clone()).serialize(),
                },
            });
        }
        let out = Self { components, params };
        out.validate()?;
        Ok(out)
    }
}

fn check_label(label: &str) -> Result<()> {
    KeyRef::from_str(label)
        .map(|_| ())
        .map_err(|_| malformed(format!("signature label {label:?} is not an sf-key")))
}

/// The signature parameters of a received inner list, in order, for reporting. A registered
/// parameter of the wrong type is kept as unregistered (the verifier has refused such a label
/// before it reports one).
pub(crate) fn params_of(list: &InnerList) -> Vec<SigParam> {
    list.params
        .iter()
        .map(|(key, value)| {
            let key = key.as_str();
            match (key, value) {
                ("created", BareItem::Integer(i)) => SigParam::Created(i64::from(*i)),
                ("expires", BareItem::Integer(i)) => SigParam::Expires(i64::from(*i)),
                ("nonce", BareItem::String(s)) => SigParam::Nonce(s.as_str().to_owned()),
                ("alg", BareItem::String(s)) => SigParam::Alg(s.as_str().to_owned()),
                ("keyid", BareItem::String(s)) => SigParam::KeyId(s.as_str().to_owned()),
                ("tag", BareItem::String(s)) => SigParam::Tag(s.as_str().to_owned()),
                _ => SigParam::Other {
                    name: key.to_owned(),
                    value: Item::new(value.clone()).serialize(),
                },
            }
        })
        .collect()
}

/// One `Signature-Input` member: `label=(...);params`.
pub(crate) fn signature_input_member(label: &str, params: &SignatureParams) -> Result<String> {
    check_label(label)?;
    Ok(format!("{label}={}", params.serialize()?))
}

/// Parses a `Signature-Input` field value (RFC 9421 §4.1): an sf-dictionary whose members are
/// inner lists of component identifiers with signature parameters. Strict: repeated labels,
/// repeated parameters, non-string component identifiers, unknown parameters and duplicate
/// components are errors. Returns the members in order.
pub fn parse_signature_input(value: &str) -> Result<Vec<(String, SignatureParams)>> {
    let dict = sf::field_dictionary("Signature-Input", value)?;
    let mut out = Vec::with_capacity(dict.len());
    for (label, entry) in &dict {
        let ListEntry::InnerList(list) = entry else {
            return Err(HttpSigError::InvalidStructuredField {
                field: "Signature-Input".into(),
                detail: format!("member `{label}` is not an inner list"),
            });
        };
        out.push((
            label.as_str().to_owned(),
            SignatureParams::from_inner_list(list)?,
        ));
    }
    Ok(out)
}

/// Parses a `Signature` field value (RFC 9421 §4.2): an sf-dictionary whose members are byte
/// sequences without parameters. Strict: repeated labels and non-binary members are errors.
pub fn parse_signature(value: &str) -> Result<Vec<(String, Vec<u8>)>> {
    let dict = sf::field_dictionary("Signature", value)?;
    let mut out = Vec::with_capacity(dict.len());
    for (label, entry) in &dict {
        match entry {
            ListEntry::Item(Item {
                bare_item: BareItem::ByteSequence(bytes),
                params,
            }) if params.is_empty() => out.push((label.as_str().to_owned(), bytes.clone())),
            _ => {
                return Err(HttpSigError::MalformedSignature {
                    label: label.as_str().to_owned(),
                    detail: "not an sf-binary without parameters".into(),
                });
            }
        }
    }
    Ok(out)
}

pub(crate) fn validate_label(label: &str) -> Result<()> {
    check_label(label)
}
