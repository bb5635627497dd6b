//! Generators shared by the property tests of strict parsing (`json_properties.rs`) and of
//! canonicalization (`jcs_rfc8785.rs`): arbitrary I-JSON values.

#![allow(dead_code)]

use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// Strings I-JSON admits: noncharacters (U+FDD0..U+FDEF, U+xFFFE/U+xFFFF) are excluded
/// (RFC 7493 §2.1, profile JSON-002).
pub fn arb_string() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>().prop_map(|s| s
            .chars()
            .map(|c| {
                let cp = u32::from(c);
                if (0xFDD0..=0xFDEF).contains(&cp) || cp & 0xFFFE == 0xFFFE {
                    '?'
                } else {
                    c
                }
            })
            .collect()),
        // few, tricky characters: many collisions and UTF-16 vs code point order differences
        "[ab~/\"\\\\\\x00-\\x1f\\x{7f}\\x{80}\\x{ff}\\x{20ac}\\x{fb33}\\x{fffd}\\x{fffc}\\x{10000}\\x{1f600}\\x{1f602}\\x{10fffd}]{0,5}",
    ]
}

pub fn arb_number() -> impl Strategy<Value = Number> {
    prop_oneof![
        any::<i64>().prop_map(Number::from),
        any::<u64>().prop_map(Number::from),
        any::<f64>().prop_filter_map("finite", Number::from_f64),
        // all bit patterns, including subnormals and extremes
        any::<u64>().prop_filter_map("finite", |b| Number::from_f64(f64::from_bits(b))),
        // integers around 2^53 where double rounding matters
        (0u64..4096).prop_map(|d| Number::from((1u64 << 53) - 2048 + d)),
    ]
}

pub fn arb_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        arb_number().prop_map(Value::Number),
        arb_string().prop_map(Value::String),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((arb_string(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect::<Map<_, _>>())),
        ]
    })
}
