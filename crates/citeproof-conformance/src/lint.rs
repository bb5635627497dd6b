//! The vector lint and the traceability matrix (requirement → cases).
//!
//! Errors: a file that does not load or is not schema-valid (`schemas/vector-file.schema.json`),
//! a file whose spec is not its directory, a case level that contradicts a `levelN` directory,
//! an unknown operation, an input that does not match the operation's contract, duplicate
//! case ids, a case id without its spec's prefix, a requirement id not in docs/PROFILE.md, a
//! flag used but not declared or declared but not used, an unregistered incident code, an
//! `invalid` case without error codes, a `valid` case with error codes, an output on an
//! `invalid` case, an output member the operation does not define.
//!
//! Warnings: an expected code that none of the case's requirements names in its `Incidents:`
//! bullet, an operation used in a file of another spec.

use std::{collections::BTreeSet, fmt::Write as _, path::Path};

use citeproof_model::{
    IncidentCode,
    spec::{Operation, Spec, SpecDescriptor, find_operation},
    vectors::Validity,
};
use citeproof_schema::{DocumentKind, SchemaValidator};

use crate::{
    profile::{Keyword, Profile},
    suite::{Case, Suite, VectorFile},
};

/// What the lint found.
#[derive(Debug, Clone, Default)]
pub struct LintReport {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    pub files: usize,
    pub cases: usize,
}

/// Lints every vector file under `vectors_dir` against `profile` and the operation contracts of
/// `specs` (`citeproof_reference::SPECS`: the runner knows no spec).
pub fn lint(
    vectors_dir: &Path,
    profile: &Profile,
    specs: &[&'static SpecDescriptor],
) -> (LintReport, Suite) {
    let (suite, load_errors) = Suite::load_lenient(vectors_dir);
    let mut report = LintReport {
        files: suite.files.len() + load_errors.len(),
        cases: suite.len(),
        ..LintReport::default()
    };
    for e in load_errors {
        report
            .errors
            .push(format!("{}: cannot load: {}", e.path, e.message));
    }
    if profile.requirements.is_empty() {
        report
            .errors
            .push("docs/PROFILE.md has no requirements (missing file?)".into());
    }
    let validator = match SchemaValidator::cached(DocumentKind::VectorFile) {
        Ok(v) => Some(v),
        Err(e) => {
            report.errors.push(e.to_string());
            None
        }
    };
    // Duplicate case ids are load errors (Suite::load_lenient), reported above.
    let mut linter = FileLinter {
        profile,
        specs,
        report: &mut report,
    };
    for file in &suite.files {
        linter.file(file, validator);
    }
    (report, suite)
}

/// The per-file and per-case rules of [`lint`], writing into one report.
struct FileLinter<'a> {
    profile: &'a Profile,
    specs: &'a [&'static SpecDescriptor],
    report: &'a mut LintReport,
}

