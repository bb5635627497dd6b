//! Numbers (§3.5, §4.4): `number()` of a string, `string()` of a number, comparisons of numbers,
//! strings and booleans (§3.4) and `round()`.

use super::ast::Cmp;
use super::lexer::is_xml_space;

/// `number()` of a string (§4.4): optional whitespace, optional minus, Number.
pub(super) fn str_to_num(s: &str) -> f64 {
    let t = s.trim_matches(is_xml_space);
    let body = t.strip_prefix('-').unwrap_or(t);
    let mut seen_digit = false;
    let mut seen_dot = false;
    for c in body.chars() {
        match c {
            '0'..='9' => seen_digit = true,
            '.' if !seen_dot => seen_dot = true,
            _ => return f64::NAN,
        }
    }
    if !seen_digit {
        return f64::NAN;
    }
    t.parse::<f64>().unwrap_or(f64::NAN)
}

/// `string()` of a number (§4.2).
pub fn num_to_str(n: f64) -> String {
    if n.is_nan() {
        "NaN".into()
    } else if n == f64::INFINITY {
        "Infinity".into()
    } else if n == f64::NEG_INFINITY {
        "-Infinity".into()
    } else if n == 0.0 {
        "0".into()
    } else {
        // Rust's shortest round-trip decimal, never in exponent form.
        format!("{n}")
    }
}

/// `x op y` on numbers (IEEE 754: NaN compares false, `!=` true).
pub(super) fn cmp_num(op: Cmp, x: f64, y: f64) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        Cmp::Lt => x < y,
        Cmp::Le => x <= y,
        Cmp::Gt => x > y,
        Cmp::Ge => x >= y,
    }
}

/// `x op y` on strings: `=` and `!=` compare the strings, the rest their numbers.
pub(super) fn cmp_str(op: Cmp, x: &str, y: &str) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        _ => cmp_num(op, str_to_num(x), str_to_num(y)),
    }
}

/// `x op y` on booleans: `=` and `!=` compare them, the rest their numbers (0, 1).
pub(super) fn cmp_bool(op: Cmp, x: bool, y: bool) -> bool {
    match op {
        Cmp::Eq => x == y,
        Cmp::Ne => x != y,
        _ => cmp_num(op, f64::from(u8::from(x)), f64::from(u8::from(y))),
    }
}

/// `round()` (§4.4): the closest integer, halves toward positive infinity, `-0` kept.
pub(super) fn round_xpath(x: f64) -> f64 {
    if x.is_nan() || x.is_infinite() || x == 0.0 {
        return x;
    }
    if (-0.5..0.0).contains(&x) {
        return -0.0;
    }
    (x + 0.5).floor()
}
