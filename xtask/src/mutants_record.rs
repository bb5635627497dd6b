//! The record of the reference's mutation runs: `mutants/outcomes.json` keeps every mutant's
//! last verdict, keyed by file and by mutant name, and the score table of `mutants/RUNS.md` is
//! derived from it.
//!
//! A run of a whole file replaces that file's mutants (names of mutants that no longer exist go
//! with them); a shard, or a run narrowed to some mutants (the confirmation of survivors), adds
//! its mutants and replaces only those it ran again. So shards run on different days or
//! machines add up to the file's row, and re-running a shard never counts a mutant twice.
//! A survivor's equivalent mark (`mutants_equivalent`) stays on its entry for as long as the
//! mutant survives.

use std::{
    collections::{BTreeMap, BTreeSet},
    fmt::Write as _,
    path::Path,
    process::Command,
};

use anyhow::{Context, Result, bail};
use serde_json::{Map, Value, json};

use crate::mutants_equivalent::{self, Equivalent, Kind, is_equivalent};
use crate::mutants_reference::{MutantOutcome, Verdict, cargo};

/// One mutant's last recorded outcome.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub verdict: Verdict,
    /// Build and test time of this mutant (cargo-mutants' phase durations).
    pub seconds: f64,
    pub date: String,
    /// A person's judgement that this survivor is equivalent (kept in `outcomes.json`).
    pub equivalent: Option<Equivalent>,
}

/// file -> mutant name -> last outcome.
pub type Store = BTreeMap<String, BTreeMap<String, Entry>>;

/// How a run's outcomes enter the store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Every mutant of each file the run touched: the file's old entries are dropped.
    WholeFiles,
    /// Some mutants (a shard, or the survivors re-run): entries are added or replaced by name.
    Some,
}

pub fn merge(store: &mut Store, run: &[MutantOutcome], scope: Scope, date: &str) {
    let mut marks: BTreeMap<(String, String), Equivalent> = BTreeMap::new();
    for o in run {
        if let Some(q) = store
            .get(&o.file)
            .and_then(|m| m.get(&o.name))
            .and_then(|e| e.equivalent.clone())
        {
            marks.insert((o.file.clone(), o.name.clone()), q);
        }
    }
    if scope == Scope::WholeFiles {
        for o in run {
            store.remove(&o.file);
        }
    }
    for o in run {
        store.entry(o.file.clone()).or_default().insert(
            o.name.clone(),
            Entry {
                verdict: o.verdict.clone(),
                seconds: o.seconds,
                date: date.to_owned(),
                // A mutant a run now kills is no longer equivalent.
                equivalent: (o.verdict == Verdict::Missed)
                    .then(|| marks.remove(&(o.file.clone(), o.name.clone())))
                    .flatten(),
            },
        );
    }
}

pub fn load(path: &Path) -> Result<Store> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Store::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    let doc: Value =
        serde_json::from_str(&text).with_context(|| format!("parsing {}", path.display()))?;
    let mut store = Store::new();
    for (file, mutants) in doc.as_object().context("outcomes: not an object")? {
        let row = store.entry(file.clone()).or_default();
        for (name, e) in mutants
            .as_object()
            .context("outcomes: file not an object")?
        {
            let verdict = e
                .get("verdict")
                .and_then(Value::as_str)
                .and_then(Verdict::parse)
                .with_context(|| format!("outcomes: {name}: no known verdict"))?;
            let equivalent = match e.get("equivalent") {
                None => None,
                Some(q) => Some(Equivalent {
                    kind: q
                        .get("kind")
                        .and_then(Value::as_str)
                        .and_then(Kind::parse)
                        .with_context(|| format!("outcomes: {name}: no known equivalent kind"))?,
                    reason: q
                        .get("reason")
                        .and_then(Value::as_str)
                        .with_context(|| format!("outcomes: {name}: an equivalent without reason"))?
                        .to_owned(),
                }),
            };
            row.insert(
                name.clone(),
                Entry {
                    equivalent,
                    verdict,
                    seconds: e.get("seconds").and_then(Value::as_f64).unwrap_or_default(),
                    date: e
                        .get("date")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                },
            );
        }
    }
    Ok(store)
}

