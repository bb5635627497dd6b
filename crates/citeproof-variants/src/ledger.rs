//! Variants of the attribution-ledger operations (seed 003).
//!
//! Why these keep the verdict (docs/PROFILE.md LEDGER-001 to LEDGER-017): seed 003 signs and
//! hashes nothing, and every check compares parsed values (counts, texts, JSON-equal sources,
//! equal ids), never the bytes of a document or a line:
//!
//! - `member-order`, `whitespace`: a strict JSON document (ledger, `api`) gets its members
//!   permuted and new whitespace; each strict JSON-lines record gets its members permuted and
//!   spaces and tabs only ([`Style::Inline`]), so the line framing (LEDGER-008: which lines
//!   exist, LF or CR LF, a torn last line) is kept byte for byte. A document or line that is
//!   not strict I-JSON only gets whitespace around it ([`jsontext::pad`]; never an empty line,
//!   never a torn last line). Lines of 64 KiB or more are kept, far from the 1 MiB bound.
//! - `rename-ids`: every `ledger_id` and `claim_id` string, in the ledger, every strict record,
//!   `api`, the `ledger_id` argument and the expected output, is mapped by one same-shape
//!   injective map (letters stay letters of their case, digits digits, other characters kept,
//!   so the id grammars and lengths hold or fail alike), fresh ids never equal to an original
//!   one. Every equality between ids is kept, and ids are compared with nothing else. A line
//!   that is not strict I-JSON (torn, not UTF-8, a duplicate member, ...) yields no record, but
//!   a reader attributes it to the ledger ids its bytes name (LEDGER-008: a member name
//!   `"ledger_id"`, optional JSON whitespace, `:`, a complete unescaped id string), so the ids
//!   found that way in its bytes ([`raw_ids`], `claim_id` too) are renamed by the same map, in
//!   place (a fresh id has the original's length).

use base64::{Engine as _, engine::general_purpose::STANDARD};
use citeproof_conformance::{
    suite::Case,
    variants::{Derived, VariantRng},
};
use serde_json::{Value, json};

use crate::{
    TransformFn, derived,
    jsonl::{Text, lines},
    jsontext::{self, Node},
    rename::Renamer,
};

pub const TRANSFORMS: &[(&str, TransformFn)] =
    &[("ledger-verify", verify), ("ledger-audit", audit)];

/// Members whose string values are ids (renamed consistently).
const ID_MEMBERS: [&str; 2] = ["ledger_id", "claim_id"];

/// The ids of a tree (values of [`ID_MEMBERS`]), registered as reserved.
fn reserve_ids(node: &mut Node, renamer: &mut Renamer) {
    jsontext::map_strings(node, &ID_MEMBERS, &mut |_, s| {
        renamer.reserve(s);
        None
    });
}

/// The audit file of a case and the member it came in (`export` or `export_base64`).
fn export(case: &Case) -> Option<(&'static str, Vec<u8>)> {
    if let Some(text) = case.input.get("export").and_then(Value::as_str) {
        return Some(("export", text.as_bytes().to_vec()));
    }
    let bytes = STANDARD
        .decode(case.input.get("export_base64")?.as_str()?)
        .ok()?;
    Some(("export_base64", bytes))
}

/// The byte ranges of the ids a line names as a reader finds them in a line it cannot parse:
/// each member name of [`ID_MEMBERS`] in quotes, then optional JSON whitespace, `:`, optional
/// whitespace and a complete string of the id grammar without escapes.
fn raw_ids(bytes: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    for name in ID_MEMBERS {
        for range in citeproof_model::raw_members::string_values(bytes, name, 128) {
            let id = std::str::from_utf8(&bytes[range.clone()]).unwrap_or("");
            let ok = match name {
                "ledger_id" => citeproof_model::ids::is_run_id(id),
                _ => citeproof_model::ids::is_claim_id(id),
            };
            if ok {
                out.push(range);
            }
        }
    }
    out
}

/// Renames the ids of every text consistently (after reserving every original id).
fn rename_ids(texts: &mut [&mut Text], renamer: &mut Renamer, rng: &mut VariantRng) -> usize {
    for text in texts.iter_mut() {
        for tree in text.trees() {
            reserve_ids(tree, renamer);
        }
        for line in text.raw_lines() {
            for range in raw_ids(line) {
                renamer.reserve(std::str::from_utf8(&line[range]).unwrap_or(""));
            }
        }
    }
    let mut changed = 0;
    for text in texts.iter_mut() {
        for tree in text.trees() {
            changed += jsontext::map_strings(tree, &ID_MEMBERS, &mut |_, s| {
                (!s.is_empty()).then(|| renamer.id(s, rng))
            });
        }
        for line in text.raw_lines() {
            let mut ranges = raw_ids(line);
            // From the end, so that the ranges before a replaced id stay where they were.
            ranges.sort_by_key(|r| std::cmp::Reverse(r.start));
            for range in ranges {
                let old = String::from_utf8_lossy(&line[range.clone()]).into_owned();
                let new = renamer.id(&old, rng);
                line.splice(range, new.bytes());
                changed += 1;
            }
        }
    }
    changed
}

