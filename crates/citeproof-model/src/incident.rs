//! The one registry of incident / error codes shared by the verifier, the vectors and the
//! conformance runner. `docs/PROFILE.md` ("Incident code registry") lists the same codes; a test
//! keeps the two identical.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How bad an incident is. `Error` makes the affected level fail; `Warning` never does.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        })
    }
}

macro_rules! incident_codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $sev:ident, $meaning:literal; )+) => {
        /// A stable, kebab-case incident code. The string form never changes once published.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum IncidentCode {
            $( $(#[$doc])* $variant, )+
        }

        impl IncidentCode {
            /// Every registered code, in registry order.
            pub const ALL: &'static [IncidentCode] = &[ $( IncidentCode::$variant, )+ ];

            /// The stable string form, e.g. `json-duplicate-member`.
            pub const fn as_str(self) -> &'static str {
                match self { $( IncidentCode::$variant => $code, )+ }
            }

            /// Default severity of the code.
            pub const fn severity(self) -> Severity {
                match self { $( IncidentCode::$variant => Severity::$sev, )+ }
            }

            /// One-sentence meaning, as in the registry of `docs/PROFILE.md`.
            pub const fn meaning(self) -> &'static str {
                match self { $( IncidentCode::$variant => $meaning, )+ }
            }

            /// Looks a code up by its string form.
            pub fn from_code(code: &str) -> Option<IncidentCode> {
                match code { $( $code => Some(IncidentCode::$variant), )+ _ => None }
            }
        }
    };
}