impl FileLinter<'_> {
    fn file(&mut self, file: &VectorFile, validator: Option<&SchemaValidator>) {
        let mut err = |msg: String| self.report.errors.push(format!("{}: {msg}", file.path));
        if let Some(v) = validator {
            for incident in v.validate(&file.raw) {
                err(format!(
                    "not schema-valid at {}: {}",
                    incident.location.pointer.as_deref().unwrap_or(""),
                    incident.message
                ));
            }
        }
        let mut components = file.path.split('/');
        let dir = components.next().unwrap_or_default();
        if dir != file.spec {
            err(format!(
                "spec `{}` does not match its directory `vectors/{dir}/`",
                file.spec
            ));
        }
        let found = find_operation(self.specs, &file.operation);
        match found {
            None => err(format!(
                "operation `{}` is not defined in docs/ADAPTER.md",
                file.operation
            )),
            Some((spec, op)) if spec.name() != file.spec && file.spec != Spec::Canon.name() => {
                self.report.warnings.push(format!(
                    "{}: operation `{}` belongs to spec `{spec}`, used in a `{}` file",
                    file.path, op.name, file.spec
                ));
            }
            Some(_) => {}
        }
        let op = found.map(|(_, op)| op);
        let mut used_flags = BTreeSet::new();
        for case in &file.cases {
            used_flags.extend(case.flags.iter().cloned());
            self.case(file, case, op);
        }
        for declared in file.flags.keys() {
            if !used_flags.contains(declared) {
                self.report.errors.push(format!(
                    "{}: flag `{declared}` is declared but no case uses it",
                    file.path
                ));
            }
        }
    }

    fn case(&mut self, file: &VectorFile, case: &Case, op: Option<&Operation>) {
        let profile = self.profile;
        let mut err = |msg: String| {
            self.report
                .errors
                .push(format!("{}: {}: {msg}", file.path, case.id))
        };
        let prefix = format!("{}-", file.spec);
        if !case.id.starts_with(&prefix) {
            err(format!("case id must start with `{prefix}`"));
        }
        let dir_level = file
            .path
            .split('/')
            .filter_map(|c| c.strip_prefix("level").and_then(|n| n.parse::<u8>().ok()))
            .next();
        if let Some(n) = dir_level
            && case.level != n
        {
            err(format!("level {} in a `level{n}` directory", case.level));
        }
        for r in &case.requirements {
            if profile.get(r).is_none() {
                err(format!("requirement `{r}` is not in docs/PROFILE.md"));
            }
        }
        for flag in &case.flags {
            if !file.flags.contains_key(flag) {
                err(format!(
                    "flag `{flag}` is not declared in the file's `flags`"
                ));
            }
        }
        for code in &case.expected.errors {
            if IncidentCode::from_code(code).is_none() {
                err(format!("incident code `{code}` is not in the registry"));
            }
        }
        expected_result(case, op, &mut err);
        if let Some(op) = op {
            for problem in op.check_input(&case.input) {
                err(problem);
            }
            expected_output_members(case, op, &mut err);
        }
        // Soft check: each expected code is named by one of the case's requirements.
        for code in &case.expected.errors {
            let named = case.requirements.iter().any(|r| {
                profile
                    .get(r)
                    .is_some_and(|req| req.incidents.iter().any(|c| c == code))
            });
            if !named && !case.requirements.iter().all(|r| profile.get(r).is_none()) {
                self.report.warnings.push(format!(
                    "{}: {}: code `{code}` is not named in the Incidents of {}",
                    file.path,
                    case.id,
                    case.requirements.join(", ")
                ));
            }
        }
    }
}

/// An `invalid` case lists codes and has no output but the members its operation allows; a
/// `valid` case lists no codes.
fn expected_result(case: &Case, op: Option<&Operation>, err: &mut impl FnMut(String)) {
    match case.expected.result {
        Validity::Invalid => {
            if case.expected.errors.is_empty() {
                err("an `invalid` case must list at least one error code".into());
            }
            let allowed = op.map(|o| o.output_when_invalid).unwrap_or(&[]);
            if let Some(output) = &case.expected.output {
                let stray: Vec<&String> = output
                    .as_object()
                    .map(|o| {
                        o.keys()
                            .filter(|k| !allowed.contains(&k.as_str()))
                            .collect()
                    })
                    .unwrap_or_default();
                if allowed.is_empty() || !stray.is_empty() {
                    err(format!(
                        "an `invalid` case of this operation has no output{}",
                        if allowed.is_empty() {
                            String::new()
                        } else {
                            format!(" but {}", allowed.join(", "))
                        }
                    ));
                }
            }
        }
        Validity::Valid => {
            if !case.expected.errors.is_empty() {
                err("a `valid` case lists no error codes".into());
            }
        }
    }
}

/// `expected.output` is an object of members the operation defines.
fn expected_output_members(case: &Case, op: &Operation, err: &mut impl FnMut(String)) {
    let Some(output) = &case.expected.output else {
        return;
    };
    match output.as_object() {
        None => err("`expected.output` must be an object".into()),
        Some(obj) => {
            for key in obj.keys() {
                if !op.output.contains(&key.as_str()) {
                    err(format!(
                        "output member `{key}` is not defined for `{}`",
                        op.name
                    ));
                }
            }
        }
    }
}

/// Where the coverage exemptions live, relative to the vectors directory.
pub const EXEMPTIONS_FILE: &str = "meta/coverage-exemptions.json";

/// A MUST requirement that offline vectors cannot express (it needs a live network peer, say),
/// with the tests of the reference implementation that cover it instead.
#[derive(Debug, Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Exemption {
    pub requirement: String,
    pub reason: String,
    /// Test files (paths from the repository root) that exercise the requirement.
    pub tested_by: Vec<String>,
}

