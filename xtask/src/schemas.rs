//! `cargo xtask schemas [--check]`.

use std::{path::Path, process::ExitCode};

use anyhow::{Context, Result, bail};
use citeproof_schema::DocumentKind;

pub fn run(root: &Path, args: &[String]) -> Result<ExitCode> {
    let check = match args {
        [] => false,
        [flag] if flag == "--check" => true,
        _ => bail!("usage: cargo xtask schemas [--check]"),
    };
    let dir = root.join("schemas");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;

    let mut expected_files = Vec::new();
    let mut drift = Vec::new();
    for kind in DocumentKind::ALL {
        let path = dir.join(kind.file_name());
        let mut text = serde_json::to_string_pretty(&kind.schema())?;
        text.push('\n');
        expected_files.push(kind.file_name());
        let current = std::fs::read_to_string(&path).ok();
        if current.as_deref() == Some(text.as_str()) {
            continue;
        }
        if check {
            drift.push(format!(
                "{} {}",
                if current.is_some() {
                    "differs:"
                } else {
                    "missing:"
                },
                path.display()
            ));
        } else {
            std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
            println!("wrote {}", path.display());
        }
    }
    // A schema file whose type was removed is drift too.
    for entry in std::fs::read_dir(&dir)? {
        let name = entry?.file_name().to_string_lossy().into_owned();
        if name.ends_with(".schema.json") && !expected_files.contains(&name) {
            if check {
                drift.push(format!("stale: schemas/{name}"));
            } else {
                std::fs::remove_file(dir.join(&name))?;
                println!("removed stale schemas/{name}");
            }
        }
    }
    if !drift.is_empty() {
        eprintln!("schemas/ is out of date with the citeproof-model types:");
        for d in &drift {
            eprintln!("  {d}");
        }
        eprintln!("run `cargo xtask schemas` and commit the result");
        return Ok(ExitCode::FAILURE);
    }
    if check {
        println!(
            "schemas/ is up to date ({} schemas)",
            DocumentKind::ALL.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}