incident_codes! {
    // ---- JSON input (any document) ----
    JsonSyntax = "json-syntax", Error, "The input is not well-formed JSON (RFC 8259).";
    JsonDuplicateMember = "json-duplicate-member", Error, "An object has two members with the same name (forbidden by I-JSON, RFC 7493 §2.3).";
    JsonLoneSurrogate = "json-lone-surrogate", Error, "A string contains an unpaired UTF-16 surrogate escape (forbidden by I-JSON, RFC 7493 §2.1).";
    JsonNumberOutOfRange = "json-number-out-of-range", Error, "A number is not representable as a finite IEEE 754 double (RFC 7493 §2.2).";
    JsonInvalidUtf8 = "json-invalid-utf8", Error, "The input is not valid UTF-8.";
    JsonTooLarge = "json-too-large", Error, "The input exceeds the size or nesting-depth limit.";
    JsonNoncharacter = "json-noncharacter", Error, "A string contains a Unicode noncharacter code point (forbidden by I-JSON, RFC 7493 §2.1).";
    // ---- schema ----
    SchemaViolation = "schema-violation", Error, "The document does not validate against its citeproof JSON Schema.";
    UnknownMember = "unknown-member", Error, "An object has a member that is neither defined nor an `x-` extension.";
    SchemaTimestampInvalid = "schema-timestamp-invalid", Error, "A timestamp or date is not in the RFC 3339 form this profile requires.";
    // ---- canonical forms and content hashes ----
    CanonHashSyntax = "canon-hash-syntax", Error, "A content hash is not `sha256:` followed by 64 lowercase hex digits.";
    CanonTextNotUtf8 = "canon-text-not-utf8", Error, "Bytes that must be read as text for an AEF §5 hash or a selector are not well-formed UTF-8.";
    // ---- JWK and JWK Set (names shared with citeproof-jose) ----
    JwkMalformed = "jwk-malformed", Error, "A JWK or JWK Set is not a JSON object of the required shape, or a member has the wrong type or is not unpadded base64url.";
    JwkSetEmpty = "jwk-set-empty", Error, "A JWK Set has no keys.";
    JwkUnsupportedKeyType = "jwk-unsupported-key-type", Error, "A JWK `kty` is not `OKP`.";
    JwkUnsupportedCurve = "jwk-unsupported-curve", Error, "A JWK `crv` is not `Ed25519`.";
    JwkInvalidKeyLength = "jwk-invalid-key-length", Error, "A JWK `x` does not decode to exactly 32 bytes.";
    JwkInvalidPoint = "jwk-invalid-point", Error, "A JWK `x` is not the canonical encoding of an edwards25519 point.";
    JwkWeakKey = "jwk-weak-key", Error, "A JWK public key is an Ed25519 point of small order.";
    JwkPrivateKeyPublished = "jwk-private-key-published", Error, "A published JWK contains the private key member `d`.";
    JwkKidMissing = "jwk-kid-missing", Error, "A JWK that must carry a key id has no `kid`.";
    JwkDuplicateKid = "jwk-duplicate-kid", Error, "Two different keys available in one context have the same `kid`.";
    JwkUseMismatch = "jwk-use-mismatch", Error, "A JWK `use` is present and is not `sig`.";
    JwkAlgMismatch = "jwk-alg-mismatch", Error, "A JWK `alg` is present and is not `EdDSA`.";
    // ---- JWS, AEF Level 3 (names shared with citeproof-jose) ----
    JwsTooLarge = "jws-too-large", Error, "A compact JWS is longer than 65536 bytes.";
    JwsMalformed = "jws-malformed", Error, "A JWS is not three `.`-separated segments with a non-empty header and signature.";
    JwsBase64Invalid = "jws-base64-invalid", Error, "A JWS segment is not canonical unpadded base64url.";
    JwsHeaderInvalid = "jws-header-invalid", Error, "A JWS protected header is not an I-JSON object, or `alg` or `kid` is not a string.";
    JwsAlgMissing = "jws-alg-missing", Error, "A JWS protected header has no `alg`.";
    JwsAlgForbidden = "jws-alg-forbidden", Error, "A JWS header `alg` is not `EdDSA`.";
    JwsCritUnsupported = "jws-crit-unsupported", Error, "A JWS header has a `crit` member.";
    JwsB64Unsupported = "jws-b64-unsupported", Error, "A JWS header has a `b64` member (RFC 7797 unencoded payloads are not supported).";
    JwsPayloadAttached = "jws-payload-attached", Error, "A JWS carries an attached payload instead of the detached form `header..signature`.";
    // ---- HTTP message signatures, ACA Level 3 (names shared with citeproof-httpsig) ----
    HttpsigInvalidStructuredField = "httpsig-invalid-structured-field", Error, "A `Signature-Input`, `Signature` or `Content-Digest` field is not a structured field of the required shape (RFC 8941).";
    HttpsigSignatureMissing = "httpsig-signature-missing", Error, "A label of `Signature-Input` has no value in the `Signature` field.";
    HttpsigMalformedSignature = "httpsig-malformed-signature", Error, "A `Signature` value is not a 64-byte byte sequence.";
    HttpsigInvalidComponent = "httpsig-invalid-component", Error, "A covered component identifier is unknown or carries invalid parameters (RFC 9421 §2).";
    HttpsigDuplicateComponent = "httpsig-duplicate-component", Error, "A component identifier is covered twice by one signature.";
    HttpsigMissingComponent = "httpsig-missing-component", Error, "A component covered by a signature is absent from the signed response.";
    HttpsigRequiredComponentNotCovered = "httpsig-required-component-not-covered", Error, "A signature does not cover `@status`, `content-type` and `content-digest`.";
    HttpsigRequiredParamMissing = "httpsig-required-param-missing", Error, "A signature lacks the `created` or `keyid` parameter.";
    HttpsigInvalidParameter = "httpsig-invalid-parameter", Error, "A signature parameter has the wrong type or value (RFC 9421 §2.3).";
    HttpsigAlgMismatch = "httpsig-alg-mismatch", Error, "A signature `alg` parameter is present and is not `ed25519`.";
    HttpsigCreatedInFuture = "httpsig-created-in-future", Error, "A signature `created` time is more than 300 seconds after the verification time.";
    HttpsigExpired = "httpsig-expired", Error, "A signature `expires` time is not after `created` or lies more than 300 seconds before the verification time.";
    HttpsigTooOld = "httpsig-too-old", Error, "A signature `created` time is older than the maximum age the verifier was configured with.";
    // ---- fetching (names shared with citeproof-fetch) ----
    FetchUrlInvalid = "fetch-url-invalid", Error, "A URL to be fetched is not an absolute `scheme://authority` URL of at most 8192 bytes without whitespace, control characters or backslashes.";
    FetchSchemeForbidden = "fetch-scheme-forbidden", Error, "A URL to be fetched has a scheme other than `http` or `https`.";
    FetchCredentialsInUrl = "fetch-credentials-in-url", Error, "A URL to be fetched has userinfo in its authority.";
    FetchPortForbidden = "fetch-port-forbidden", Error, "A URL to be fetched has port 0 or a port on the Fetch standard's bad-port list.";
    FetchAddressForbidden = "fetch-address-forbidden", Error, "A host is or resolves to an address that is not globally routable unicast and is not explicitly allowed.";
    FetchDnsFailed = "fetch-dns-failed", Error, "Name resolution of a host failed or returned no address.";
    FetchConnectFailed = "fetch-connect-failed", Error, "The TCP connection to a server could not be established.";
    FetchTimeout = "fetch-timeout", Error, "A fetch exceeded the connect timeout or the total timeout.";
    FetchTooLarge = "fetch-too-large", Error, "A response body exceeded the size cap.";
    FetchTooManyRedirects = "fetch-too-many-redirects", Error, "A fetch needed more than 5 redirects.";
    FetchRedirectInvalid = "fetch-redirect-invalid", Error, "A redirect has a missing, repeated, unusable or too long `Location`, or leads from `https` to `http`.";
    FetchTlsFailed = "fetch-tls-failed", Error, "The TLS handshake failed or the server certificate did not validate for the host.";
    FetchProtocolError = "fetch-protocol-error", Error, "A server's response is not valid HTTP.";
    FetchIoFailed = "fetch-io-failed", Error, "An established connection failed before the response was complete.";
    FetchNotInSnapshot = "fetch-not-in-snapshot", Error, "A URL to be fetched is not in the recorded web snapshot being replayed.";
    FetchBudgetExhausted = "fetch-budget-exhausted", Error, "The verification used up its fetch budget (fetch count, total body bytes or time); the URL was not fetched.";
    FetchSnapshotInvalid = "fetch-snapshot-invalid", Error, "The recorded web snapshot being replayed is unusable.";
    FetchHttpStatus = "fetch-http-status", Error, "A server answered with a status that the fetch does not accept.";
    FetchContentEncoding = "fetch-content-encoding", Error, "A server applied a content coding although `Accept-Encoding: identity` was requested.";
    // ---- ACA Level 1: Citation-Source header ----
    AcaResponseFetchFailed = "aca-response-fetch-failed", Error, "The agent response could not be fetched with final status 200 and no content coding (a snapshot's response included).";
    AcaHeaderMissing = "aca-header-missing", Error, "The response has no `Citation-Source` field, or the field lists no source.";
    AcaHeaderSyntax = "aca-header-syntax", Error, "The `Citation-Source` field value does not match the profile grammar.";
    AcaHeaderTooLong = "aca-header-too-long", Error, "The `Citation-Source` field value exceeds 8192 bytes or 256 entries.";
    AcaHeaderDuplicateSource = "aca-header-duplicate-source", Error, "A source URL occurs more than once in the `Citation-Source` field.";
    AcaHeaderManifestMissing = "aca-header-manifest-missing", Error, "A `Citation-Source` entry has no `manifest` parameter.";
    AcaHeaderParamDuplicate = "aca-header-param-duplicate", Error, "A parameter name occurs more than once in one `Citation-Source` entry.";
    AcaHeaderParamForm = "aca-header-param-form", Error, "A `manifest` or `run` parameter value is not a quoted-string without backslash escapes.";
    AcaUrlInvalid = "aca-url-invalid", Error, "A source, manifest or chain URL is not an absolute http or https URL of at most 2048 bytes.";
    AcaRunIdInvalid = "aca-run-id-invalid", Error, "A run id does not match `^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$`.";
    AcaRunMismatch = "aca-run-mismatch", Error, "Manifests or `run` parameters of one response name different runs, so a manifest was reused across runs.";
    AcaRunMissing = "aca-run-missing", Error, "A header entry has no `run` parameter, so its manifest is not bound to this response's run (Level 2).";
    AcaClaimNotInResponse = "aca-claim-not-in-response", Error, "A manifest claim's text does not occur in the response body: the manifest describes another response.";
    AcaResponseUrlMismatch = "aca-response-url-mismatch", Error, "A manifest's `response_url` is not the URL of the response under verification: the manifest was emitted for another response.";
    AcaResponseUnbound = "aca-response-unbound", Warning, "A manifest has no `response_url`, so a copy of its response served at another URL can only be told apart by a verifier's history.";
    AcaManifestReused = "aca-manifest-reused", Error, "A manifest without `response_url` already seen by this verifier under another run or for another response is cited again.";
    AcaManifestOriginUnauthorized = "aca-manifest-origin-unauthorized", Error, "A manifest is hosted on an origin that the response origin's discovery document does not authorize.";
    // ---- ACA Level 2: manifests ----
    AcaManifestFetchFailed = "aca-manifest-fetch-failed", Error, "A manifest URL could not be fetched with status 200.";
    AcaManifestContentType = "aca-manifest-content-type", Error, "A manifest response's media type is not `application/json` or a `+json` type.";
    AcaClaimIdInvalid = "aca-claim-id-invalid", Error, "A `claim_id` does not match `^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$`.";
    AcaClaimIdDuplicate = "aca-claim-id-duplicate", Error, "Two claims of one manifest have the same `claim_id`.";
    AcaClaimIdConflict = "aca-claim-id-conflict", Error, "One `claim_id` names claims with different text in different manifests of a response.";
    AcaConfidenceInvalid = "aca-confidence-invalid", Error, "A claim `confidence` is not `high`, `medium` or `low`.";
    AcaHashMissing = "aca-hash-missing", Error, "A claim source has no `hash`.";
    AcaOffsetMissing = "aca-offset-missing", Error, "A claim source has no `excerpt_offset`.";
    AcaOffsetInvalid = "aca-offset-invalid", Error, "An `excerpt_offset` is not two integers `[start, end]` with start less than end.";
    AcaOffsetOutOfRange = "aca-offset-out-of-range", Error, "An `excerpt_offset` end is beyond the length of the source body.";
    AcaExcerptNotUtf8 = "aca-excerpt-not-utf8", Error, "The bytes at an `excerpt_offset` are not well-formed UTF-8.";
    AcaRetrievedAfterEmitted = "aca-retrieved-after-emitted", Error, "A source's `retrieved_at` is later than its manifest's `emitted_at`.";
    AcaEmittedInFuture = "aca-emitted-in-future", Warning, "A manifest's `emitted_at` is more than 300 seconds after the verification time.";
    AcaSourceNotInManifest = "aca-source-not-in-manifest", Error, "The manifest listed for a source has no claim citing that source.";
    AcaSourceNotInHeader = "aca-source-not-in-header", Error, "A claim cites a source URL that the `Citation-Source` field does not list.";
    AcaSourceFetchFailed = "aca-source-fetch-failed", Error, "A source URL could not be fetched with status 200 and no content coding.";
    AcaSourceHashMismatch = "aca-source-hash-mismatch", Error, "The SHA-256 of a source body differs from the recorded `hash`, so the source changed.";
    AcaExcerptIntact = "aca-excerpt-intact", Warning, "A changed source still contains exactly one passage with the recorded `excerpt_hash`.";
    AcaExcerptChanged = "aca-excerpt-changed", Error, "A changed source no longer contains exactly one passage with the recorded `excerpt_hash`.";
    AcaExcerptHashMismatch = "aca-excerpt-hash-mismatch", Error, "The excerpt of an unchanged source does not have the recorded `excerpt_hash`.";
    AcaClaimUnsupported = "aca-claim-unsupported", Error, "A claim's text is not supported by its excerpts under the profile's support check.";
    AcaSourceIrrelevant = "aca-source-irrelevant", Warning, "A source's excerpt shares no content word with the claim citing it.";
    AcaExcerptTooLong = "aca-excerpt-too-long", Error, "An excerpt is longer than the cap for its claim: a whole page is not an excerpt.";
    AcaJudgeUnsupported = "aca-judge-unsupported", Error, "A support judge added by the verifier's configuration found the claim unsupported.";
    AcaJudgeFailed = "aca-judge-failed", Error, "A support judge could not give a verdict (crashed, timed out or answered malformed).";
    AcaBudgetExhausted = "aca-budget-exhausted", Error, "The excerpts to support-check exceed the verification's work budget; the remaining claims are not checked.";
    // ---- ACA Level 3: chain and signature ----
    AcaChainMissing = "aca-chain-missing", Error, "A manifest has no non-empty `chain` array.";
    AcaChainStepOrder = "aca-chain-step-order", Error, "Chain `step` numbers are not the integers 1 to n in array order.";
    AcaChainToolMissing = "aca-chain-tool-missing", Error, "A chain step has no non-empty `tool`.";
    AcaChainOutputsRefMissing = "aca-chain-outputs-ref-missing", Error, "A chain step has no non-empty `outputs_ref`.";
    AcaChainOutputsRefDuplicate = "aca-chain-outputs-ref-duplicate", Error, "Two steps of one chain have the same `outputs_ref`.";
    AcaChainRefInvalid = "aca-chain-ref-invalid", Error, "An `inputs_ref` is not a non-empty string or a non-empty array of distinct non-empty strings.";
    AcaChainRefUnknown = "aca-chain-ref-unknown", Error, "An `inputs_ref` names no step's `outputs_ref`.";
    AcaChainRefForward = "aca-chain-ref-forward", Error, "An `inputs_ref` names the `outputs_ref` of the same or a later step.";
    AcaChainInputsMissing = "aca-chain-inputs-missing", Error, "A chain step has none of `inputs`, `inputs_hash` and `inputs_ref`.";
    AcaChainInputsHashMismatch = "aca-chain-inputs-hash-mismatch", Error, "A chain step's `inputs_hash` differs from the SHA-256 of the JCS form of its `inputs`.";
    AcaSourceNotInChain = "aca-source-not-in-chain", Error, "A claim cites a source URL that no chain step lists in its `sources`.";
    AcaSignatureMissing = "aca-signature-missing", Error, "A manifest response carries no HTTP message signature.";
    AcaSignatureInvalid = "aca-signature-invalid", Error, "An HTTP message signature of a manifest response does not verify with the agent's key.";
    AcaSignaturePredatesRun = "aca-signature-predates-run", Error, "A manifest signature was created more than the clock skew before the manifest's `emitted_at`.";
    AcaContentDigestMissing = "aca-content-digest-missing", Error, "A manifest response has no `Content-Digest` field with a `sha-256` or `sha-512` member.";
    AcaContentDigestInvalid = "aca-content-digest-invalid", Error, "A `sha-256` or `sha-512` member of `Content-Digest` is not a byte sequence of the right length.";
    AcaContentDigestMismatch = "aca-content-digest-mismatch", Error, "A `Content-Digest` value differs from the digest of the manifest body.";
    AcaManifestNotJcs = "aca-manifest-not-jcs", Error, "A Level 3 manifest body is not byte-identical to its RFC 8785 canonical form.";
    AcaKeyUnresolved = "aca-key-unresolved", Error, "A signature `keyid` matches no usable key published by the agent's discovery document.";
    // ---- ACA discovery ----
    AcaDiscoveryFetchFailed = "aca-discovery-fetch-failed", Error, "The discovery document could not be fetched from `/.well-known/agent-citation-attribution` as JSON with status 200.";
    AcaDiscoveryInvalid = "aca-discovery-invalid", Error, "The discovery document lacks a required member or has a member of the wrong form.";
    AcaDiscoveryVersionUnsupported = "aca-discovery-version-unsupported", Error, "The discovery document `version` is not `1.0`.";
    AcaDiscoverySigningUnsupported = "aca-discovery-signing-unsupported", Error, "The discovery document's `supported_signing` does not include `http-message-signatures`.";
    AcaDiscoveryKeysMissing = "aca-discovery-keys-missing", Error, "The discovery document publishes neither `keys` nor `jwks_uri`.";
    AcaJwksFetchFailed = "aca-jwks-fetch-failed", Error, "The discovery document's `jwks_uri` could not be fetched with status 200.";
    // ---- AI Evidence Format ----
    AefVersionUnsupported = "aef-version-unsupported", Error, "The `evidence_version` is not `0.1`.";
    AefVocabularyInvalid = "aef-vocabulary-invalid", Error, "An enumerated AEF member has a value from neither the spec nor the landing page.";
    AefNonstandardVocabulary = "aef-nonstandard-vocabulary", Warning, "An enumerated AEF member uses a landing-page-only value instead of a spec value.";
    AefPublishedAfterFetched = "aef-published-after-fetched", Warning, "A source's `published_at` is later than its `fetched_at`.";
    AefFetchedInFuture = "aef-fetched-in-future", Warning, "A source's `fetched_at` is more than 300 seconds after the verification time.";
    AefExactTextMissing = "aef-exact-text-missing", Warning, "A span that selects part of a source has no `exact_text`.";
    AefSelectorValueIgnored = "aef-selector-value-ignored", Warning, "A span with selector type `none` has a `selector_value`, which is ignored.";
    AefSelectorInvalid = "aef-selector-invalid", Error, "A `selector_value` does not match the syntax of its selector type.";
    AefSourceFetchFailed = "aef-source-fetch-failed", Error, "The source URI could not be fetched with status 200 and no content coding.";
    AefSelectorUnsupportedMedia = "aef-selector-unsupported-media", Error, "The selector type cannot be applied to the media type of the fetched source.";
    AefSourceUnparseable = "aef-source-unparseable", Error, "The fetched source could not be parsed as the format the selector needs.";
    AefSpanOutOfRange = "aef-span-out-of-range", Error, "A positional selector points beyond the end of the source.";
    AefSpanNotFound = "aef-span-not-found", Error, "A quote, selector or text fragment matches nothing in the source.";
    AefSpanAmbiguous = "aef-span-ambiguous", Error, "A quote, selector or text fragment matches more than once in the source.";
    AefSpanUnverifiable = "aef-span-unverifiable", Error, "The span was located but the profile defines no canonical text for it, so its hash cannot be reproduced.";
    AefContentHashMismatch = "aef-content-hash-mismatch", Error, "The AEF §5 hash of the resolved span differs from `verification.content_hash`.";
    AefExactTextMismatch = "aef-exact-text-mismatch", Error, "The AEF §5 hash of `exact_text` differs from `verification.content_hash`.";
    AefSignatureMissing = "aef-signature-missing", Error, "The evidence object has no `verification.signature`.";
    AefSignatureInvalid = "aef-signature-invalid", Error, "The JWS does not verify over the canonical form of the evidence object.";
    AefKeyUnresolved = "aef-key-unresolved", Error, "No usable key for the JWS could be obtained from `verification.signing_key_uri`.";
    AefKeyUntrusted = "aef-key-untrusted", Error, "The JWS verifies, but under a key the verifier was not configured to trust.";
    // ---- archive citations, coverage gate, display ----
    ArchiveArtifactUnknown = "archive-artifact-unknown", Error, "A citation names an artifact the archive does not hold.";
    ArchiveArtifactIdMismatch = "archive-artifact-id-mismatch", Error, "An artifact id differs from the SHA-256 of the JCS form of the artifact payload.";
    ArchiveArtifactNotCanonical = "archive-artifact-not-canonical", Error, "A text artifact payload has no paragraphs, an empty paragraph or a paragraph not in NFC.";
    ArchiveVersionUnknown = "archive-version-unknown", Error, "A citation names an archive version the archive does not have.";
    ArchiveArtifactNotInVersion = "archive-artifact-not-in-version", Error, "A cited artifact is not listed in the cited archive version.";
    ArchiveVersionNotInForce = "archive-version-not-in-force", Error, "A bundle names an archive version other than the snapshot in force at its `created_at`, or a citation names a snapshot published after that one.";
    ArchiveSnapshotInvalid = "archive-snapshot-invalid", Error, "The archive's snapshots are not in publication order, repeat a version or an artifact, or list an artifact the archive does not hold.";
    ArchiveSpanInvalid = "archive-span-invalid", Error, "A span locator is empty or inverted (its start is not before its end, or a region has no width or height).";
    ArchiveSpanKindMismatch = "archive-span-kind-mismatch", Error, "A span's kind does not fit the kind of the cited artifact.";
    ArchiveSpanOutOfRange = "archive-span-out-of-range", Error, "A span points outside the cited artifact.";
    ArchiveRelationInvalid = "archive-relation-invalid", Error, "A citation relation is not `direct_quote`, `paraphrase`, `inference_from` or `metadata_fact`.";
    ArchiveQuoteMismatch = "archive-quote-mismatch", Error, "A `direct_quote` citation has no text span or its span text does not occur verbatim in the claim text.";
    ArchiveExcerptHashMismatch = "archive-excerpt-hash-mismatch", Error, "A text citation's `excerpt_hash` is missing or differs from the hash of its span text, or a media citation has an excerpt or excerpt hash.";
    ArchiveExcerptMismatch = "archive-excerpt-mismatch", Error, "A bundle citation's `excerpt` differs from its span text.";
    ArchiveExcerptPlaintext = "archive-excerpt-plaintext", Warning, "A response bundle carries an unredacted excerpt in plaintext.";
    ArchiveClaimIdDuplicate = "archive-claim-id-duplicate", Error, "Two claims of one response bundle have the same `claim_id`.";
    ArchiveRungMismatch = "archive-rung-mismatch", Error, "A claim's `rung` is above what its counted citations allow, or `narrowed` and `refused` do not fit whether the bundle delivers a claim.";
    ArchiveRemovedTopicsMismatch = "archive-removed-topics-mismatch", Error, "The `removed_topics` do not hold one entry per narrowed claim with the reason its citations give, or the display's list differs.";
    ArchiveRefusalInvalid = "archive-refusal-invalid", Error, "A bundle's `refusal` is missing while no claim is delivered, present while one is, or inconsistent with its reason.";
    ArchiveHiddenRevealed = "archive-hidden-revealed", Error, "A removed topic or a label repeats four consecutive tokens of an artifact whose existence is hidden.";
    ArchiveTierUnknown = "archive-tier-unknown", Error, "A bundle's `tier` is not a tier of the policy in force.";
    ArchiveSignatureMissing = "archive-signature-missing", Error, "A response bundle has no `signature`.";
    ArchiveSignatureInvalid = "archive-signature-invalid", Error, "A response bundle signature object is malformed, or the signature does not verify over the JCS form of the bundle with its signature metadata.";
    ArchiveKeyUnresolved = "archive-key-unresolved", Error, "No shared secret or public key is configured for a response bundle signature's signer and key id.";
    ArchiveTimeInvalid = "archive-time-invalid", Error, "A bundle's `signedAt` is before its `created_at`, or either is more than 300 seconds after the verification time.";
    ArchiveDisplayUnbound = "archive-display-unbound", Error, "A display view's `bundle_hash` differs from the hash of the signed response bundle.";
    ArchiveDisplayClaimMismatch = "archive-display-claim-mismatch", Error, "A display view's claims, citations, tier or refusal do not correspond to the bundle's.";
    ArchiveDisplayLabelMissing = "archive-display-label-missing", Error, "A labeled claim has no non-empty `label`, or an unlabeled claim has one (bundle or display).";
    ArchiveDisplayLeak = "archive-display-leak", Error, "A display view contains 16 or more hex digits of an artifact id.";
    ArchiveHandleInvalid = "archive-handle-invalid", Error, "Display handles are not `Source A`, `Source B` and so on, assigned by first appearance of each artifact.";
    ArchiveRelationLabelMismatch = "archive-relation-label-mismatch", Error, "A display `relation_label` is not the label fixed for the citation's relation.";
    ArchiveConsentViolated = "archive-consent-violated", Error, "A display view shows more of an artifact than its consent in force allows.";
    ArchiveExcerptNotInSpan = "archive-excerpt-not-in-span", Error, "A display excerpt is not a non-empty substring of its citation's span text, or a media citation has one.";
    ArchiveExcerptTooLong = "archive-excerpt-too-long", Error, "A display excerpt is longer than the excerpt cap of the requestor's tier.";
    ArchiveLabeledExcerptMissing = "archive-labeled-excerpt-missing", Error, "A labeled claim is displayed without an `interpreted from` excerpt beside it although one of its inference sources may be shown.";
    ArchiveClaimUnsupported = "archive-claim-unsupported", Error, "A counted text citation of a delivered claim does not verify by its relation (a paraphrase or metadata fact that does not support the claim under the support rule, an inference that is not relevant to it, a span longer than a passage), or a supported or labeled claim has no counted text citation of its kind.";
    ArchiveRestrictedTextShown = "archive-restricted-text-shown", Error, "A delivered claim text repeats four consecutive tokens of an auditor-only or hidden artifact, or a label or removed topic four of an auditor-only one.";
    ArchiveQuoteTooLong = "archive-quote-too-long", Error, "A delivered claim text, a label or a removed topic repeats a passage of open archive text longer than the excerpt cap of the requestor's tier.";
    ArchiveGeneralContextInvalid = "archive-general-context-invalid", Error, "A general-context claim has citations, more than 280 characters or a label other than the fixed one, or is delivered in a response that delivers nothing from the archive.";
    ArchiveDowngradeViolated = "archive-downgrade-violated", Error, "A response the category filter downgraded delivers a labeled claim (an inference or general context).";
    ArchiveLogBroken = "archive-log-broken", Error, "A bundle log record's `seq` or `prev` does not continue the hash chain (a record was edited, removed or moved).";
    ArchiveLogRecordInvalid = "archive-log-record-invalid", Error, "A bundle log record does not have its type's form, or refers to a record it cannot.";
    ArchiveLogHeadMismatch = "archive-log-head-mismatch", Error, "The record of a bundle log at the head's position does not have the head's hash.";
    ArchiveLogUnanchored = "archive-log-unanchored", Warning, "A bundle log was verified without a head, so a rewritten or truncated end would go unnoticed.";
    ArchiveLogTimeInvalid = "archive-log-time-invalid", Error, "A bundle log record's time goes backwards, lies in the future, or is outside the window of the bundle it records.";
    ArchiveLogBundleMissing = "archive-log-bundle-missing", Error, "A bundle is not recorded exactly once in the bundle log with its hash, response, requester, tier and outcome.";
    ArchiveBudgetExceeded = "archive-budget-exceeded", Error, "A context request delivered more than the evidence budget, request cap or rate limit allows.";
    ArchiveExtractionRiskUnlogged = "archive-extraction-risk-unlogged", Error, "A context request that exceeded a limit has no extraction-risk record naming exactly those limits within 300 seconds after it.";
    ArchiveContextUnbound = "archive-context-unbound", Error, "A context request names no earlier answered response of its requester, or a handle that response does not show.";
    ArchiveContextWithheld = "archive-context-withheld", Error, "A context request delivers text of a source that consent or the tier withholds (not an open text artifact, or a tier whose excerpt cap is 0).";
    // ---- attribution ledger ----
    LedgerSourceUntraced = "ledger-source-untraced", Error, "A ledger source reference names no `tool_call_id` in a ledger whose other sources name the tool call they were captured from.";
    LedgerSourceAfterClaim = "ledger-source-after-claim", Error, "A ledger source's `fetched_at` is later than the `recorded_at` of its claim.";
    LedgerCountMismatch = "ledger-count-mismatch", Error, "A ledger's claim counts differ from the counts of its claim records.";
    LedgerUncitedMismatch = "ledger-uncited-mismatch", Error, "A ledger's `uncited_claims` do not list exactly the required claims without a source, in order.";
    LedgerCoverageMismatch = "ledger-coverage-mismatch", Error, "A ledger's `coverage_score` differs from cited required claims divided by required claims.";
    LedgerThresholdInvalid = "ledger-threshold-invalid", Error, "A ledger threshold is not 1 in strict mode, or is not more than 0 and at most 1 in lenient mode.";
    LedgerThresholdLow = "ledger-threshold-low", Warning, "A lenient-mode threshold is below the seed's 0.9.";
    LedgerComplianceMismatch = "ledger-compliance-mismatch", Error, "A ledger's `is_compliant` differs from whether its coverage reaches its threshold.";
    LedgerBelowThreshold = "ledger-below-threshold", Error, "A strict-mode ledger was emitted with coverage below its threshold.";
    LedgerCoverageLow = "ledger-coverage-low", Warning, "A lenient-mode ledger was emitted with coverage below its threshold.";
    LedgerJsonlMalformed = "ledger-jsonl-malformed", Error, "An audit file is not UTF-8 lines each holding one JSON object and ending in LF (or CRLF).";
    LedgerJsonlTooLarge = "ledger-jsonl-too-large", Error, "An audit file exceeds 64 MiB, one of its lines exceeds 1 MiB, or it holds more than 200000 records.";
    LedgerJsonlCountMismatch = "ledger-jsonl-count-mismatch", Error, "An audit export does not have exactly one record per ledger claim.";
    LedgerJsonlRecordMismatch = "ledger-jsonl-record-mismatch", Error, "An audit record differs from the ledger claim at the same position.";
    LedgerRecordUnidentified = "ledger-record-unidentified", Warning, "Audit records carry no `ledger_id`, so the records of separate requests cannot be told apart.";
    LedgerIdReused = "ledger-id-reused", Error, "The audit records of one ledger id were appended more than once: a `seq` repeats, or records without `seq` form more than one block.";
    LedgerSourceDeduplicated = "ledger-source-deduplicated", Error, "One source identifier names two different source references in one ledger (premature deduplication).";
    LedgerApiMismatch = "ledger-api-mismatch", Error, "An `export_for_api` document differs from the ledger it exports.";
    LedgerTimestampFuture = "ledger-timestamp-future", Warning, "A ledger or audit timestamp is more than 300 seconds after the verification time.";
    LedgerSeqBroken = "ledger-seq-broken", Error, "The `seq` numbers of one ledger's audit records skip a position, or some of its records carry `seq` and others do not.";
    LedgerAuditFileDamaged = "ledger-audit-file-damaged", Warning, "A line of a shared audit file that is not a record of the ledger being checked is damaged; that ledger is checked on its own records.";
    LedgerSourceMemberUndefined = "ledger-source-member-undefined", Warning, "A ledger source reference has a member the profile does not define; it is kept and compared, not interpreted.";
    LedgerAuditEmpty = "ledger-audit-empty", Error, "An audit found no audit record (of the ledger asked for): nothing was audited.";
    // ---- citation-chain envelopes ----
    ChainVersionUnsupported = "chain-version-unsupported", Error, "A chain envelope's `apiVersion` is not `v1`.";
    ChainIdInvalid = "chain-id-invalid", Error, "A chain claim `id` is not 16 lowercase hex digits.";
    ChainIdMismatch = "chain-id-mismatch", Error, "A chain claim `id` differs from the hash prefix of its normalized vertical, subject, predicate and object.";
    ChainUrlInvalid = "chain-url-invalid", Error, "A URL in a chain envelope is not an absolute http or https URL of at most 2048 bytes.";
    ChainCanonicalInvalid = "chain-canonical-invalid", Error, "A chain envelope's `canonical` is not an https URL with the claim id as a path segment.";
    ChainCanonicalOriginMismatch = "chain-canonical-origin-mismatch", Error, "A chain envelope's `canonical` is not on the host its `did:web` signer names.";
    ChainAlgorithmUnsupported = "chain-algorithm-unsupported", Error, "A chain signature `algorithm` is not `HMAC-SHA256` or `Ed25519`.";
    ChainSignatureMalformed = "chain-signature-malformed", Error, "A chain signature value is not lowercase hex of the length its algorithm requires.";
    ChainPayloadConflict = "chain-payload-conflict", Error, "A chain claim has its own `signedAt` or `signedBy` member, which the signing payload would overwrite.";
    ChainSignatureInvalid = "chain-signature-invalid", Error, "A chain signature does not verify under any signing input with any key configured for its signer.";
    ChainSignaturePartial = "chain-signature-partial", Error, "A chain signature verifies only under the `deployed-js` signing input, which leaves the sources, `tags`, `lastVerified`, `signedAt` and `signedBy` unsigned: the envelope is partially signed, not verified.";
    ChainKeyUnresolved = "chain-key-unresolved", Error, "No shared secret or usable public key is configured for a chain signature's `signedBy`.";
    ChainCanonicalFetchFailed = "chain-canonical-fetch-failed", Error, "A chain envelope's canonical URL could not be fetched with status 200.";
    ChainCanonicalIdAbsent = "chain-canonical-id-absent", Error, "A chain envelope's canonical page does not contain the claim id.";
    ChainSourcesUnreachable = "chain-sources-unreachable", Error, "None of a chain claim's source URLs answered with a 2xx status.";
    ChainExcerptMissing = "chain-excerpt-missing", Warning, "No source of a chain claim carries a verbatim `excerpt`.";
    ChainCitedAsMismatch = "chain-cited-as-mismatch", Warning, "A chain envelope's `citedAs` does not contain both the claim id and the canonical URL.";
    ChainStale = "chain-stale", Warning, "A chain claim's `lastVerified` (or, without it, the signature's `signedAt`) is more than 180 days before the verification time.";
    ChainMapKeyMismatch = "chain-map-key-mismatch", Error, "A key of a `chains` map differs from the claim id of its envelope.";
    ChainRefUnresolved = "chain-ref-unresolved", Error, "A claim reference in an answer is not a full claim id present in its `chains` map.";
    ChainSignaturePartialAccepted = "chain-signature-partial-accepted", Warning, "A partially signed chain envelope (`deployed-js` only) was accepted because the verifier was told to accept partial signatures; its unsigned members are listed.";
    ChainDateInFuture = "chain-date-in-future", Error, "A chain envelope's `signedAt`, `lastVerified`, `publishedAt` or a source's `accessedDate` is later than the verification time plus the clock skew tolerance.";
    ChainMemberUnrecognized = "chain-member-unrecognized", Warning, "A chain claim or source has a member this profile does not define, covered by the `seed-python` signature: kept and ignored.";
    ChainDateReducedPrecision = "chain-date-reduced-precision", Warning, "A chain source's `publishedDate` gives only a year or a year and month.";
    ChainAnswerUnreferenced = "chain-answer-unreferenced", Error, "A chain response's answer holds no claim reference, so nothing in it was verified.";
    ChainBracketNotReference = "chain-bracket-not-reference", Warning, "A bracketed item of a chain answer is not a claim reference; it is text, never a verified citation.";
    ChainCanonicalUnbound = "chain-canonical-unbound", Warning, "A chain envelope's canonical URL is not bound to its signer (no `did:web` signer fixed by the signature or the configuration), so the Level 2 canonical check shows only that some page shows the id.";
    ChainAnswerFindingsElided = "chain-answer-findings-elided", Warning, "A chain answer holds more claim references, unresolved references or bracketed text items than a report lists (1024 of each); every one was judged, and the rest are counted, not listed.";
    // ---- tooling (not a spec requirement) ----
    VectorInvalid = "vector-invalid", Error, "A conformance vector file breaks a rule of the vector format beyond its schema (ids, prefixes, flags, requirement ids, expected results).";
}

