//! Component values (RFC 9421 §2.1, §2.2, §2.4) using the examples of RFC 9421 §2, and the
//! typed errors of signature-base construction.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use citeproof_httpsig::*;

fn id(text: &str) -> ComponentId {
    ComponentId::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The signature-base line of one component (without the final LF).
fn line(msg: &Message, component: &str) -> Result<String> {
    let base = signature_base(msg, &SignatureParams::new(vec![id(component)]))?;
    Ok(base.split('\n').next().unwrap_or_default().to_owned())
}

fn request(method: &str, uri: &str, fields: &[(&str, &str)]) -> Message {
    let mut r = Request::new(method, uri).unwrap();
    for (n, v) in fields {
        r.headers.push(n, v).unwrap();
    }
    Message::Request(r)
}

/// RFC 9421 §2.1 example fragment (without the obs-fold line, which this crate's model refuses).
fn section_2_1_message() -> Message {
    request(
        "GET",
        "https://www.example.com/",
        &[
            ("Host", "www.example.com"),
            ("Date", "Tue, 20 Apr 2021 02:07:56 GMT"),
            ("X-OWS-Header", "   Leading and trailing whitespace.   "),
            ("Cache-Control", "max-age=60"),
            ("Cache-Control", "   must-revalidate"),
            ("Example-Dict", " a=1,    b=2;x=1;y=2,   c=(a   b   c)"),
            ("X-Empty-Header", " "),
        ],
    )
}

#[test]
fn section_2_1_http_field_values() {
    let m = section_2_1_message();
    assert_eq!(line(&m, "host").unwrap(), r#""host": www.example.com"#);
    assert_eq!(
        line(&m, "date").unwrap(),
        r#""date": Tue, 20 Apr 2021 02:07:56 GMT"#
    );
    assert_eq!(
        line(&m, "x-ows-header").unwrap(),
        r#""x-ows-header": Leading and trailing whitespace."#
    );
    assert_eq!(
        line(&m, "cache-control").unwrap(),
        r#""cache-control": max-age=60, must-revalidate"#
    );
    assert_eq!(
        line(&m, "example-dict").unwrap(),
        r#""example-dict": a=1,    b=2;x=1;y=2,   c=(a   b   c)"#
    );
    // An empty field: the line ends with ": " (RFC 9421 §2.1).
    assert_eq!(line(&m, "x-empty-header").unwrap(), "\"x-empty-header\": ");
}

#[test]
fn section_2_1_1_strict_serialization() {
    let m = section_2_1_message();
    assert_line(&m, r#""example-dict";sf"#, r#"a=1, b=2;x=1;y=2, c=(a b c)"#);
}

/// The base line of `component` in `m` is `component: value` (RFC 9421 §2.5).
#[track_caller]
fn assert_line(m: &Message, component: &str, value: &str) {
    assert_eq!(line(m, component).unwrap(), format!("{component}: {value}"));
}

#[test]
fn section_2_1_2_dictionary_members() {
    let m = request(
        "GET",
        "https://www.example.com/",
        &[("Example-Dict", " a=1, b=2;x=1;y=2, c=(a   b    c), d")],
    );
    assert_line(&m, r#""example-dict";key="a""#, r#"1"#);
    assert_line(&m, r#""example-dict";key="d""#, r#"?1"#);
    assert_line(&m, r#""example-dict";key="b""#, r#"2;x=1;y=2"#);
    assert_line(&m, r#""example-dict";key="c""#, r#"(a b c)"#);
    assert_eq!(
        line(&m, r#""example-dict";key="zz""#).unwrap_err().code(),
        "httpsig-missing-component"
    );
}

#[test]
fn section_2_1_3_binary_wrapped_fields() {
    let two = request(
        "GET",
        "https://www.example.com/",
        &[
            ("Example-Header", "value, with, lots"),
            ("Example-Header", "of, commas"),
        ],
    );
    let one = request(
        "GET",
        "https://www.example.com/",
        &[("Example-Header", "value, with, lots, of, commas")],
    );
    assert_eq!(
        line(&two, "example-header").unwrap(),
        line(&one, "example-header").unwrap()
    );
    assert_line(
        &two,
        r#""example-header";bs"#,
        r#":dmFsdWUsIHdpdGgsIGxvdHM=:, :b2YsIGNvbW1hcw==:"#,
    );
    assert_line(
        &one,
        r#""example-header";bs"#,
        r#":dmFsdWUsIHdpdGgsIGxvdHMsIG9mLCBjb21tYXM=:"#,
    );
}

#[test]
fn section_2_1_4_trailers_are_refused() {
    let m = section_2_1_message();
    assert_eq!(
        line(&m, r#""date";tr"#).unwrap_err().code(),
        "httpsig-trailers-unsupported"
    );
}

#[test]
fn section_2_2_derived_components() {
    let m = request(
        "POST",
        "https://www.example.com/path?param=value",
        &[("Host", "www.example.com")],
    );
    assert_eq!(line(&m, "@method").unwrap(), r#""@method": POST"#);
    assert_eq!(
        line(&m, "@target-uri").unwrap(),
        r#""@target-uri": https://www.example.com/path?param=value"#
    );
    assert_eq!(
        line(&m, "@authority").unwrap(),
        r#""@authority": www.example.com"#
    );
    assert_eq!(line(&m, "@scheme").unwrap(), r#""@scheme": https"#);
    assert_eq!(
        line(&m, "@request-target").unwrap(),
        r#""@request-target": /path?param=value"#
    );
    assert_eq!(line(&m, "@path").unwrap(), r#""@path": /path"#);
    assert_eq!(line(&m, "@query").unwrap(), r#""@query": ?param=value"#);

    let http = request("POST", "http://www.example.com/path?param=value", &[]);
    assert_eq!(line(&http, "@scheme").unwrap(), r#""@scheme": http"#);

    let q = request(
        "POST",
        "https://www.example.com/path?param=value&foo=bar&baz=bat%2Dman",
        &[],
    );
    assert_eq!(
        line(&q, "@query").unwrap(),
        r#""@query": ?param=value&foo=bar&baz=bat%2Dman"#
    );
    let qs = request("POST", "https://www.example.com/path?queryString", &[]);
    assert_eq!(line(&qs, "@query").unwrap(), r#""@query": ?queryString"#);
    let none = request("POST", "https://www.example.com/path", &[]);
    assert_eq!(line(&none, "@query").unwrap(), r#""@query": ?"#);
}

#[test]
fn section_2_2_authority_is_normalized_and_path_defaults_to_slash() {
    let m = request("GET", "HTTPS://WWW.Example.COM:443", &[]);
    assert_eq!(
        line(&m, "@authority").unwrap(),
        r#""@authority": www.example.com"#
    );
    assert_eq!(line(&m, "@scheme").unwrap(), r#""@scheme": https"#);
    assert_eq!(line(&m, "@path").unwrap(), r#""@path": /"#);
    let p = request("GET", "http://example.com:8080/x", &[]);
    assert_eq!(
        line(&p, "@authority").unwrap(),
        r#""@authority": example.com:8080"#
    );
}

#[test]
fn section_2_2_request_target_absolute_form() {
    let msg =
        parse_http1(b"GET https://www.example.com/path?param=value HTTP/1.1\r\n\r\n").unwrap();
    assert_eq!(
        line(&msg, "@request-target").unwrap(),
        r#""@request-target": https://www.example.com/path?param=value"#
    );
}

#[test]
fn section_2_2_8_query_parameters() {
    let m = request(
        "POST",
        "https://www.example.com/path?param=value&foo=bar&baz=batman&qux=",
        &[],
    );
    assert_line(&m, r#""@query-param";name="baz""#, r#"batman"#);
    assert_eq!(
        line(&m, r#""@query-param";name="qux""#).unwrap(),
        "\"@query-param\";name=\"qux\": "
    );
    assert_line(&m, r#""@query-param";name="param""#, r#"value"#);
    assert_eq!(
        line(&m, r#""@query-param";name="nope""#)
            .unwrap_err()
            .code(),
        "httpsig-missing-component"
    );

    // Decoding then re-encoding (percent-encode set of application/x-www-form-urlencoded,
    // spaces as %20).
    let enc = request(
        "GET",
        "https://example.com/parameters?var=this%20is%20a%20big%0Amultiline%20value&bar=with+plus+whitespace&fa%C3%A7ade%22%3A%20=something",
        &[],
    );
    assert_line(
        &enc,
        r#""@query-param";name="var""#,
        r#"this%20is%20a%20big%0Amultiline%20value"#,
    );
    assert_line(
        &enc,
        r#""@query-param";name="bar""#,
        r#"with%20plus%20whitespace"#,
    );
    assert_line(
        &enc,
        r#""@query-param";name="fa%C3%A7ade%22%3A%20""#,
        r#"something"#,
    );

    let dup = request("GET", "https://example.com/?a=1&a=2", &[]);
    assert_eq!(
        line(&dup, r#""@query-param";name="a""#).unwrap_err(),
        HttpSigError::AmbiguousQueryParam { name: "a".into() }
    );
}

fn response_with_request() -> Message {
    let mut req = Request::new("POST", "https://example.com/foo?param=Value&Pet=dog").unwrap();
    req.headers
        .push("Content-Type", "application/json")
        .unwrap();
    let mut resp = Response::new(503).unwrap();
    resp.headers.push("Content-Type", "text/plain").unwrap();
    resp.request = Some(Box::new(req));
    Message::Response(resp)
}

#[test]
fn section_2_2_9_status_and_2_4_related_request() {
    let m = response_with_request();
    assert_eq!(line(&m, "@status").unwrap(), r#""@status": 503"#);
    assert_line(&m, r#""@method";req"#, r#"POST"#);
    assert_line(&m, r#""@authority";req"#, r#"example.com"#);
    assert_line(&m, r#""content-type";req"#, r#"application/json"#);
    assert_eq!(
        line(&m, "content-type").unwrap(),
        r#""content-type": text/plain"#
    );
    assert_line(&m, r#""@query-param";req;name="Pet""#, r#"dog"#);
}

#[test]
fn typed_errors_of_base_construction() {
    let req = request(
        "GET",
        "https://example.com/",
        &[("Content-Type", "text/plain")],
    );
    let resp = response_with_request();
    let Message::Response(mut bare_resp) = resp.clone() else {
        unreachable!()
    };
    bare_resp.request = None;
    let bare_resp = Message::Response(bare_resp);

    // Missing field.
    assert_eq!(
        line(&req, "x-missing").unwrap_err(),
        HttpSigError::MissingComponent {
            component: "\"x-missing\"".into()
        }
    );
    // @status on a request.
    assert_eq!(
        line(&req, "@status").unwrap_err(),
        HttpSigError::StatusOnRequest
    );
    // Request component on a response without req.
    assert_eq!(
        line(&resp, "@method").unwrap_err().code(),
        "httpsig-component-not-applicable"
    );
    // req on a request.
    assert_eq!(
        line(&req, r#""content-type";req"#).unwrap_err().code(),
        "httpsig-component-not-applicable"
    );
    // req without the related request.
    assert_eq!(
        line(&bare_resp, r#""@method";req"#).unwrap_err().code(),
        "httpsig-related-request-missing"
    );
    // Duplicate component identifier, also with parameters in another order.
    let dup = SignatureParams::new(vec![id("content-type"), id("content-type")]);
    assert_eq!(
        signature_base(&req, &dup).unwrap_err().code(),
        "httpsig-duplicate-component"
    );
    let dup2 = SignatureParams::new(vec![
        id(r#""content-type";req;sf"#),
        id(r#""content-type";sf;req"#),
    ]);
    assert_eq!(
        signature_base(&resp, &dup2).unwrap_err().code(),
        "httpsig-duplicate-component"
    );
    // Invalid structured field under sf / key.
    let bad_sf = request(
        "GET",
        "https://example.com/",
        &[("Content-Digest", "sha-256=:@@@:")],
    );
    assert_eq!(
        line(&bad_sf, r#""content-digest";sf"#).unwrap_err().code(),
        "httpsig-invalid-structured-field"
    );
    assert_eq!(
        line(&bad_sf, r#""content-digest";key="sha-256""#)
            .unwrap_err()
            .code(),
        "httpsig-invalid-structured-field"
    );
    let dup_key = request(
        "GET",
        "https://example.com/",
        &[("Example-Dict", "a=1, a=2")],
    );
    assert_eq!(
        line(&dup_key, r#""example-dict";key="a""#)
            .unwrap_err()
            .code(),
        "httpsig-invalid-structured-field"
    );
}

#[test]
fn invalid_component_identifiers() {
    for text in [
        "@unknown",
        "@signature-params",
        "Content-Type",
        "content type",
        "@query-param",
        r#""@method";sf"#,
        r#""date";name="x""#,
        r#""date";bs;sf"#,
        r#""date";bs;key="a""#,
        r#""date";sf=?0"#,
        r#""date";key=1"#,
        r#""date";foo"#,
        r#""date";sf;sf"#,
        "date;sf",
    ] {
        let err = ComponentId::parse(text).unwrap_err();
        assert!(
            matches!(
                err.code(),
                "httpsig-invalid-component" | "httpsig-malformed-input"
            ),
            "{text}: {err:?}"
        );
    }
    assert_eq!(
        ComponentId::parse(r#""@query-param";name="Pet""#)
            .unwrap()
            .serialize()
            .unwrap(),
        r#""@query-param";name="Pet""#
    );
}
