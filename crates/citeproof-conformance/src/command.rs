//! The `--impl` command line: split into words like a POSIX shell (no expansion), and the words
//! that name paths made absolute (the adapter runs in an empty directory).

use std::path::Path;

/// Splits a command line like a POSIX shell does for words and quotes (no expansion):
/// whitespace separates words, `'...'` is literal, `"..."` allows `\"` and `\\`, and a
/// backslash outside quotes escapes the next character.
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("unterminated single quote in the command".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("unterminated double quote in the command".into()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("unterminated double quote in the command".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => word.push('\\'),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if words.is_empty() {
        return Err("the implementation command is empty".into());
    }
    Ok(words)
}

/// The command with every word that names an existing path relative to the runner's working
/// directory made absolute: the child runs in an empty directory. A word counts when it does
/// not start with `-` and either contains a `/` or names an existing file.
pub(crate) fn resolve_paths(argv: &[String]) -> Vec<String> {
    let Ok(cwd) = std::env::current_dir() else {
        return argv.to_vec();
    };
    argv.iter()
        .map(|word| {
            let path = Path::new(word);
            let candidate = cwd.join(path);
            let counts = !word.starts_with('-')
                && !path.is_absolute()
                && (word.contains('/') && candidate.exists() || candidate.is_file());
            if counts {
                candidate.display().to_string()
            } else {
                word.clone()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn command_splitting() {
        assert_eq!(
            split_command("python3 adapter.py").unwrap(),
            ["python3", "adapter.py"]
        );
        assert_eq!(
            split_command(r#"  a 'b c' "d \"e\"" f\ g "" "#).unwrap(),
            ["a", "b c", "d \"e\"", "f g", ""]
        );
        assert!(split_command("a 'b").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn relative_paths_become_absolute_other_words_stay() {
        let cwd = std::env::current_dir().unwrap();
        let words: Vec<String> = [
            "python3",
            "src/lib.rs",
            "Cargo.toml",
            "--flag",
            "adapter",
            "no/such/path",
        ]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
        let out = resolve_paths(&words);
        assert_eq!(out[0], "python3");
        assert_eq!(out[1], cwd.join("src/lib.rs").display().to_string());
        assert_eq!(out[2], cwd.join("Cargo.toml").display().to_string());
        assert_eq!(&out[3..], &words[3..]);
    }
}
