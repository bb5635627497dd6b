//! The batch list: one input a line, bounded in line length and line count.

use std::io::BufRead;

/// Longest line of a batch list.
pub const MAX_LINE_BYTES: usize = 64 * 1024;
/// Most input lines of a batch list (empty and `#` lines do not count).
pub const MAX_LINES: usize = 1_000_000;

/// One input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// 1-based line number in the batch list.
    pub line: usize,
    /// The line, trimmed.
    pub text: String,
}

/// A batch list that cannot be read, or one over a bound. The messages are the CLI's.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    /// The list cannot be opened (nothing was checked).
    #[error("cannot read {path}: {source}")]
    Open {
        /// The list as named.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A line cannot be read (nothing was checked).
    #[error("{path}: line {line}: {source}")]
    Read {
        /// The list as named.
        path: String,
        /// The 1-based line number.
        line: usize,
        /// Why.
        source: std::io::Error,
    },
    /// A line longer than [`MAX_LINE_BYTES`] (a usage error).
    #[error("{path}: line {line} is longer than {MAX_LINE_BYTES} bytes")]
    LineTooLong {
        /// The list as named.
        path: String,
        /// The 1-based line number.
        line: usize,
    },
    /// More than [`MAX_LINES`] inputs (a usage error).
    #[error("{path}: more than {MAX_LINES} lines")]
    TooManyLines {
        /// The list as named.
        path: String,
    },
}

impl InputError {
    /// Whether the list itself is wrong (over a bound), rather than unreadable.
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            InputError::LineTooLong { .. } | InputError::TooManyLines { .. }
        )
    }
}

/// Reads the inputs of the batch list at `path` (`-`: standard input).
pub fn read_list(path: &str) -> Result<Vec<Input>, InputError> {
    if path == "-" {
        return read_inputs(std::io::stdin().lock(), path);
    }
    let file = std::fs::File::open(path).map_err(|source| InputError::Open {
        path: path.to_owned(),
        source,
    })?;
    read_inputs(std::io::BufReader::new(file), path)
}

/// Reads the inputs of a batch list from `reader` (`path` names it in errors): each line
/// trimmed; empty lines and lines starting with `#` skipped. Never reads more than
/// [`MAX_LINE_BYTES`] + 1 bytes into memory for one line.
pub fn read_inputs(mut reader: impl BufRead, path: &str) -> Result<Vec<Input>, InputError> {
    let mut inputs = Vec::new();
    for n in 1.. {
        let mut line = String::new();
        let got = std::io::Read::take(&mut reader, MAX_LINE_BYTES as u64 + 1)
            .read_line(&mut line)
            .map_err(|source| InputError::Read {
                path: path.to_owned(),
                line: n,
                source,
            })?;
        if got == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES && !line.ends_with('\n') {
            return Err(InputError::LineTooLong {
                path: path.to_owned(),
                line: n,
            });
        }
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        if inputs.len() == MAX_LINES {
            return Err(InputError::TooManyLines {
                path: path.to_owned(),
            });
        }
        inputs.push(Input {
            line: n,
            text: text.to_owned(),
        });
    }
    Ok(inputs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> Result<Vec<Input>, InputError> {
        read_inputs(text, "list.txt")
    }

    #[test]
    fn lines_are_trimmed_and_comments_and_blanks_skipped() {
        let inputs = read(b"# header\n\n  a.json  \r\n\t\n#b.json\nc d\n").unwrap();
        let expected = [(3, "a.json"), (6, "c d")];
        assert_eq!(inputs.len(), expected.len());
        for (input, (line, text)) in inputs.iter().zip(expected) {
            assert_eq!((input.line, input.text.as_str()), (line, text));
        }
        // A last line without its line break is an input all the same.
        assert_eq!(read(b"x").unwrap()[0].text, "x");
        assert!(read(b"").unwrap().is_empty());
    }

    #[test]
    fn a_line_of_the_longest_length_is_read_and_one_byte_more_is_refused() {
        let longest = "a".repeat(MAX_LINE_BYTES);
        assert_eq!(
            read(longest.as_bytes()).unwrap()[0].text.len(),
            MAX_LINE_BYTES
        );
        // Its line break is not counted against the bound.
        let with_break = format!("{longest}\nnext\n");
        assert_eq!(read(with_break.as_bytes()).unwrap().len(), 2);
        let over = format!("b\n{longest}a\n");
        let err = read(over.as_bytes()).unwrap_err();
        assert!(err.is_usage());
        assert_eq!(
            err.to_string(),
            "list.txt: line 2 is longer than 65536 bytes"
        );
    }

    #[test]
    fn a_million_inputs_are_read_and_one_more_is_refused() {
        let most = "x\n".repeat(MAX_LINES);
        assert_eq!(read(most.as_bytes()).unwrap().len(), MAX_LINES);
        // Comments and blank lines do not count toward the bound.
        let with_comments = format!("#\n\n{most}");
        assert_eq!(read(with_comments.as_bytes()).unwrap().len(), MAX_LINES);
        let over = format!("{most}x\n");
        let err = read(over.as_bytes()).unwrap_err();
        assert!(err.is_usage());
        assert_eq!(err.to_string(), "list.txt: more than 1000000 lines");
    }

    #[test]
    fn a_missing_list_cannot_be_read() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("missing.txt");
        let err = read_list(path.to_str().unwrap()).unwrap_err();
        assert!(!err.is_usage());
        assert!(matches!(err, InputError::Open { .. }));
        assert!(err.to_string().starts_with("cannot read "));
    }

    #[test]
    fn bytes_that_are_not_utf8_are_a_read_error_with_the_line() {
        let err = read(b"ok\n\xff\xfe\n").unwrap_err();
        assert!(!err.is_usage());
        assert!(err.to_string().starts_with("list.txt: line 2: "));
    }
}
