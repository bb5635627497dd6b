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
    // The operations' input contracts, from the spec descriptors.
    let operations = dir.join("adapter/operations.json");
    let mut text = serde_json::to_string_pretty(&citeproof_reference::operations_schema())?;
    text.push('\n');
    if std::fs::read_to_string(&operations).ok().as_deref() != Some(text.as_str()) {
        if check {
            drift.push(format!("differs: {}", operations.display()));
        } else {
            std::fs::write(&operations, text)
                .with_context(|| format!("writing {}", operations.display()))?;
            println!("wrote {}", operations.display());
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
        eprintln!("schemas/ is out of date with the citeproof-model types and spec descriptors:");
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