impl fmt::Display for IncidentCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for IncidentCode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for IncidentCode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let s = String::deserialize(deserializer)?;
        IncidentCode::from_code(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown incident code `{s}`")))
    }
}

impl JsonSchema for IncidentCode {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "IncidentCode".into()
    }
    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let codes: Vec<&str> = IncidentCode::ALL.iter().map(|c| c.as_str()).collect();
        schemars::json_schema!({
            "type": "string",
            "description": "A code from the incident registry of docs/PROFILE.md.",
            "enum": codes,
        })
    }
}

/// Where an incident happened. Every field is optional; verifiers fill what they know.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Location {
    /// RFC 6901 JSON pointer into the document the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pointer: Option<String>,
    /// Byte offset into the raw input.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    /// URL of the resource the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Claim id the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_id: Option<String>,
    /// Chain step number the incident is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    /// 1-based line number in a line-oriented input (a JSONL audit file); `pointer` is then a
    /// pointer into the record on that line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
}

impl Location {
    pub fn is_empty(&self) -> bool {
        *self == Location::default()
    }
    pub fn pointer(pointer: impl Into<String>) -> Location {
        Location {
            pointer: Some(pointer.into()),
            ..Location::default()
        }
    }
}

/// One finding of a check: a registered code, its severity, a human message and a location.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Incident {
    pub code: IncidentCode,
    pub severity: Severity,
    pub message: String,
    #[serde(default, skip_serializing_if = "Location::is_empty")]
    pub location: Location,
}