/// The input member `name` set to the rewritten audit file. A text file may also go as
/// `export_base64` (`as-bytes`: the contract reads the same bytes either way), and always does
/// when rewriting left it unchanged (an empty file).
fn set_export(
    input: &mut Value,
    name: &str,
    bytes: Vec<u8>,
    transforms: &mut Vec<&str>,
    rng: &mut VariantRng,
) {
    let text = String::from_utf8(bytes);
    match text {
        Ok(text)
            if name == "export"
                && (input.get(name).and_then(Value::as_str) == Some(text.as_str())
                    || rng.chance(0.5)) =>
        {
            if let Some(map) = input.as_object_mut() {
                map.remove("export");
            }
            transforms.push("as-bytes");
            input["export_base64"] = json!(STANDARD.encode(text.as_bytes()));
        }
        Ok(text) if name == "export" => input[name] = json!(text),
        Ok(text) => input[name] = json!(STANDARD.encode(text.as_bytes())),
        Err(e) => input[name] = json!(STANDARD.encode(e.as_bytes())),
    }
}

fn verify(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let ledger = case.input.get("ledger")?.as_str()?;
    let mut input = case.input.clone();
    let mut transforms = vec!["member-order", "whitespace"];
    let mut ledger = Text::document(ledger);
    let mut api = case
        .input
        .get("api")
        .and_then(Value::as_str)
        .map(Text::document);
    let mut file = export(case).map(|(name, text)| (name, Text::Lines(lines(&text, false))));
    if let Some((_, records)) = file.as_mut() {
        let mut renamer = Renamer::new();
        let mut texts: Vec<&mut Text> = vec![&mut ledger, records];
        if let Some(api) = api.as_mut() {
            texts.push(api);
        }
        if rename_ids(&mut texts, &mut renamer, rng) > 0 {
            transforms.push("rename-ids");
        }
    }
    input["ledger"] = json!(ledger.emit_text(rng));
    if let Some(api) = api {
        input["api"] = json!(api.emit_text(rng));
    }
    if let Some((name, records)) = file {
        set_export(&mut input, name, records.emit(rng), &mut transforms, rng);
    }
    Some(derived(case, &transforms, input))
}

fn audit(case: &Case, rng: &mut VariantRng) -> Option<Derived> {
    let (name, text) = export(case)?;
    let mut records = Text::Lines(lines(&text, false));
    let mut renamer = Renamer::new();
    let mut transforms = vec!["member-order", "whitespace"];
    if let Some(id) = case.input.get("ledger_id").and_then(Value::as_str) {
        renamer.reserve(id);
    }
    if rename_ids(&mut [&mut records], &mut renamer, rng) > 0 {
        transforms.push("rename-ids");
    }
    let mut input = case.input.clone();
    set_export(&mut input, name, records.emit(rng), &mut transforms, rng);
    let map = |v: &Value, renamer: &mut Renamer, rng: &mut VariantRng| match v.as_str() {
        Some(s) if !s.is_empty() => json!(renamer.id(s, rng)),
        _ => v.clone(),
    };
    if let Some(id) = case.input.get("ledger_id") {
        input["ledger_id"] = map(id, &mut renamer, rng);
    }
    let mut d = derived(case, &transforms, input);
    if let Some(ledgers) = d
        .expected
        .output
        .as_mut()
        .and_then(|o| o.get_mut("ledgers"))
        .and_then(Value::as_array_mut)
    {
        for ledger in ledgers {
            if let Some(id) = ledger.get_mut("ledger_id") {
                *id = map(id, &mut renamer, rng);
            }
        }
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    use super::raw_ids;

    #[test]
    fn raw_ids_are_the_ids_a_reader_attributes_a_damaged_line_to() {
        // By hand: a torn record (spaces around `:`), an escaped name inside a string, a torn
        // id, a claim id; the ranges are the ids' bytes.
        let line = br#"{"claim":"see \"ledger_id\":\"run-d\"","ledger_id" : "run-a","claim_id":"c-1","x":{"ledger_id":"run-"#;
        let got: Vec<&str> = raw_ids(line)
            .into_iter()
            .map(|r| std::str::from_utf8(&line[r]).unwrap_or(""))
            .collect();
        assert_eq!(got, ["run-a", "c-1"]);
    }
}
