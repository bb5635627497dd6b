//! RFC 6901 JSON pointers: the one place their reference tokens are escaped and unescaped.
//! Every incident location of every spec is built with [`child`] / [`index`].

/// The reference token of `name` (RFC 6901 §3: `~` as `~0`, then `/` as `~1`).
pub fn escape(name: &str) -> String {
    if !name.contains(['~', '/']) {
        return name.to_owned();
    }
    let mut out = String::with_capacity(name.len() + 2);
    for c in name.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
    out
}

/// The member name a reference token stands for (RFC 6901 §4: `~1` to `/` first, then `~0` to
/// `~`, so `~01` is `~1`); `None` for a `~` not followed by `0` or `1`.
pub fn unescape(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut chars = token.chars();
    while let Some(c) = chars.next() {
        if c == '~' {
            match chars.next() {
                Some('0') => out.push('~'),
                Some('1') => out.push('/'),
                _ => return None,
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// The pointer to member `name` of the value at `parent` (`""` is the whole document).
pub fn child(parent: &str, name: &str) -> String {
    format!("{parent}/{}", escape(name))
}

/// The pointer to element `i` of the array at `parent`.
pub fn index(parent: &str, i: usize) -> String {
    format!("{parent}/{i}")
}

/// The reference tokens of `pointer`, unescaped; `None` when it is not a pointer (it must be
/// empty or start with `/`, and every `~` must be an escape).
pub fn tokens(pointer: &str) -> Option<Vec<String>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    pointer
        .strip_prefix('/')?
        .split('/')
        .map(unescape)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 6901 §5's example document keys and their pointers (published data).
    #[test]
    fn rfc6901_section5_examples() {
        for (key, pointer) in [
            ("foo", "/foo"),
            ("", "/"),
            ("a/b", "/a~1b"),
            ("c%d", "/c%d"),
            ("e^f", "/e^f"),
            ("g|h", "/g|h"),
            ("i\\j", "/i\\j"),
            ("k\"l", "/k\"l"),
            (" ", "/ "),
            ("m~n", "/m~0n"),
        ] {
            assert_eq!(child("", key), pointer);
            assert_eq!(tokens(pointer), Some(vec![key.to_owned()]));
        }
        assert_eq!(index("/foo", 0), "/foo/0");
        assert_eq!(tokens(""), Some(vec![]));
    }

    #[test]
    fn unescape_order_and_errors() {
        // §4: "~01" becomes "~1", not "/".
        assert_eq!(unescape("~01").as_deref(), Some("~1"));
        assert_eq!(escape("~1"), "~01");
        assert_eq!(unescape("~"), None);
        assert_eq!(unescape("~2"), None);
        assert_eq!(tokens("foo"), None);
    }
}
