//! The one error type of this crate, with a stable code per variant.

use std::fmt;

/// Every failure of this crate. Each variant has a stable kebab-case [`code`](HttpSigError::code)
/// prefixed `httpsig-`; the codes never change once published (new variants get new codes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HttpSigError {
    /// A value given through the API is not well-formed (a label that is not an sf-key, a field
    /// name that is not a token, a field value with a control character, ...).
    #[error("malformed input: {detail}")]
    MalformedInput {
        /// What is wrong.
        detail: String,
    },
    /// The HTTP/1.1 message text does not follow RFC 9112 (or a stricter rule of this crate).
    #[error("HTTP message syntax error (line {line}): {detail}")]
    MessageSyntax {
        /// 1-based line number where the problem was found (0: not tied to a line).
        line: usize,
        /// What is wrong.
        detail: String,
    },
    /// The HTTP message exceeds a configured bound (header count, header bytes, body bytes).
    #[error("HTTP message exceeds a limit: {detail}")]
    MessageTooLarge {
        /// Which limit.
        detail: String,
    },
    /// A structured field (RFC 8941) does not parse, has a duplicate key, or has the wrong shape.
    #[error("invalid structured field value in {field}: {detail}")]
    InvalidStructuredField {
        /// The field (or component) concerned.
        field: String,
        /// What is wrong.
        detail: String,
    },
    /// A component identifier is not valid (unknown derived component, bad or misplaced parameter).
    #[error("invalid component identifier {component}: {detail}")]
    InvalidComponent {
        /// The identifier as text.
        component: String,
        /// What is wrong.
        detail: String,
    },
    /// The same component identifier is listed twice (RFC 9421 §2.5).
    #[error("component identifier {component} is covered more than once")]
    DuplicateComponent {
        /// The identifier as text.
        component: String,
    },
    /// A covered component has no value in the message (absent field, absent query parameter,
    /// absent dictionary member).
    #[error("covered component {component} is not present in the message")]
    MissingComponent {
        /// The identifier as text.
        component: String,
    },
    /// `@status` was used with a request message (RFC 9421 §2.2.9).
    #[error("`@status` is only defined for response messages")]
    StatusOnRequest,
    /// A component cannot be derived from this kind of message (e.g. `@method` on a response
    /// without `req`, or `req` on a request).
    #[error("component {component} does not apply to this message: {detail}")]
    ComponentNotApplicable {
        /// The identifier as text.
        component: String,
        /// Why.
        detail: String,
    },
    /// A `req` component was used but the response carries no related request.
    #[error("component {component} needs the related request, which is not available")]
    RelatedRequestMissing {
        /// The identifier as text.
        component: String,
    },
    /// The `tr` (trailer) parameter was used; trailers are not supported by this crate.
    #[error(
        "component {component} refers to trailer fields, which this implementation does not support"
    )]
    TrailersUnsupported {
        /// The identifier as text.
        component: String,
    },
    /// `@query-param` names a parameter that occurs more than once (RFC 9421 §2.2.8).
    #[error("query parameter `{name}` occurs more than once and cannot be covered")]
    AmbiguousQueryParam {
        /// The (re-encoded) parameter name.
        name: String,
    },
    /// A signature parameter has the wrong type or value (RFC 9421 §2.3).
    #[error("invalid signature parameter `{param}`: {detail}")]
    InvalidParameter {
        /// Parameter name.
        param: String,
        /// What is wrong.
        detail: String,
    },
    /// The message has no `Signature-Input` field.
    #[error("the message has no Signature-Input field")]
    SignatureInputMissing,
    /// The requested label is not in `Signature-Input`.
    #[error("signature label `{label}` not found in Signature-Input")]
    LabelNotFound {
        /// The label.
        label: String,
    },
    /// The label is already used by a signature on the message.
    #[error("signature label `{label}` is already present on the message")]
    DuplicateLabel {
        /// The label.
        label: String,
    },
    /// The label is in `Signature-Input` but not in `Signature`.
    #[error("signature label `{label}` has no value in the Signature field")]
    SignatureMissing {
        /// The label.
        label: String,
    },
    /// The `Signature` member is not a 64-byte sf-binary.
    #[error("signature `{label}` is malformed: {detail}")]
    MalformedSignature {
        /// The label.
        label: String,
        /// What is wrong.
        detail: String,
    },
    /// The Ed25519 signature does not verify (RFC 8032 §5.1.7 with strict checks).
    #[error("signature `{label}` does not verify")]
    SignatureInvalid {
        /// The label.
        label: String,
    },
    /// The `alg` parameter names an algorithm other than `ed25519`.
    #[error("signature `{label}` declares alg `{alg}`, only `ed25519` is supported")]
    AlgMismatch {
        /// The label.
        label: String,
        /// The declared algorithm.
        alg: String,
    },
    /// `expires` is in the past (beyond the allowed clock skew).
    #[error("signature `{label}` expired at {expires} (now {now})")]
    Expired {
        /// The label.
        label: String,
        /// `expires` (Unix seconds).
        expires: i64,
        /// The caller's clock (Unix seconds).
        now: i64,
    },
    /// `created` is in the future (beyond the allowed clock skew).
    #[error("signature `{label}` was created at {created}, in the future (now {now})")]
    CreatedInFuture {
        /// The label.
        label: String,
        /// `created` (Unix seconds).
        created: i64,
        /// The caller's clock (Unix seconds).
        now: i64,
    },
    /// `created` is older than the policy's maximum age.
    #[error(
        "signature `{label}` was created at {created}, more than {max_age} s before now ({now})"
    )]
    TooOld {
        /// The label.
        label: String,
        /// `created` (Unix seconds).
        created: i64,
        /// The caller's clock (Unix seconds).
        now: i64,
        /// The policy's maximum age in seconds.
        max_age: u64,
    },
    /// No usable key for the signature's `keyid`.
    #[error("signature `{label}`: no usable key for keyid `{keyid}`: {detail}")]
    KeyUnresolved {
        /// The label.
        label: String,
        /// The `keyid` parameter (empty when absent).
        keyid: String,
        /// Why.
        detail: String,
    },
    /// `created` is earlier than the policy allows (for example, before what it signs existed).
    #[error(
        "signature `{label}` was created at {created}, before the earliest time allowed ({not_before})"
    )]
    CreatedTooEarly {
        /// The label.
        label: String,
        /// `created` (Unix seconds).
        created: i64,
        /// The earliest acceptable `created`.
        not_before: i64,
    },
    /// `expires` is not after `created`.
    #[error("signature `{label}` expires at {expires}, not after it was created ({created})")]
    InvalidExpiry {
        /// The label.
        label: String,
        /// `created` (Unix seconds).
        created: i64,
        /// `expires` (Unix seconds).
        expires: i64,
    },
    /// The policy requires a component that the signature does not cover.
    #[error("signature `{label}` does not cover required component {component}")]
    RequiredComponentNotCovered {
        /// The label.
        label: String,
        /// The identifier as text.
        component: String,
    },
    /// The policy requires a signature parameter that the signature does not carry.
    #[error("signature `{label}` lacks required parameter `{param}`")]
    RequiredParamMissing {
        /// The label.
        label: String,
        /// Parameter name.
        param: String,
    },
    /// The key could not be decoded (PEM, PKCS#8, SPKI, point encoding).
    #[error("invalid key: {detail}")]
    KeyInvalid {
        /// What is wrong.
        detail: String,
    },
    /// The public key is a small-order point (it would verify forged signatures).
    #[error("the public key is a small-order (weak) Ed25519 point")]
    WeakKey,
    /// A `Content-Digest` value does not match the message content (RFC 9530 §2).
    #[error("content digest `{alg}` does not match the content")]
    DigestMismatch {
        /// The algorithm key, e.g. `sha-256`.
        alg: String,
    },
    /// `Content-Digest` carries no algorithm this crate accepts (`sha-256`, `sha-512`).
    #[error("content digest has no supported algorithm: {detail}")]
    DigestUnsupported {
        /// What was found.
        detail: String,
    },
    /// A supported `Content-Digest` member is not a byte sequence of the right length.
    #[error("malformed content digest: {detail}")]
    DigestMalformed {
        /// What is wrong.
        detail: String,
    },
}

