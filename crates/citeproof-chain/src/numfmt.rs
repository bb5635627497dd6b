//! Numbers written the way Python and ECMAScript write them (profile CHAIN-006).
//!
//! Both languages start from the same digits: the shortest decimal string that reads back as
//! the same double, the closest one when several are that short, and the one with an even last
//! digit when two are equally close (Python `repr`, David Gay's `dtoa` mode 0; ECMAScript
//! `Number::toString`, ECMA-262 §6.1.6.1.20). The digits come from `ryu-js` (Ryu with
//! ECMAScript's rules). Not from core's `{:e}`: it breaks exact ties upward, so
//! 1832106217648639.25 would come out as `...639.3` where Python and node write `...639.2`
//! (found by the cross-check in `tests/python_crosscheck.rs`, which compares with CPython on
//! random doubles; `tests/node_interop.rs` does the same with node). The languages differ only
//! in layout, which is hand-written below from their sources.

/// The shortest round-trip digits of `|x|` and the decimal point position: `|x| = 0.d1d2... ×
/// 10^decpt`. Zero gives (`"0"`, 1).
fn shortest(x: f64) -> (String, i32) {
    let mut buffer = ryu_js::Buffer::new();
    let text = buffer.format_finite(x.abs());
    let (mantissa, exponent) = text.split_once('e').unwrap_or((text, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let point = mantissa.find('.').unwrap_or(mantissa.len()) as i32;
    let all: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let leading = (all.len() - all.trim_start_matches('0').len()) as i32;
    let digits = all.trim_matches('0');
    if digits.is_empty() {
        return ("0".to_owned(), 1);
    }
    (digits.to_owned(), point + exponent - leading)
}

/// Python's `repr(float)` for a finite double (`float_repr_style` "short", CPython
/// `format_float_short` with mode `'r'`): fixed notation with at least one fractional digit when
/// `-4 < decpt <= 16`, else `d[.ddd]e±XX` with at least two exponent digits.
pub fn python_float_repr(x: f64) -> String {
    let (digits, decpt) = shortest(x);
    let sign = if x.is_sign_negative() { "-" } else { "" };
    let n = digits.len() as i32;
    if decpt <= -4 || decpt > 16 {
        let exp = decpt - 1;
        let (first, rest) = digits.split_at(1);
        let mantissa = if rest.is_empty() {
            first.to_owned()
        } else {
            format!("{first}.{rest}")
        };
        let esign = if exp < 0 { '-' } else { '+' };
        format!("{sign}{mantissa}e{esign}{:02}", exp.unsigned_abs())
    } else if decpt <= 0 {
        format!(
            "{sign}0.{}{digits}",
            "0".repeat(decpt.unsigned_abs() as usize)
        )
    } else if decpt >= n {
        format!("{sign}{digits}{}.0", "0".repeat((decpt - n) as usize))
    } else {
        let (int, frac) = digits.split_at(decpt as usize);
        format!("{sign}{int}.{frac}")
    }
}

/// ECMAScript `Number::toString(x)` in radix 10 for a finite double (ECMA-262
/// §6.1.6.1.20): `-0` is `0`; fixed notation for `-6 < n <= 21`; otherwise `d[.ddd]e±n`.
pub fn ecmascript_number(x: f64) -> String {
    if x == 0.0 {
        return "0".to_owned();
    }
    let (digits, n) = shortest(x);
    let sign = if x < 0.0 { "-" } else { "" };
    let k = digits.len() as i32;
    if k <= n && n <= 21 {
        format!("{sign}{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        let (int, frac) = digits.split_at(n as usize);
        format!("{sign}{int}.{frac}")
    } else if -6 < n && n <= 0 {
        format!("{sign}0.{}{digits}", "0".repeat(n.unsigned_abs() as usize))
    } else {
        let exp = n - 1;
        let esign = if exp < 0 { '-' } else { '+' };
        let (first, rest) = digits.split_at(1);
        if rest.is_empty() {
            format!("{sign}{first}e{esign}{}", exp.unsigned_abs())
        } else {
            format!("{sign}{first}.{rest}e{esign}{}", exp.unsigned_abs())
        }
    }
}

/// A JSON number token read as a double (correctly rounded, as Python's `float()`, ECMAScript's
/// `JSON.parse` and Rust's `str::parse` all do). `None` when it overflows to infinity.
pub fn token_to_f64(token: &str) -> Option<f64> {
    token.parse::<f64>().ok().filter(|x| x.is_finite())
}

/// What Python's `json.dumps` writes for a number `json.loads` read from `token`: an `int` for a
/// token without fraction or exponent (its exact decimal digits; `-0` is `0`), else
/// `repr(float(token))`. `None` for a token that is not a finite number.
pub fn python_number(token: &str) -> Option<String> {
    if !crate::lossless::is_json_number(token) {
        return None;
    }
    if crate::lossless::is_integer_token(token) {
        let digits = token.strip_prefix('-').unwrap_or(token);
        if digits.bytes().all(|b| b == b'0') {
            return Some("0".to_owned());
        }
        return Some(token.to_owned());
    }
    token_to_f64(token).map(python_float_repr)
}

/// What ECMAScript's `JSON.stringify` writes for a number `JSON.parse` read from `token`.
pub fn ecmascript_token(token: &str) -> Option<String> {
    if !crate::lossless::is_json_number(token) {
        return None;
    }
    token_to_f64(token).map(ecmascript_number)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Expected values typed from `python3 -c 'print(repr(x))'` (CPython 3.11).
    #[test]
    fn python_repr_published_behaviour() {
        for (x, want) in [
            (1.0, "1.0"),
            (0.0, "0.0"),
            (-0.0, "-0.0"),
            (1e-7, "1e-07"),
            (1e16, "1e+16"),
            (1e15, "1000000000000000.0"),
            (1.5e16, "1.5e+16"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (0.1, "0.1"),
            (123.456, "123.456"),
            (1e22, "1e+22"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (5e-324, "5e-324"),
            (-2.5e-5, "-2.5e-05"),
            (1e100, "1e+100"),
            (0.3, "0.3"),
            (2.0 / 3.0, "0.6666666666666666"),
            (9007199254740993.0, "9007199254740992.0"),
            // An exact tie between two 17-digit strings: the even one.
            (f64::from_bits(0x431a_0929_e12c_c7fd), "1832106217648639.2"),
            (100.0, "100.0"),
            (1e-6, "1e-06"),
            (1234.5e-9, "1.2345e-06"),
        ] {
            assert_eq!(python_float_repr(x), want, "{x:e}");
        }
    }

    /// Expected values typed from `node -e 'console.log(String(x))'` (Node 20).
    #[test]
    fn ecmascript_published_behaviour() {
        for (x, want) in [
            (1.0, "1"),
            (-0.0, "0"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1e-7, "1e-7"),
            (1e-6, "0.000001"),
            (1.23e-18, "1.23e-18"),
            (0.1, "0.1"),
            (-1.5, "-1.5"),
            (123.456, "123.456"),
            (1.5e300, "1.5e+300"),
            (5e-324, "5e-324"),
            (f64::from_bits(0x431a_0929_e12c_c7fd), "1832106217648639.2"),
            (0.000001234, "0.000001234"),
            (100.0, "100"),
        ] {
            assert_eq!(ecmascript_number(x), want, "{x:e}");
        }
    }

    #[test]
    fn python_numbers_from_tokens() {
        for (token, want) in [
            ("1", Some("1")),
            ("-0", Some("0")),
            ("-0.0", Some("-0.0")),
            ("1.0", Some("1.0")),
            ("1E2", Some("100.0")),
            ("1e-400", Some("0.0")),
            ("-1e-400", Some("-0.0")),
            (
                "123456789012345678901234567890",
                Some("123456789012345678901234567890"),
            ),
            ("1e400", None),
            ("01", None),
        ] {
            assert_eq!(python_number(token).as_deref(), want, "{token}");
        }
    }
}
