//! `cargo xtask vectors [--check]`: regenerates every vector file from its independent Python
//! generator (the one list of generators), with the pinned packages of `.venv/`. `--check`
//! fails when the committed `vectors/` differ from what the generators write (CI), naming the
//! files and the generator to re-run.

use std::{path::Path, process::Command, process::ExitCode};

use anyhow::{Context, Result, bail};

use crate::devenv;

/// Every generator, in the order they must run (the archive fixture before its vectors).
pub const GENERATORS: &[&str] = &[
    "vectors/tools/gen_canon.py",
    "vectors/tools/gen_aef_level1.py",
    "vectors/tools/aef_vectors.py",
    "vectors/tools/aca_vectors.py",
    "vectors/tools/aca_support_vectors.py",
    "vectors/tools/ledger_vectors.py",
    "vectors/tools/chain_vectors.py",
    "vectors/fixtures/archive/make_archive.py",
    "vectors/tools/archive_vectors.py",
];

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask vectors [--check]"),
    };
    let python = devenv::python_venv(root)?.join("python3");
    for generator in GENERATORS {
        let out = Command::new(&python)
            .arg(root.join(generator))
            .current_dir(root)
            .output()
            .with_context(|| format!("cannot run {generator}"))?;
        if !out.status.success() {
            bail!(
                "{generator} failed:\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
    if !check {
        eprintln!("xtask: {} generators run", GENERATORS.len());
        return Ok(ExitCode::SUCCESS);
    }
    let out = Command::new("git")
        .args(["status", "--porcelain", "--", "vectors/"])
        .current_dir(root)
        .output()
        .context("cannot run git status")?;
    let changed = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !changed.trim().is_empty() {
        eprintln!(
            "xtask: vectors/ differs from what the generators write (edit the generator, never a generated file, and re-run `cargo xtask vectors`):\n{changed}"
        );
        return Ok(ExitCode::FAILURE);
    }
    eprintln!(
        "xtask: {} generators reproduce vectors/ byte for byte",
        GENERATORS.len()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use citeproof_model::vectors::Spec;

    /// Every spec has its vector directory and a generator of that name in [`super::GENERATORS`]
    /// (`vectors/tools/<spec>_vectors.py` or `gen_<spec>.py`), and every generator exists.
    #[test]
    fn every_spec_has_its_generator() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        for generator in super::GENERATORS {
            assert!(root.join(generator).is_file(), "{generator}");
        }
        for spec in Spec::ALL {
            assert!(
                root.join("vectors").join(spec.name()).is_dir(),
                "vectors/{spec}/"
            );
            let named = super::GENERATORS.iter().any(|g| {
                let stem = Path::new(g).file_stem().and_then(|s| s.to_str());
                stem.is_some_and(|s| s.split('_').any(|word| word == spec.name()))
            });
            assert!(named, "no generator of {spec} in GENERATORS");
        }
    }
}
