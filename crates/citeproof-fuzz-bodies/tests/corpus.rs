//! The CI smoke of the fuzz targets: every committed, minimized corpus file of
//! `fuzz/corpus/<target>/` goes through its target's body on stable Rust, so a change that
//! makes a parser panic, hang or break a target's property on an input the fuzzer once reached
//! fails `cargo test --workspace`. Also keeps `fuzz/Cargo.toml`, `fuzz/fuzz_targets/` and the
//! bodies' table in step: a target without a body, a corpus or a one-line call to its body
//! fails here.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use citeproof_fuzz_bodies::TARGETS;

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz")
}

fn corpus_files(target: &str) -> Vec<PathBuf> {
    let dir = fuzz_dir().join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

#[test]
fn every_corpus_file_replays_through_its_target() {
    let mut counts = Vec::new();
    for (name, body) in TARGETS {
        let files = corpus_files(name);
        assert!(!files.is_empty(), "fuzz/corpus/{name}/ is empty");
        let start = Instant::now();
        for file in &files {
            let data = std::fs::read(file).unwrap();
            // The file name is what a failure needs to reproduce it:
            // `cargo +nightly fuzz run <target> fuzz/corpus/<target>/<file>`.
            eprintln!("replaying {}", file.display());
            body(&data);
        }
        counts.push(format!(
            "{name}: {} files in {:.2} s",
            files.len(),
            start.elapsed().as_secs_f64()
        ));
    }
    println!("{}", counts.join("\n"));
}

#[test]
fn the_fuzz_crate_declares_exactly_these_targets() {
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).unwrap();
    let declared: BTreeSet<String> = manifest
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .filter_map(|l| l.strip_suffix('"'))
        .filter(|n| *n != "citeproof-fuzz")
        .map(str::to_owned)
        .collect();
    let bodies: BTreeSet<String> = TARGETS.iter().map(|(n, _)| (*n).to_owned()).collect();
    assert_eq!(declared, bodies, "fuzz/Cargo.toml [[bin]]s vs TARGETS");
    for name in &bodies {
        let source =
            std::fs::read_to_string(fuzz_dir().join(format!("fuzz_targets/{name}.rs"))).unwrap();
        let call = format!("citeproof_fuzz_bodies::{name}(data)");
        assert!(
            source.contains(&call),
            "fuzz_targets/{name}.rs does not call {call}"
        );
    }
}
