//! `json_tokens`: the token reader under the strict I-JSON parser, in both modes.

use std::borrow::Cow;

use citeproof_model::IncidentCode;
use citeproof_model::json::{self, Event, JsonError, Mode, Reader, Token, parse_strict};
use serde_json::{Number, Value};

/// The token reader on any bytes. Checks: it accepts exactly what `parse_strict` accepts and
/// fails with the same error (code, offset, pointer); every token's `raw` is the input at its
/// offset, and only whitespace, `,` and `:` lie between tokens; a number's text reads as its
/// number; a string or name whose text has no backslash is borrowed and is that text; the
/// tokens written back compactly parse to the same value; the reply mode reads whatever strict
/// mode accepts to the same value with no finding, and fails like strict mode on every fault
/// that is not a lone surrogate or a noncharacter.
pub fn json_tokens(data: &[u8]) {
    let strict = parse_strict(data);
    let tokens = read_all(data);
    let tokens = match (&strict, tokens) {
        (Err(a), Err(b)) => {
            assert_eq!(a, &b, "the reader fails like parse_strict");
            check_reply_error(data, a);
            return;
        }
        (Ok(_), Ok(tokens)) => tokens,
        (strict, tokens) => panic!("reader and parse_strict disagree: {strict:?} / {tokens:?}"),
    };
    let value = strict.unwrap();
    let compact = check_tokens(data, &tokens);
    assert_eq!(parse_strict(compact.as_bytes()).as_ref(), Ok(&value));
    let mut reply = Reader::new(data, Mode::Reply, usize::MAX).unwrap();
    assert_eq!(json::build::<Value>(&mut reply).as_ref(), Ok(&value));
    assert_eq!(reply.finding_count(), 0);
}

fn read_all(data: &[u8]) -> Result<Vec<Token<'_>>, JsonError> {
    let mut reader = Reader::new(data, Mode::Strict, json::MAX_DOCUMENT_BYTES)?;
    let mut tokens = Vec::new();
    while let Some(token) = reader.next_token()? {
        tokens.push(token);
    }
    assert_eq!(reader.next_token(), Ok(None), "the end is the end");
    Ok(tokens)
}

/// Checks each token against the input; returns the tokens written with no whitespace.
fn check_tokens(data: &[u8], tokens: &[Token<'_>]) -> String {
    let mut compact = String::new();
    let mut end = 0;
    let mut after_value = false;
    for token in tokens {
        let gap = data.get(end..token.offset).expect("offsets increase");
        assert!(gap.iter().all(|b| b" \t\r\n,:".contains(b)), "{gap:?}");
        assert_eq!(
            data.get(token.offset..token.offset + token.raw.len()),
            Some(token.raw.as_bytes())
        );
        end = token.offset + token.raw.len();
        let closes = matches!(token.event, Event::EndArray | Event::EndObject);
        if after_value && !closes {
            compact.push(',');
        }
        compact.push_str(token.raw);
        match &token.event {
            Event::Name(_) => compact.push(':'),
            Event::Number(n) => {
                assert_eq!(&serde_json::from_str::<Number>(token.raw).unwrap(), n);
            }
            _ => {}
        }
        if let Event::Name(s) | Event::String(s) = &token.event
            && !token.raw.contains('\\')
        {
            assert!(matches!(s, Cow::Borrowed(_)), "{:?}", token.raw);
            assert_eq!(Some(s.as_ref()), token.raw.get(1..token.raw.len() - 1));
        }
        after_value = !matches!(
            token.event,
            Event::Name(_) | Event::BeginArray | Event::BeginObject
        );
    }
    let rest = data.get(end..).unwrap_or_default();
    assert!(rest.iter().all(|b| b" \t\r\n".contains(b)), "{rest:?}");
    compact
}

/// Reply mode refuses what strict mode refuses, except lone surrogates and noncharacters.
fn check_reply_error(data: &[u8], strict: &JsonError) {
    if matches!(
        strict.code,
        IncidentCode::JsonLoneSurrogate | IncidentCode::JsonNoncharacter
    ) {
        return;
    }
    let reply = Reader::new(data, Mode::Reply, json::MAX_DOCUMENT_BYTES)
        .and_then(|mut r| json::build::<Value>(&mut r));
    assert_eq!(reply.as_ref(), Err(strict), "reply mode on a strict fault");
}