macro_rules! codes {
    ($( $variant:ident => $code:literal, $meaning:literal; )+) => {
        impl HttpSigError {
            /// The stable code of this error, e.g. `httpsig-signature-invalid`.
            pub fn code(&self) -> &'static str {
                match self { $( HttpSigError::$variant { .. } => $code, )+ }
            }
        }

        /// Every code of [`HttpSigError`] with a one-sentence meaning, in declaration order.
        pub const ALL_CODES: &[(&str, &str)] = &[ $( ($code, $meaning), )+ ];
    };
}

codes! {
    MalformedInput => "httpsig-malformed-input", "A value passed to the HTTP signature API is not well-formed.";
    MessageSyntax => "httpsig-message-syntax", "The HTTP/1.1 message text is not well-formed (RFC 9112, strict).";
    MessageTooLarge => "httpsig-message-too-large", "The HTTP message exceeds the header-count, header-size or body-size limit.";
    InvalidStructuredField => "httpsig-invalid-structured-field", "A structured field value (RFC 8941) does not parse, repeats a key, or has the wrong shape.";
    InvalidComponent => "httpsig-invalid-component", "A component identifier is unknown or carries invalid parameters (RFC 9421 §2).";
    DuplicateComponent => "httpsig-duplicate-component", "A component identifier is covered twice (RFC 9421 §2.5).";
    MissingComponent => "httpsig-missing-component", "A covered component is absent from the message.";
    StatusOnRequest => "httpsig-status-on-request", "`@status` was covered for a request message (RFC 9421 §2.2.9).";
    ComponentNotApplicable => "httpsig-component-not-applicable", "A component cannot be derived from this kind of message.";
    RelatedRequestMissing => "httpsig-related-request-missing", "A `req` component was covered but the related request is not available.";
    TrailersUnsupported => "httpsig-trailers-unsupported", "The `tr` (trailer) component parameter is not supported.";
    AmbiguousQueryParam => "httpsig-ambiguous-query-param", "`@query-param` names a parameter that occurs more than once (RFC 9421 §2.2.8).";
    InvalidParameter => "httpsig-invalid-parameter", "A signature parameter has the wrong type or value (RFC 9421 §2.3).";
    SignatureInputMissing => "httpsig-signature-input-missing", "The message has no Signature-Input field.";
    LabelNotFound => "httpsig-label-not-found", "The requested signature label is not in Signature-Input.";
    DuplicateLabel => "httpsig-duplicate-label", "The signature label is already used on the message.";
    SignatureMissing => "httpsig-signature-missing", "A label of Signature-Input has no value in the Signature field.";
    MalformedSignature => "httpsig-malformed-signature", "The Signature value is not a 64-byte sf-binary.";
    SignatureInvalid => "httpsig-signature-invalid", "The Ed25519 signature does not verify over the signature base (strict RFC 8032 checks).";
    AlgMismatch => "httpsig-alg-mismatch", "The `alg` signature parameter is not `ed25519`.";
    Expired => "httpsig-expired", "The signature's `expires` time has passed.";
    CreatedInFuture => "httpsig-created-in-future", "The signature's `created` time is in the future beyond the allowed clock skew.";
    TooOld => "httpsig-too-old", "The signature's `created` time is older than the policy's maximum age.";
    KeyUnresolved => "httpsig-key-unresolved", "No usable key for the signature's keyid.";
    CreatedTooEarly => "httpsig-created-too-early", "The signature's `created` time is earlier than the policy allows.";
    InvalidExpiry => "httpsig-invalid-expiry", "The signature's `expires` time is not after its `created` time.";
    RequiredComponentNotCovered => "httpsig-required-component-not-covered", "The signature does not cover a component the policy requires.";
    RequiredParamMissing => "httpsig-required-param-missing", "The signature lacks a parameter the policy requires.";
    KeyInvalid => "httpsig-key-invalid", "The Ed25519 key cannot be decoded.";
    WeakKey => "httpsig-weak-key", "The Ed25519 public key is a small-order point.";
    DigestMismatch => "httpsig-digest-mismatch", "A Content-Digest value does not match the message content (RFC 9530).";
    DigestUnsupported => "httpsig-digest-unsupported", "Content-Digest has no sha-256 or sha-512 member.";
    DigestMalformed => "httpsig-digest-malformed", "A sha-256/sha-512 Content-Digest member is not a byte sequence of the right length.";
}

/// Shorthand for results of this crate.
pub type Result<T> = std::result::Result<T, HttpSigError>;

pub(crate) fn malformed(detail: impl fmt::Display) -> HttpSigError {
    HttpSigError::MalformedInput {
        detail: detail.to_string(),
    }
}
