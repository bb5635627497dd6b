//! `citeproof conformance`: runs the conformance vectors against the in-process reference or
//! against any implementation speaking the adapter protocol (docs/ADAPTER.md).

use std::{
    io::IsTerminal as _,
    path::{Path, PathBuf},
    process::ExitCode,
    time::Duration,
};

use citeproof_conformance::{
    Profile, RunOptions, Suite, Summary, Target,
    process::{ProcessOptions, split_command},
    report::{self, Format},
    runner::{self, DEFAULT_MAX_ERRORS},
};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::Failure;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Command of the implementation under test, speaking the adapter protocol on
    /// stdin/stdout (split like a shell command line). Without it, the reference runs
    /// in-process.
    #[arg(long = "impl", value_name = "CMD")]
    implementation: Option<String>,
    /// Only vector files matching this glob (path under vectors/, e.g. `canon`, `aef/level1`,
    /// `aca/*/header.json`). Repeatable. A selection is a subset, not a conformance claim.
    #[arg(long, value_name = "GLOB")]
    suite: Vec<String>,
    /// Only cases whose id matches this glob (e.g. `canon-jcs-*`). Repeatable. A selection is
    /// a subset, not a conformance claim.
    #[arg(long, value_name = "GLOB")]
    case: Vec<String>,
    /// Expected failures: a file with one case-id glob per line (`#` comments). An expected
    /// failure that passes fails the run.
    #[arg(long, value_name = "FILE")]
    xfail: Option<PathBuf>,
    /// Report format: json, junit, markdown, html or svg (a badge). Repeatable; each needs an
    /// --out in the same order.
    #[arg(long, value_name = "FORMAT")]
    report: Vec<String>,
    /// Where to write the report of the --report at the same position (`-` for stdout).
    #[arg(long, value_name = "FILE")]
    out: Vec<PathBuf>,
    /// Seconds an implementation may take for one case before it is killed, restarted and the
    /// case recorded as errored.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    case_timeout: f64,
    /// Seconds an implementation may take to answer the start command.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    start_timeout: f64,
    /// End the run (as failed, reports still written) after this many errored cases; 0 means
    /// never.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_ERRORS)]
    max_errors: usize,
    /// Directory of the vector files to run instead of the suite embedded in this binary (a
    /// `vectors/` directory nearby is never used unless given here).
    #[arg(long, value_name = "DIR")]
    vectors: Option<PathBuf>,
    /// The profile whose MUST requirements decide levels (default: the suite's own, the
    /// embedded one or ../docs/PROFILE.md next to --vectors). Another profile makes the run a
    /// subset, not a conformance claim.
    #[arg(long, value_name = "FILE")]
    profile: Option<PathBuf>,
    /// How many failures to print (all are in the reports).
    #[arg(long, value_name = "N", default_value_t = 50)]
    show_failures: usize,
    /// Never draw a progress bar.
    #[arg(long)]
    no_progress: bool,
    /// Seed of the run's random choices (case tokens, order, generated variants). Printed in
    /// every report; give it again to reproduce a run. Default: a fresh one.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Run the static vectors only, without the variants generated for this run. Such a run is
    /// not a conformance claim (see docs/ADAPTER.md).
    #[arg(long)]
    no_variants: bool,
    /// Send the cases in suite order instead of a random one.
    #[arg(long)]
    in_order: bool,
    /// Print one JSON object on stdout, the shape of every command's `--json`
    /// (`{"command": "conformance", "ok": ..., "incidents": [], "report": {...}}`, the report
    /// being the `--report json` document); the summary goes to stderr.
    #[arg(long)]
    json: bool,
}

fn seconds(name: &str, value: f64) -> Result<Duration, Failure> {
    Duration::try_from_secs_f64(value)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| Failure::Usage(format!("{name} must be a positive number of seconds")))
}