pub fn save(path: &Path, store: &Store) -> Result<()> {
    let mut doc = Map::new();
    for (file, mutants) in store {
        let mut m = Map::new();
        for (name, e) in mutants {
            // Whole seconds with one decimal: the file is committed and diffed.
            let seconds = (e.seconds * 10.0).round() / 10.0;
            let mut entry =
                json!({"verdict": e.verdict.as_str(), "seconds": seconds, "date": e.date});
            if let Some(q) = &e.equivalent {
                entry["equivalent"] = json!({"kind": q.kind.as_str(), "reason": q.reason});
            }
            m.insert(name.clone(), entry);
        }
        doc.insert(file.clone(), Value::Object(m));
    }
    let text = serde_json::to_string_pretty(&Value::Object(doc))? + "\n";
    std::fs::write(path, text).with_context(|| format!("writing {}", path.display()))
}

/// A file's row of the score table. `listed`: how many mutants cargo-mutants lists for the
/// file today.
pub fn row(file: &str, mutants: &BTreeMap<String, Entry>, listed: usize) -> String {
    let count = |v: &[Verdict]| mutants.values().filter(|e| v.contains(&e.verdict)).count();
    let equivalent = mutants.values().filter(|e| is_equivalent(e)).count();
    let tried = mutants.len();
    let unviable = count(&[Verdict::Unviable]);
    let killed = count(&[Verdict::Caught, Verdict::CaughtByVariants, Verdict::Timeout]);
    let survived = count(&[Verdict::Missed]);
    let date = mutants
        .values()
        .map(|e| e.date.as_str())
        .max()
        .unwrap_or_default();
    let minutes: f64 = mutants.values().map(|e| e.seconds).sum::<f64>() / 60.0;
    let denominator = (tried - unviable).saturating_sub(equivalent);
    let score = if denominator == 0 {
        "-".to_owned()
    } else {
        // Rounded down, as the summary's scores.
        format!(
            "{:.0}%",
            (100.0 * killed as f64 / denominator as f64).floor()
        )
    };
    format!(
        "| `{file}` | {date} | {listed} | {tried} | {unviable} | {killed} | {survived} | {equivalent} | {score} | {minutes:.1} |"
    )
}

/// The file named by a table row (`| `path` | ...`), if the line is one.
fn row_file(line: &str) -> Option<&str> {
    line.strip_prefix("| `")?.split_once("` |").map(|(f, _)| f)
}

/// The listed column (the 3rd cell) of the row of `file`, as the last record wrote it.
pub fn listed_in(text: &str, file: &str) -> Option<usize> {
    text.lines()
        .find(|l| row_file(l) == Some(file))
        .and_then(|l| l.split('|').nth(3))
        .and_then(|c| c.trim().parse().ok())
}

/// `mutants/RUNS.md` as `store` generates it: every file's row of the score table (`listed`
/// from `fresh`, else from the row as it stands), the summary and the list of equivalent
/// mutants.
pub fn render(text: &str, store: &Store, fresh: &BTreeMap<String, usize>) -> Result<String> {
    let mut rows = BTreeMap::new();
    for (file, mutants) in store {
        let listed = fresh
            .get(file)
            .copied()
            .or_else(|| listed_in(text, file))
            .unwrap_or(mutants.len());
        rows.insert(file.clone(), row(file, mutants, listed));
    }
    mutants_equivalent::render_blocks(&rewrite_table(text, &rows)?, store)
}

/// Rewrites `mutants/RUNS.md` from `mutants/outcomes.json` (after equivalent marks were added
/// or changed by hand): `--render`.
pub fn render_file(root: &Path) -> Result<()> {
    let store = load(&root.join("mutants/outcomes.json"))?;
    let runs_path = root.join("mutants/RUNS.md");
    let text = std::fs::read_to_string(&runs_path)
        .with_context(|| format!("reading {}", runs_path.display()))?;
    std::fs::write(&runs_path, render(&text, &store, &BTreeMap::new())?)
        .with_context(|| format!("writing {}", runs_path.display()))?;
    println!(
        "rendered {} from mutants/outcomes.json",
        runs_path.display()
    );
    Ok(())
}

