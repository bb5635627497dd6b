//! The conformance suite as data: the vector files, the profile and the adapter contract of the
//! tree the binary was built from. `citeproof conformance` runs them unless `--vectors DIR` names
//! another suite; [`materialize`] writes them out so the file-based loader and lint apply
//! unchanged.

#![allow(clippy::large_include_file)] // the vector files are the point of this crate

use std::path::Path;

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// Writes `vectors/…`, `docs/PROFILE.md` and `docs/ADAPTER.md` under `root`, creating
/// directories. Existing files are overwritten.
pub fn materialize(root: &Path) -> std::io::Result<()> {
    for (rel, bytes) in VECTOR_FILES {
        let path = root.join("vectors").join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, bytes)?;
    }
    let docs = root.join("docs");
    std::fs::create_dir_all(&docs)?;
    std::fs::write(docs.join("PROFILE.md"), PROFILE)?;
    std::fs::write(docs.join("ADAPTER.md"), ADAPTER)
}

/// A one-line description of the embedded suite: file count and total bytes.
pub fn describe() -> String {
    let bytes: usize = VECTOR_FILES.iter().map(|(_, b)| b.len()).sum();
    format!("{} embedded files, {bytes} bytes", VECTOR_FILES.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_files_equal_the_tree() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        assert!(VECTOR_FILES.len() > 15);
        for (rel, bytes) in VECTOR_FILES {
            assert!(
                !rel.starts_with("tools/") && !rel.starts_with("fixtures/"),
                "{rel}"
            );
            let on_disk = std::fs::read(root.join("vectors").join(rel)).unwrap_or_default();
            assert_eq!(&on_disk, bytes, "{rel}");
        }
        assert!(
            VECTOR_FILES
                .iter()
                .any(|(r, _)| *r == "meta/coverage-exemptions.json")
        );
        assert!(PROFILE.starts_with("# citeproof profile"));
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        materialize(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        assert!(dir.path().join("vectors/canon/jcs.json").is_file());
        assert!(dir.path().join("docs/PROFILE.md").is_file());
    }
}