pub fn run(args: Args) -> Result<ExitCode, Failure> {
    let formats = check_reports(&args)?;
    let process = ProcessOptions {
        case_timeout: seconds("--case-timeout", args.case_timeout)?,
        start_timeout: seconds("--start-timeout", args.start_timeout)?,
        ..ProcessOptions::default()
    };
    let xfail =
        match &args.xfail {
            None => Vec::new(),
            Some(path) => runner::parse_xfail(&std::fs::read_to_string(path).map_err(|e| {
                Failure::Usage(format!("cannot read --xfail {}: {e}", path.display()))
            })?),
        };
    let (suite, profile) = load_suite(&args, &xfail)?;

    let mut target = match &args.implementation {
        None => Target::in_process(Box::new(citeproof_reference::Reference::new())),
        Some(cmd) => Target::command(split_command(cmd).map_err(Failure::Usage)?, process.clone()),
    };
    let variants = (!args.no_variants).then(|| citeproof_conformance::variants::VariantPlan {
        generator: std::sync::Arc::new(citeproof_variants::Variants),
        oracle: std::sync::Arc::new(citeproof_reference::Reference::new()),
        per_case: 1,
    });
    let options = RunOptions {
        max_errors: (args.max_errors > 0).then_some(args.max_errors),
        xfail,
        process,
        seed: args.seed,
        variants,
        shuffle: !args.in_order,
    };

    let bar = progress_bar(
        (suite.len() * if args.no_variants { 1 } else { 2 }) as u64,
        args.no_progress,
    );
    let result = citeproof_conformance::run(&suite, &mut target, &options, |p| {
        bar.set_position(p.done as u64);
        bar.set_message(p.last.case.id.clone());
    });
    bar.finish_and_clear();

    let summary = Summary::new(&result, &profile);
    let ctx = report::Context {
        suite: &suite,
        profile_loaded: !profile.requirements.is_empty(),
    };
    write_reports(&formats, &args.out, &result, &summary, &ctx)?;
    // A dropped variant is a bug of the suite, not of the implementation: it fails the run so
    // that the suite's own CI cannot stay green with a broken generator.
    let suite_bug = result
        .generation
        .as_ref()
        .is_some_and(|g| !g.dropped.is_empty());
    let ok = result.success() && !suite_bug;
    // The summary goes to stdout unless a report does; then to stderr.
    let console = format!(
        "{}{}",
        report::failures_text(&result, args.show_failures),
        report::summary_text(&result, &summary, &ctx)
    );
    let stdout_used = args.out.iter().any(|o| o == Path::new("-"));
    if stdout_used || args.json {
        eprint!("{console}");
    } else {
        crate::out::print(&console)?;
    }
    if args.json {
        crate::out::json_report(
            "conformance",
            ok,
            &crate::out::NO_INCIDENTS,
            &serde_json::json!({ "report": report::json_value(&result, &summary, &ctx) }),
        )?;
    }
    if suite_bug {
        eprintln!(
            "citeproof: the variant generator produced cases the reference disagrees with (listed above): a bug in citeproof's suite; please report it"
        );
    }
    Ok(if result.could_not_start() {
        // "Could not check": nothing was run, which is neither a pass nor a failure.
        ExitCode::from(3)
    } else if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The selected suite and its profile. The suite is the one embedded at build time (written to
/// a temporary directory for the loader), unless --vectors names another: a `vectors/`
/// directory that happens to be in the working directory (or above) is never picked up. What
/// makes the run a subset is recorded in the suite's selection.
fn load_suite(args: &Args, xfail: &[String]) -> Result<(Suite, Profile), Failure> {
    let embedded_dir;
    let vectors = match &args.vectors {
        Some(dir) => dir.clone(),
        None => {
            embedded_dir = tempfile::tempdir()
                .map_err(|e| Failure::Usage(format!("cannot create a temporary directory: {e}")))?;
            citeproof_suite::materialize(embedded_dir.path())
                .map_err(|e| Failure::Usage(format!("cannot write the embedded suite: {e}")))?;
            eprintln!(
                "citeproof: using the suite embedded in this binary ({}); --vectors DIR runs another",
                citeproof_suite::describe()
            );
            embedded_dir.path().join("vectors")
        }
    };
    let loaded = Suite::load(&vectors).map_err(|errors| {
        Failure::Usage(format!(
            "cannot load the vectors in {}:\n  {}",
            vectors.display(),
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n  ")
        ))
    })?;
    let mut suite = loaded.select(&args.suite, &args.case);
    if args.vectors.is_some() {
        let embedded = citeproof_conformance::suite::digest_of(
            citeproof_suite::VECTOR_FILES
                .iter()
                .map(|(rel, bytes)| (*rel, *bytes)),
        );
        if loaded.digest != embedded {
            suite.selection.other_suite = Some(format!(
                "--vectors {} is not the suite of this citeproof ({} here, {} built in)",
                vectors.display(),
                loaded.digest,
                embedded
            ));
        }
    }
    if suite.is_empty() {
        return Err(Failure::Usage(
            "no case matches the --suite/--case filters".into(),
        ));
    }
    for stale in runner::unmatched_xfail(xfail, &loaded) {
        eprintln!(
            "citeproof: warning: --xfail entry `{stale}` matches no case of the suite (renamed or removed? remove it)"
        );
    }
    let suite_profile = default_profile(&vectors);
    let profile_path = args
        .profile
        .clone()
        .unwrap_or_else(|| suite_profile.clone());
    let profile = Profile::load(&profile_path).unwrap_or_default();
    if let Some(given) = &args.profile {
        if profile.requirements.is_empty() {
            return Err(Failure::Usage(format!(
                "no requirements in --profile {}",
                given.display()
            )));
        }
        if std::fs::read(given).ok() != std::fs::read(&suite_profile).ok() {
            suite.selection.other_profile = Some(given.display().to_string());
        }
    }

    Ok((suite, profile))
}

/// Checks the --report/--out pairs before anything runs: a report that cannot be written is
/// found now, not after the whole run.
fn check_reports(args: &Args) -> Result<Vec<Format>, Failure> {
    if args.report.len() != args.out.len() {
        return Err(Failure::Usage(
            "every --report FORMAT needs an --out FILE (in the same order)".into(),
        ));
    }
    let stdout_outs = args.out.iter().filter(|o| *o == Path::new("-")).count();
    if args.json && stdout_outs > 0 {
        return Err(Failure::Usage(
            "--json prints on stdout: write the other reports to files".into(),
        ));
    }
    if stdout_outs > 1 {
        return Err(Failure::Usage(
            "only one report can go to stdout (--out -)".into(),
        ));
    }
    for (i, out) in args.out.iter().enumerate() {
        if out != Path::new("-") && args.out[..i].contains(out) {
            return Err(Failure::Usage(format!(
                "two reports would be written to {}",
                out.display()
            )));
        }
        check_writable(out)?;
    }
    args.report
        .iter()
        .map(|f| f.parse::<Format>().map_err(Failure::Usage))
        .collect()
}

/// The report file `out` can be created: its directory exists and takes a new file.
fn check_writable(out: &Path) -> Result<(), Failure> {
    if out == Path::new("-") {
        return Ok(());
    }
    let cannot =
        |why: String| Failure::Usage(format!("cannot write a report to {}: {why}", out.display()));
    if out.is_dir() {
        return Err(cannot("it is a directory".into()));
    }
    let dir = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    if !dir.is_dir() {
        return Err(cannot(format!(
            "the directory {} does not exist",
            dir.display()
        )));
    }
    tempfile::NamedTempFile::new_in(dir).map_err(|e| cannot(e.to_string()))?;
    Ok(())
}

fn write_reports(
    formats: &[Format],
    outs: &[PathBuf],
    result: &citeproof_conformance::RunResult,
    summary: &Summary,
    ctx: &report::Context<'_>,
) -> Result<(), Failure> {
    for (format, out) in formats.iter().zip(outs) {
        let text = report::render(*format, result, summary, ctx);
        if out == Path::new("-") {
            print!("{text}");
        } else {
            std::fs::write(out, text).map_err(|e| {
                Failure::Usage(format!(
                    "cannot write {} report to {}: {e}",
                    format,
                    out.display()
                ))
            })?;
        }
    }
    Ok(())
}

/// The suite's own profile: `../docs/PROFILE.md` next to the vectors directory (the embedded
/// suite is written out with its profile there).
fn default_profile(vectors: &Path) -> PathBuf {
    vectors
        .parent()
        .map(|p| p.join("docs").join("PROFILE.md"))
        .unwrap_or_else(|| PathBuf::from("docs/PROFILE.md"))
}

/// A progress bar on stderr, drawn only on a terminal and only once the run has lasted a
/// second (short runs print nothing extra).
fn progress_bar(total: u64, disabled: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    if let Ok(style) =
        ProgressStyle::with_template("{bar:40} {pos}/{len} cases, {elapsed} {wide_msg}")
    {
        bar.set_style(style);
    }
    if !disabled && std::io::stderr().is_terminal() {
        let delayed = bar.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(1));
            if !delayed.is_finished() {
                delayed.set_draw_target(ProgressDrawTarget::stderr());
                delayed.enable_steady_tick(Duration::from_millis(200));
            }
        });
    }
    bar
}