/// Replaces the rows of `rows`' files in the score table (matched by the exact path in the
/// first cell) and adds the others after the table's last row.
pub fn rewrite_table(text: &str, rows: &BTreeMap<String, String>) -> Result<String> {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    for (file, new) in rows {
        match lines
            .iter()
            .position(|l| row_file(l) == Some(file.as_str()))
        {
            Some(i) => lines[i] = new.clone(),
            None => {
                let end = lines
                    .iter()
                    .rposition(|l| row_file(l).is_some())
                    .or_else(|| lines.iter().rposition(|l| l.starts_with("|---")))
                    .context("mutants/RUNS.md has no score table")?;
                lines.insert(end + 1, new.clone());
            }
        }
    }
    Ok(lines.join("\n") + "\n")
}

/// How many mutants cargo-mutants lists for `file` today (no build).
fn listed(root: &Path, file: &str) -> Result<usize> {
    let out = Command::new(cargo())
        .current_dir(root)
        .args(["mutants", "--list", "--file", file])
        .output()
        .context("running cargo mutants --list")?;
    if !out.status.success() {
        bail!("cargo mutants --list --file {file} failed");
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().count())
}

/// Merges the run into `mutants/outcomes.json` and rewrites `mutants/RUNS.md` from it (the
/// rows of the run's files with the number of mutants listed today).
pub fn record(root: &Path, run: &[MutantOutcome], scope: Scope) -> Result<()> {
    let store_path = root.join("mutants/outcomes.json");
    let runs_path = root.join("mutants/RUNS.md");
    let mut store = load(&store_path)?;
    let date = Command::new("date")
        .args(["-u", "+%Y-%m-%d"])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    merge(&mut store, run, scope, &date);
    let text = std::fs::read_to_string(&runs_path)
        .with_context(|| format!("reading {}", runs_path.display()))?;
    let mut fresh = BTreeMap::new();
    for file in run.iter().map(|m| &m.file).collect::<BTreeSet<_>>() {
        fresh.insert(file.clone(), listed(root, file)?);
    }
    std::fs::write(&runs_path, render(&text, &store, &fresh)?)
        .with_context(|| format!("writing {}", runs_path.display()))?;
    save(&store_path, &store)?;
    println!(
        "recorded in {} and {}",
        store_path.display(),
        runs_path.display()
    );
    Ok(())
}

/// Per file: tried, caught, missed, timeouts, unviable.
pub fn tally(outcomes: &[MutantOutcome]) -> BTreeMap<String, [usize; 5]> {
    let mut t: BTreeMap<String, [usize; 5]> = BTreeMap::new();
    for o in outcomes {
        let row = t.entry(o.file.clone()).or_default();
        row[0] += 1;
        row[match o.verdict {
            Verdict::Caught | Verdict::CaughtByVariants => 1,
            Verdict::Missed => 2,
            Verdict::Timeout => 3,
            Verdict::Unviable => 4,
        }] += 1;
    }
    t
}

/// The survivors grouped by file and function, for people.
pub fn survivors_text(outcomes: &[MutantOutcome]) -> String {
    let mut by: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for o in outcomes.iter().filter(|o| o.verdict == Verdict::Missed) {
        by.entry((&o.file, &o.function)).or_default().push(&o.name);
    }
    let mut s = String::new();
    for ((file, function), names) in by {
        let _ = writeln!(s, "  {file} :: {function}");
        for n in names {
            let _ = writeln!(s, "      SURVIVED {n}");
        }
    }
    s
}

/// The numbers of the run by file, and the survivors by file and function.
pub fn print_summary(all: &[MutantOutcome]) {
    let table = tally(all);
    println!("\nfile: tried / caught / missed / timeout / unviable");
    for (file, [tried, caught, missed, timeout, unviable]) in &table {
        println!("  {file}: {tried} / {caught} / {missed} / {timeout} / {unviable}");
    }
    let by_variants = all
        .iter()
        .filter(|m| m.verdict == Verdict::CaughtByVariants)
        .count();
    if by_variants > 0 {
        println!("  ({by_variants} of the caught only by the generated variants)");
    }
    let survivors = survivors_text(all);
    if survivors.is_empty() {
        println!("no survivor");
    } else {
        println!("survivors by file and function:\n{survivors}");
    }
}

/// The mutants of `file` that `mutants/outcomes.json` records as survivors and nobody marked
/// equivalent: the ones `--survivors` runs again.
pub fn recorded_survivors(root: &Path, file: &str) -> Result<Vec<String>> {
    Ok(survivors_of(
        &load(&root.join("mutants/outcomes.json"))?,
        file,
    ))
}

