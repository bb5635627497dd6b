//! Loading the vector files under `vectors/`.
//!
//! Loading is deliberately lenient about incident codes: a case's expected codes are kept as
//! strings, so a vectors directory newer than this build's incident registry still runs (the
//! lint, not the loader, reports unregistered codes). Everything else follows the vector file
//! format of `citeproof_model::vectors` and `schemas/vector-file.schema.json`.

use std::{
    collections::BTreeMap,
    fmt,
    path::{Path, PathBuf},
};

use citeproof_model::vectors::{DerivationKind, Validity};
use serde::Deserialize;
use serde_json::Value;

use crate::claim::Selection;

/// Directories under `vectors/` that hold no vector files.
/// `tools/` holds the independent generators, `meta/` the coverage exemptions, `fixtures/` the
/// documents the generators and the crates' tests read.
pub const NON_VECTOR_DIRS: &[&str] = &["tools", "meta", "fixtures"];

/// The loaded vectors.
#[derive(Debug, Clone)]
pub struct Suite {
    pub root: PathBuf,
    pub files: Vec<VectorFile>,
    /// `sha256:` over every file's path and bytes, in path order: identifies the vector set.
    pub digest: String,
    /// What was selected of the loaded files (everything, unless [`Suite::select`] left cases
    /// out): a run of a selection is never a conformance claim.
    pub selection: Selection,
}

/// One vector file.
#[derive(Debug, Clone)]
pub struct VectorFile {
    /// Path relative to the vectors directory, with `/` separators.
    pub path: String,
    pub spec: String,
    pub operation: String,
    pub description: String,
    pub attribution: Option<String>,
    pub flags: BTreeMap<String, String>,
    pub cases: Vec<Case>,
    /// The file as parsed, for schema validation by the lint.
    pub raw: Value,
}

/// One case, with the file it belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct Case {
    pub id: String,
    pub description: String,
    pub requirements: Vec<String>,
    pub level: u8,
    pub flags: Vec<String>,
    pub input: Value,
    pub expected: Expected,
    pub derivation: Derivation,
    /// Path of the file, relative to the vectors directory.
    pub file: String,
    pub spec: String,
    pub operation: String,
    /// A case of the vector files, or a variant generated for this run.
    pub origin: crate::variants::Origin,
}

#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub result: Validity,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
    /// How `errors` is compared with the answer's error codes (default: exactly).
    #[serde(default, skip_serializing_if = "ErrorsMatch::is_exact")]
    pub errors_match: ErrorsMatch,
    /// When present, the answer's warning codes must be exactly these (as a set), whatever the
    /// result; `[]` asserts that no warning is raised.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
}

pub use citeproof_model::vectors::ErrorsMatch;

#[derive(Debug, Clone, PartialEq, Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields)]
pub struct Derivation {
    pub kind: DerivationKind,
    pub detail: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(rename = "$schema", default)]
    _schema: Option<String>,
    spec: String,
    operation: String,
    description: String,
    #[serde(default)]
    attribution: Option<String>,
    #[serde(default)]
    flags: BTreeMap<String, String>,
    cases: Vec<RawCase>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCase {
    id: String,
    description: String,
    requirements: Vec<String>,
    level: u8,
    #[serde(default)]
    flags: Vec<String>,
    input: Value,
    expected: Expected,
    derivation: Derivation,
}

/// Why the suite could not be loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub path: String,
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl std::error::Error for LoadError {}

impl Suite {
    /// Loads every `*.json` file under `root` (recursively, skipping [`NON_VECTOR_DIRS`]);
    /// fails when any file cannot be loaded.
    pub fn load(root: &Path) -> Result<Suite, Vec<LoadError>> {
        let (suite, errors) = Suite::load_lenient(root);
        if errors.is_empty() {
            Ok(suite)
        } else {
            Err(errors)
        }
    }

    /// Loads what can be loaded and returns the files that could not be, for the lint.
    pub fn load_lenient(root: &Path) -> (Suite, Vec<LoadError>) {
        let mut paths = Vec::new();
        let mut errors = Vec::new();
        if let Err(e) = collect(root, root, &mut paths) {
            errors.push(LoadError {
                path: root.display().to_string(),
                message: e.to_string(),
            });
        }
        paths.sort();
        let mut files: Vec<VectorFile> = Vec::new();
        let mut first_file_of: BTreeMap<String, String> = BTreeMap::new();
        let mut digest_input = Vec::new();
        for rel in paths {
            let full = root.join(&rel);
            let bytes = match std::fs::read(&full) {
                Ok(b) => b,
                Err(e) => {
                    errors.push(LoadError {
                        path: rel,
                        message: e.to_string(),
                    });
                    continue;
                }
            };
            digest_entry(&mut digest_input, &rel, &bytes);
            match parse_file(&rel, &bytes) {
                Ok(file) => {
                    errors.extend(duplicate_ids(&file, &mut first_file_of));
                    files.push(file);
                }
                Err(message) => errors.push(LoadError { path: rel, message }),
            }
        }
        let loaded = files.iter().map(|f| f.cases.len()).sum();
        let suite = Suite {
            root: root.to_path_buf(),
            files,
            digest: citeproof_model::sha256_bytes(&digest_input).to_string(),
            selection: Selection::everything(loaded),
        };
        (suite, errors)
    }