/// Reads `vectors/meta/coverage-exemptions.json` (absent = none) and checks each entry: a known
/// MUST requirement, a reason, and test files that exist under `repo_root`.
pub fn load_exemptions(
    vectors: &Path,
    repo_root: &Path,
    profile: &Profile,
) -> Result<Vec<Exemption>, Vec<String>> {
    let path = vectors.join(EXEMPTIONS_FILE);
    let Ok(bytes) = std::fs::read(&path) else {
        return Ok(Vec::new());
    };
    let value = citeproof_model::json::parse_strict(&bytes)
        .map_err(|e| vec![format!("{}: {e}", path.display())])?;
    let list: Vec<Exemption> =
        serde_json::from_value(value).map_err(|e| vec![format!("{}: {e}", path.display())])?;
    let mut problems = Vec::new();
    for e in &list {
        match profile.requirements.iter().find(|r| r.id == e.requirement) {
            None => problems.push(format!(
                "{EXEMPTIONS_FILE}: unknown requirement {}",
                e.requirement
            )),
            Some(r) if r.keyword != Keyword::Must => problems.push(format!(
                "{EXEMPTIONS_FILE}: {} is not a MUST",
                e.requirement
            )),
            Some(_) => {}
        }
        if e.reason.trim().is_empty() || e.tested_by.is_empty() {
            problems.push(format!(
                "{EXEMPTIONS_FILE}: {} needs a reason and tests",
                e.requirement
            ));
        }
        for t in &e.tested_by {
            if !repo_root.join(t).is_file() {
                problems.push(format!(
                    "{EXEMPTIONS_FILE}: {}: test file {t} does not exist",
                    e.requirement
                ));
            }
        }
    }
    if problems.is_empty() {
        Ok(list)
    } else {
        Err(problems)
    }
}

/// The vector spec a profile `Level:` value belongs to (`ACA 2` → `aca`); `None` for `core`
/// requirements, which apply to every spec.
fn level_spec(level: &str) -> Option<String> {
    let spec = level.split_whitespace().next()?.to_ascii_lowercase();
    (spec != "core").then_some(spec)
}

/// Requirement → cases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceRow {
    pub id: String,
    pub keyword: Keyword,
    pub level: String,
    pub title: String,
    /// Cases expected `valid`.
    pub passing: Vec<String>,
    /// Cases expected `invalid`.
    pub failing: Vec<String>,
    /// False while the requirement's spec has no vector file yet (a spec the profile defines
    /// ahead of its implementation); its MUSTs are then reported as deferred, not as gaps.
    pub spec_active: bool,
    pub exemption: Option<Exemption>,
}

impl TraceRow {
    fn lacks_cases(&self) -> bool {
        self.keyword == Keyword::Must && (self.passing.is_empty() || self.failing.is_empty())
    }

    /// A MUST of an active spec, not exempted, without a passing and a failing case.
    pub fn is_gap(&self) -> bool {
        self.lacks_cases() && self.spec_active && self.exemption.is_none()
    }

    /// A MUST whose spec has no vectors yet.
    pub fn is_deferred(&self) -> bool {
        self.lacks_cases() && !self.spec_active
    }
}

/// The traceability matrix of a suite.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Traceability {
    pub rows: Vec<TraceRow>,
    pub cases: usize,
}

impl Traceability {
    pub fn new(profile: &Profile, suite: &Suite) -> Traceability {
        let mut rows: Vec<TraceRow> = profile
            .requirements
            .iter()
            .map(|r| TraceRow {
                id: r.id.clone(),
                keyword: r.keyword,
                level: r.level.clone(),
                title: r.title.clone(),
                passing: Vec::new(),
                failing: Vec::new(),
                spec_active: level_spec(&r.level)
                    .is_none_or(|spec| suite.files.iter().any(|f| f.spec == spec)),
                exemption: None,
            })
            .collect();
        for case in suite.cases() {
            for id in &case.requirements {
                if let Some(row) = rows.iter_mut().find(|r| &r.id == id) {
                    let list = match case.expected.result {
                        Validity::Valid => &mut row.passing,
                        Validity::Invalid => &mut row.failing,
                    };
                    list.push(case.id.clone());
                }
            }
        }
        Traceability {
            rows,
            cases: suite.len(),
        }
    }

    /// Applies coverage exemptions (see [`load_exemptions`]).
    pub fn with_exemptions(mut self, exemptions: &[Exemption]) -> Traceability {
        for e in exemptions {
            if let Some(row) = self.rows.iter_mut().find(|r| r.id == e.requirement) {
                row.exemption = Some(e.clone());
            }
        }
        self
    }

    pub fn gaps(&self) -> Vec<&TraceRow> {
        self.rows.iter().filter(|r| r.is_gap()).collect()
    }