pub fn survivors_of(store: &Store, file: &str) -> Vec<String> {
    store
        .get(file)
        .map(|m| {
            m.iter()
                .filter(|(_, e)| e.verdict == Verdict::Missed && e.equivalent.is_none())
                .map(|(n, _)| n.clone())
                .collect()
        })
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(file: &str, name: &str, verdict: Verdict) -> MutantOutcome {
        MutantOutcome {
            file: file.into(),
            function: "f".into(),
            name: name.into(),
            verdict,
            seconds: 60.0,
        }
    }

    #[test]
    fn shards_add_up_reruns_replace_and_a_whole_file_run_starts_over() {
        let mut s = Store::new();
        merge(
            &mut s,
            &[
                outcome("a.rs", "m1", Verdict::Caught),
                outcome("a.rs", "m2", Verdict::Missed),
            ],
            Scope::Some,
            "d1",
        );
        merge(
            &mut s,
            &[outcome("a.rs", "m3", Verdict::Unviable)],
            Scope::Some,
            "d2",
        );
        assert_eq!(s["a.rs"].len(), 3, "a second shard adds to the first");
        // The survivor re-run with the variants: replaced by name, not counted twice.
        merge(
            &mut s,
            &[outcome("a.rs", "m2", Verdict::CaughtByVariants)],
            Scope::Some,
            "d3",
        );
        assert_eq!(s["a.rs"].len(), 3);
        assert_eq!(s["a.rs"]["m2"].verdict, Verdict::CaughtByVariants);
        assert_eq!(
            row("a.rs", &s["a.rs"], 4),
            "| `a.rs` | d3 | 4 | 3 | 1 | 2 | 0 | 0 | 100% | 3.0 |"
        );
        // Another file is untouched by a whole-file run of a.rs, whose stale m2/m3 go.
        merge(
            &mut s,
            &[outcome("b.rs", "n1", Verdict::Missed)],
            Scope::Some,
            "d3",
        );
        merge(
            &mut s,
            &[outcome("a.rs", "m1", Verdict::Missed)],
            Scope::WholeFiles,
            "d4",
        );
        assert_eq!(s["a.rs"].len(), 1);
        assert_eq!(s["b.rs"].len(), 1);
        // Equivalent mutants leave the denominator.
        s.get_mut("b.rs").unwrap().get_mut("n1").unwrap().equivalent = Some(Equivalent {
            kind: Kind::Exact,
            reason: "same bits".into(),
        });
        assert_eq!(
            row("b.rs", &s["b.rs"], 1),
            "| `b.rs` | d3 | 1 | 1 | 0 | 0 | 1 | 1 | - | 1.0 |"
        );

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("outcomes.json");
        save(&path, &s).unwrap();
        assert_eq!(load(&path).unwrap(), s);
    }

    #[test]
    fn rows_are_matched_by_their_exact_path_and_keep_the_listed_column() {
        let text = "\
| file | date | listed | tried | unviable | killed | survived | equivalent | score | minutes |
|---|---|---|---|---|---|---|---|---|---|
| `x/manifest/mod.rs` | d | 2 | 2 | 0 | 1 | 1 | 1 | 100% | 1.0 |
| `x/manifest/mod.rs.bak` | d | 2 | 2 | 0 | 2 | 0 | 0 | 100% | 1.0 |

text after
";
        assert_eq!(listed_in(text, "x/manifest/mod.rs"), Some(2));
        assert_eq!(listed_in(text, "x/manifest/mod.rs.bak"), Some(2));
        assert_eq!(listed_in(text, "x/manifest"), None);
        let mut rows = BTreeMap::new();
        rows.insert(
            "x/manifest/mod.rs".to_owned(),
            "| `x/manifest/mod.rs` | NEW |".to_owned(),
        );
        rows.insert("y.rs".to_owned(), "| `y.rs` | ADDED |".to_owned());
        let out = rewrite_table(text, &rows).unwrap();
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[2], "| `x/manifest/mod.rs` | NEW |");
        assert!(
            lines[3].starts_with("| `x/manifest/mod.rs.bak` | d |"),
            "the longer path is kept"
        );
        assert_eq!(lines[4], "| `y.rs` | ADDED |");
        assert_eq!(lines[6], "text after");
        // Rewriting again replaces, never duplicates.
        assert_eq!(rewrite_table(&out, &rows).unwrap(), out);
    }
}