    /// Every case, in file order then case order.
    pub fn cases(&self) -> impl Iterator<Item = &Case> {
        self.files.iter().flat_map(|f| f.cases.iter())
    }

    /// A suite restricted to the files matching any of `patterns` (all when empty).
    pub fn filtered(&self, patterns: &[String]) -> Suite {
        self.select(patterns, &[])
    }

    /// A suite restricted to the files matching any of `file_patterns` (`--suite`), then to the
    /// cases whose id matches any of `case_patterns` (`--case`); empty lists keep everything.
    /// What is left out is recorded in [`Suite::selection`].
    pub fn select(&self, file_patterns: &[String], case_patterns: &[String]) -> Suite {
        let mut files = self.files.clone();
        let mut selection = self.selection.clone();
        selection.apply(&mut files, file_patterns, case_patterns);
        Suite {
            root: self.root.clone(),
            files,
            digest: self.digest.clone(),
            selection,
        }
    }

    /// Number of cases.
    pub fn len(&self) -> usize {
        self.files.iter().map(|f| f.cases.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

fn collect(root: &Path, dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        if entry.file_type()?.is_dir() {
            if dir == root && NON_VECTOR_DIRS.contains(&name.as_str()) {
                continue;
            }
            collect(root, &path, out)?;
        } else if name.ends_with(".json") {
            let rel = path
                .strip_prefix(root)
                .unwrap_or(&path)
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect::<Vec<_>>()
                .join("/");
            out.push(rel);
        }
    }
    Ok(())
}

/// Parses one vector file (strict I-JSON, then the file format).
pub fn parse_file(rel: &str, bytes: &[u8]) -> Result<VectorFile, String> {
    let raw = citeproof_model::json::parse_strict(bytes).map_err(|e| {
        format!(
            "{} at byte {}: {}",
            e.code,
            e.offset.unwrap_or_default(),
            e.message
        )
    })?;
    let file = RawFile::deserialize(&raw).map_err(|e| format!("not a vector file: {e}"))?;
    let cases = file
        .cases
        .into_iter()
        .map(|c| Case {
            id: c.id,
            description: c.description,
            requirements: c.requirements,
            level: c.level,
            flags: c.flags,
            input: c.input,
            expected: c.expected,
            derivation: c.derivation,
            file: rel.to_owned(),
            spec: file.spec.clone(),
            operation: file.operation.clone(),
            origin: crate::variants::Origin::Static,
        })
        .collect();
    Ok(VectorFile {
        path: rel.to_owned(),
        spec: file.spec,
        operation: file.operation,
        description: file.description,
        attribution: file.attribution,
        flags: file.flags,
        cases,
        raw,
    })
}

/// One file's part of the suite digest: its path, a NUL, the SHA-256 of its bytes.
fn digest_entry(input: &mut Vec<u8>, rel: &str, bytes: &[u8]) {
    input.extend_from_slice(rel.as_bytes());
    input.push(0);
    input.extend_from_slice(citeproof_model::sha256_bytes(bytes).digest());
}

/// The digest [`Suite::load`] would compute for these files (paths relative to the vectors
/// directory, `/`-separated): what identifies a suite without loading it, e.g. the one embedded
/// in the binary. Files [`Suite::load`] does not read (outside `*.json`, under
/// [`NON_VECTOR_DIRS`], hidden) are left out here too.
pub fn digest_of<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut files: Vec<(&str, &[u8])> = files
        .into_iter()
        .filter(|(rel, _)| {
            let top = rel.split('/').next().unwrap_or_default();
            rel.ends_with(".json")
                && !NON_VECTOR_DIRS.contains(&top)
                && !rel.split('/').any(|c| c.starts_with('.'))
        })
        .collect();
    files.sort();
    let mut input = Vec::new();
    for (rel, bytes) in files {
        digest_entry(&mut input, rel, bytes);
    }
    citeproof_model::sha256_bytes(&input).to_string()
}

/// Case ids of `file` already seen in an earlier file or earlier in the same file: a second
/// case with one id would be reported, xfailed and reproduced as if it were the first.
fn duplicate_ids(
    file: &VectorFile,
    first_file_of: &mut BTreeMap<String, String>,
) -> Vec<LoadError> {
    let mut errors = Vec::new();
    for case in &file.cases {
        if let Some(first) = first_file_of.get(&case.id) {
            errors.push(LoadError {
                path: file.path.clone(),
                message: format!("duplicate case id `{}` (also in {first})", case.id),
            });
        } else {
            first_file_of.insert(case.id.clone(), file.path.clone());
        }
    }
    errors
}