    /// MUST requirements with both a passing and a failing case.
    pub fn covered_must(&self) -> usize {
        self.rows
            .iter()
            .filter(|r| r.keyword == Keyword::Must && !r.lacks_cases())
            .count()
    }

    pub fn deferred(&self) -> Vec<&TraceRow> {
        self.rows.iter().filter(|r| r.is_deferred()).collect()
    }

    /// Exemptions whose requirement has vectors after all: stale, worth removing.
    pub fn stale_exemptions(&self) -> Vec<&TraceRow> {
        self.rows
            .iter()
            .filter(|r| r.exemption.is_some() && !r.lacks_cases())
            .collect()
    }

    /// `vectors/TRACEABILITY.md`. Deterministic: no dates, so it only changes with its inputs.
    #[allow(
        clippy::too_many_lines,
        reason = "written before the rule; next to split (tidy LONG_FUNCTIONS)"
    )]
    pub fn markdown(&self) -> String {
        let must = self
            .rows
            .iter()
            .filter(|r| r.keyword == Keyword::Must)
            .count();
        let gaps = self.gaps();
        let mut out = String::from(
            "# Traceability matrix\n\n\
             Generated by `cargo xtask conformance` from `docs/PROFILE.md` and the vector files; do not\n\
             edit by hand. Every MUST requirement needs at least one case expected `valid` (passing) and\n\
             one expected `invalid` (failing).\n\n",
        );
        let _ = writeln!(
            out,
            "- requirements: {} ({} MUST)\n- cases: {}\n- MUST requirements with a passing and a failing case: {} of {}\n- deferred (spec without vectors yet): {}\n- exempt (covered by tests instead): {}\n- gaps: {}\n",
            self.rows.len(),
            must,
            self.cases,
            self.covered_must(),
            must,
            self.deferred().len(),
            self.rows
                .iter()
                .filter(|r| r.exemption.is_some() && r.lacks_cases())
                .count(),
            gaps.len(),
        );
        out.push_str("## Gaps\n\n");
        if gaps.is_empty() {
            out.push_str("None: every MUST requirement of a spec with vectors has a passing and a failing case, or an exemption.\n\n");
        } else {
            out.push_str(
                "| requirement | level | passing | failing | missing |\n|---|---|---:|---:|---|\n",
            );
            for r in &gaps {
                let missing = match (r.passing.is_empty(), r.failing.is_empty()) {
                    (true, true) => "passing and failing",
                    (true, false) => "passing",
                    _ => "failing",
                };
                let _ = writeln!(
                    out,
                    "| {} | {} | {} | {} | {missing} |",
                    r.id,
                    r.level,
                    r.passing.len(),
                    r.failing.len()
                );
            }
            out.push('\n');
        }
        let deferred = self.deferred();
        out.push_str("## Deferred specs\n\n");
        if deferred.is_empty() {
            out.push_str("None.\n\n");
        } else {
            out.push_str(
                "The profile fixes these requirements ahead of their implementation; their spec has no\n\
                 vector file yet. They become gaps as soon as it has one.\n\n",
            );
            let ids: Vec<&str> = deferred.iter().map(|r| r.id.as_str()).collect();
            let _ = writeln!(out, "{}\n", ids.join(", "));
        }
        out.push_str("## Exempt from vectors\n\n");
        let exempt: Vec<&TraceRow> = self.rows.iter().filter(|r| r.exemption.is_some()).collect();
        if exempt.is_empty() {
            out.push_str("None.\n\n");
        } else {
            out.push_str("| requirement | reason | tested by |\n|---|---|---|\n");
            for r in exempt {
                if let Some(e) = &r.exemption {
                    let tests: Vec<String> = e.tested_by.iter().map(|t| format!("`{t}`")).collect();
                    let _ = writeln!(
                        out,
                        "| {} | {} | {} |",
                        r.id,
                        e.reason.replace('|', "\\|"),
                        tests.join(" ")
                    );
                }
            }
            out.push('\n');
        }
        out.push_str("## Matrix\n\n| requirement | keyword | level | title | valid cases | invalid cases |\n|---|---|---|---|---|---|\n");
        let list = |ids: &[String]| -> String {
            ids.iter()
                .map(|i| format!("`{i}`"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        for r in &self.rows {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} | {} |",
                r.id,
                r.keyword,
                r.level,
                r.title.replace('|', "\\|"),
                list(&r.passing),
                list(&r.failing)
            );
        }
        out
    }
}