impl Incident {
    /// An incident with the code's default severity.
    pub fn new(code: IncidentCode, message: impl Into<String>, location: Location) -> Incident {
        Incident {
            code,
            severity: code.severity(),
            message: message.into(),
            location,
        }
    }
}

impl fmt::Display for Incident {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}]", self.severity, self.code)?;
        if let Some(l) = self.location.line {
            write!(f, " at line {l}")?;
        }
        if let Some(p) = &self.location.pointer {
            write!(f, " at {}", if p.is_empty() { "/" } else { p })?;
        }
        if let Some(o) = self.location.offset {
            write!(f, " at byte {o}")?;
        }
        if let Some(u) = &self.location.url {
            write!(f, " ({u})")?;
        }
        write!(f, ": {}", self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_kebab_case_and_round_trip() {
        let mut seen = std::collections::BTreeSet::new();
        for code in IncidentCode::ALL {
            let s = code.as_str();
            assert!(seen.insert(s), "duplicate code {s}");
            assert!(
                s.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !s.starts_with('-')
                    && !s.ends_with('-')
                    && !s.contains("--"),
                "{s} is not kebab-case"
            );
            assert_eq!(IncidentCode::from_code(s), Some(*code));
            assert!(
                code.meaning().ends_with('.'),
                "{s}: meaning must be a sentence"
            );
        }
        assert_eq!(IncidentCode::from_code("no-such-code"), None);
    }
}
