//! Embeds `vectors/**/*.json` (vector files and `meta/`), `docs/PROFILE.md` and
//! `docs/ADAPTER.md` of the workspace into the crate: `include_bytes!` of every file, listed in a
//! generated table, so the table always matches the tree the binary was built from.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let root = manifest.join("../..");
    let vectors = root.join("vectors");
    println!("cargo:rerun-if-changed={}", vectors.display());
    println!("cargo:rerun-if-changed={}", root.join("docs").display());
    let mut files = Vec::new();
    collect(&vectors, &vectors, &mut files);
    files.sort();
    let mut out = String::from(
        "/// Every embedded file: path relative to `vectors/`, bytes.\npub static VECTOR_FILES: &[(&str, &[u8])] = &[\n",
    );
    for (rel, abs) in &files {
        let _ = writeln!(out, "    ({rel:?}, include_bytes!({abs:?})),");
        println!("cargo:rerun-if-changed={abs}");
    }
    out.push_str("];\n");
    for (name, file) in [("PROFILE", "PROFILE.md"), ("ADAPTER", "ADAPTER.md")] {
        let abs = root.join("docs").join(file);
        println!("cargo:rerun-if-changed={}", abs.display());
        let _ = writeln!(
            out,
            "/// `docs/{file}` of the tree this was built from.\npub static {name}: &str = include_str!({:?});",
            abs.display().to_string()
        );
    }
    let dest = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default()).join("embedded.rs");
    if let Err(e) = std::fs::write(&dest, out) {
        // A build script reports failure through its exit status; cargo shows stderr.
        eprintln!("cannot write {}: {e}", dest.display());
        std::process::exit(1);
    }
}

/// JSON files under `dir`, except the generators (`tools/`) and the fixtures' inputs that only
/// the generators read (`fixtures/`).
fn collect(base: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if dir == base && (name == "tools" || name == "fixtures") {
                continue;
            }
            collect(base, &path, out);
        } else if name.ends_with(".json") {
            let rel = path
                .strip_prefix(base)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            out.push((rel, path.display().to_string()));
        }
    }
}
