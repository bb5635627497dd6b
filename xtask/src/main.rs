//! Project chores: `cargo xtask <task>`. See `cargo xtask help`.

use std::{
    path::{Path, PathBuf},
    process::ExitCode,
};

use anyhow::{Result, bail};

mod bench;
mod bench_checks;
mod bench_peer;
mod boundaries;
mod claims;
mod conformance;
mod devenv;
mod fuzz;
mod mutants;
mod mutants_equivalent;
mod mutants_record;
mod mutants_reference;
mod schemas;
mod test;
mod tidy;
mod vectors;

const HELP: &str = "\
cargo xtask <task>

Tasks:
  bench [--json] [--checks | --peer | --all] [-- CRITERION ARGS]
                        run the criterion benchmarks once and print every metric (ratios
                        measured in the same run, targets, met or not); --checks runs the
                        scale checks on the release binary instead, --peer the plain
                        Python peer (benches/peer_aca.py) whole process, --all all; --json
                        prints one JSON object; fails when a target is missed
  test [-- CARGO TEST ARGS]
                        the README's test command: sets up .venv/ from requirements-dev.txt
                        and the node adapter's packages (npm ci), then runs
                        `cargo test --workspace` with every Python and node cross-check
                        required (none skips)
  vectors [--check]     regenerate every vector file from its Python generator (in .venv/);
                        --check fails when vectors/ differs from what they write
  schemas [--check]     regenerate schemas/*.schema.json from the citeproof-model types;
                        --check fails (exit 1) when the committed files differ
  conformance [--strict] [--lint-only] [--release] [-- ARGS]
                        lint the vectors, write vectors/TRACEABILITY.md, then run
                        `citeproof conformance --vectors vectors ARGS` (in-process
                        reference by default);
                        --strict fails when a MUST requirement lacks a passing or failing case
  fuzz [--seconds N] [--jobs J] [--no-cmin] [TARGET...]
                        fuzz every target of fuzz/ (nightly, cargo-fuzz) for N seconds,
                        minimize its corpus and record executions in fuzz/RUNS.md
  mutants [--seed N] [--release] [NAME...]
                        run the suite against every deliberately broken adapter of
                        examples/adapters/mutants/ and print the mutation score; fails when
                        one survives
  mutants --reference [--file PATH]... [--shard K/N] [--ci] [--list] [--record]
                        cargo-mutants over the model's grammars and the spec validators with
                        the conformance suite as the test; prints survivors by file and
                        function, --record writes the score into mutants/RUNS.md
  tidy                  check the layout rules: Rust files of at most 600 lines,
                        ARCHITECTURE.md naming exactly the workspace's crates, workspace
                        lints inherited by every crate (also a test of `cargo test -p xtask`)
";

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(e) => {
            eprintln!("xtask: error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run() -> Result<ExitCode> {
    let mut args = std::env::args().skip(1);
    let task = args.next();
    let rest: Vec<String> = args.collect();
    match task.as_deref() {
        Some("test") => test::run(&workspace_root(), strip_separator(&rest)),
        Some("vectors") => vectors::run(&workspace_root(), &rest),
        Some("schemas") => schemas::run(&workspace_root(), &rest),
        Some("conformance") => conformance::run(&workspace_root(), &rest),
        Some("bench") => bench::run(&workspace_root(), &rest),
        Some("fuzz") => fuzz::run(&workspace_root(), &rest),
        Some("mutants") => mutants::run(&workspace_root(), &rest),
        Some("tidy") => tidy::run(&workspace_root(), &rest),
        Some("help") | Some("--help") | Some("-h") | None => {
            print!("{HELP}");
            Ok(ExitCode::SUCCESS)
        }
        Some(other) => bail!("unknown task `{other}`\n{HELP}"),
    }
}

/// `cargo xtask test -- ARGS` and `cargo xtask test ARGS` mean the same.
fn strip_separator(args: &[String]) -> &[String] {
    match args.split_first() {
        Some((first, rest)) if first == "--" => rest,
        _ => args,
    }
}

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default()
}
