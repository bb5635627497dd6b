//! What every CLI test binary needs: the built binary, the repository root, a run's status and
//! output, and `citeproof demo serve` on a loopback port. Each test file takes what it uses.

#![allow(dead_code)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command as StdCommand, Output, Stdio};

use assert_cmd::Command;
use serde_json::Value;

/// The `citeproof` binary cargo built for these tests.
pub fn citeproof() -> Command {
    Command::cargo_bin("citeproof").unwrap()
}

/// The repository root (where `vectors/` and `examples/` are).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// `citeproof ARGS` run in `dir`: the exit status (-1 for a signal), stdout and stderr.
pub fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = citeproof().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        stdout_of(&out),
        stderr_of(&out),
    )
}

pub fn stdout_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

pub fn stderr_of(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The seed's example claim (seed 004), signed by [`CHAIN_SIGNER`] in the chain tests.
pub const CHAIN_CLAIM: &str = r#"{
  "vertical": "ai-ml",
  "subject": "Transformer architecture",
  "predicate": "introduced_in_paper",
  "object": "Attention Is All You Need (Vaswani et al., 2017)",
  "confidence": 1.0,
  "sources": [{"url": "https://arxiv.org/abs/1706.03762", "excerpt": "We propose a new simple network architecture"}],
  "lastVerified": "2026-05-16"
}"#;
/// The signer of the chain tests' envelopes.
pub const CHAIN_SIGNER: &str = "did:web:sourcescore.org";
/// The trust options of a chain test: the HMAC secret of `secret.txt` for [`CHAIN_SIGNER`].
pub const CHAIN_TRUST: [&str; 4] = ["--hmac-key-file", "secret.txt", "--signed-by", CHAIN_SIGNER];

/// Writes [`CHAIN_CLAIM`] (`claim.json`) and an HMAC secret (`secret.txt`) into `dir` and signs
/// the claim into `envelope.json` with `citeproof chain sign`; the run's status and output.
pub fn sign_chain_envelope(dir: &Path) -> (i32, String, String) {
    std::fs::write(dir.join("claim.json"), CHAIN_CLAIM).unwrap();
    std::fs::write(dir.join("secret.txt"), "a producer's shared secret 2026\n").unwrap();
    let when = [
        "--signed-at",
        "2026-05-16T00:00:00.000Z",
        "--out",
        "envelope.json",
    ];
    run(
        dir,
        &[&["chain", "sign", "claim.json"][..], &CHAIN_TRUST, &when].concat(),
    )
}

/// Starts `citeproof demo serve` on a free loopback port; returns the child (kill it) and the
/// base URL the server printed.
pub fn start_demo() -> (Child, String) {
    let mut child = StdCommand::new(assert_cmd::cargo::cargo_bin("citeproof"))
        .args(["demo", "serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    reader.read_line(&mut first).unwrap();
    // Keep draining the banner so the server never writes into a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut reader, &mut std::io::sink()));
    let base = first.trim().rsplit(' ').next().unwrap().to_owned();
    assert!(base.starts_with("http://127.0.0.1:"), "{first}");
    (child, base)
}

/// A file of the archive fixtures (`vectors/fixtures/archive/`).
pub fn archive_fixture(name: &str) -> String {
    root()
        .join("vectors/fixtures/archive")
        .join(name)
        .to_string_lossy()
        .into_owned()
}

/// `citeproof archive gate REQUEST` in `dir` against the archive fixture, signed with
/// `keys/private.pem` (kid `archive-2026`) by `archive.example` at `now`, writing
/// `{prefix}bundle.json` and `{prefix}display.json`, with `extra` options (`--log FILE`); the
/// run's status and output.
pub fn archive_gate(
    dir: &Path,
    request: &str,
    now: &str,
    prefix: &str,
    extra: &[&str],
) -> (i32, String, String) {
    let archive = archive_fixture("archive.json");
    let (bundle, display) = (
        format!("{prefix}bundle.json"),
        format!("{prefix}display.json"),
    );
    let mut args = vec!["archive", "gate", request, "--archive", &archive];
    args.extend(["--key", "keys/private.pem", "--kid", "archive-2026"]);
    args.extend(["--signed-by", "archive.example", "--now", now]);
    args.extend(["--bundle", &bundle, "--display", &display]);
    args.extend(extra);
    run(dir, &args)
}

/// A command line written as one line: the words of `template` (split on spaces), each `{}`
/// replaced by the next of `values`, which are never split (a path may hold spaces).
///
/// # Panics
/// When the placeholders and the values differ in number.
pub fn words<'a>(template: &'a str, values: &[&'a str]) -> Vec<&'a str> {
    let mut values = values.iter();
    let out: Vec<&str> = template
        .split(' ')
        .filter(|w| !w.is_empty())
        .map(|w| {
            if w == "{}" {
                values.next().copied().expect("a value for every {}")
            } else {
                w
            }
        })
        .collect();
    assert!(
        values.next().is_none(),
        "more values than {{}} in {template}"
    );
    out
}

/// A finished run of `citeproof`: its exit status (-1 for a signal), stdout and stderr.
#[derive(Debug)]
pub struct Ran {
    /// The words the binary was given.
    pub args: Vec<String>,
    pub code: i32,
    pub out: String,
    pub err: String,
}

/// `citeproof` with the words of `line` (as [`words`]: a `{}` per value), run in `dir`
/// (`None`: the test's working directory) with `stdin` (`None`: none).
pub fn cli_with(dir: Option<&Path>, stdin: Option<Vec<u8>>, line: &str, values: &[&str]) -> Ran {
    let args = words(line, values).into_iter().map(str::to_owned).collect();
    cli_args(dir, stdin, args)
}

/// `citeproof ARGS` in `dir` (`None`: the test's working directory) with `stdin` (`None`: none).
pub fn cli_args(dir: Option<&Path>, stdin: Option<Vec<u8>>, args: Vec<String>) -> Ran {
    let mut c = citeproof();
    c.args(&args);
    if let Some(dir) = dir {
        c.current_dir(dir);
    }
    if let Some(bytes) = stdin {
        c.write_stdin(bytes);
    }
    let out = c.output().unwrap();
    Ran {
        args,
        code: out.status.code().unwrap_or(-1),
        out: stdout_of(&out),
        err: stderr_of(&out),
    }
}

/// `citeproof` with the words of `line` (a `{}` per value) in the test's working directory.
pub fn cli(line: &str, values: &[&str]) -> Ran {
    cli_with(None, None, line, values)
}

/// [`cli`] with `stdin` on standard input.
pub fn cli_stdin(line: &str, values: &[&str], stdin: impl Into<Vec<u8>>) -> Ran {
    cli_with(None, Some(stdin.into()), line, values)
}

/// [`cli`] run in `dir`.
pub fn cli_in(dir: &Path, line: &str, values: &[&str]) -> Ran {
    cli_with(Some(dir), None, line, values)
}

impl Ran {
    /// Asserts the exit status; the message shows both streams.
    #[track_caller]
    pub fn exits(self, code: i32) -> Self {
        assert_eq!(
            self.code, code,
            "exit status of {:?}\nstdout: {}\nstderr: {}",
            self.args, self.out, self.err
        );
        self
    }

    /// Asserts that stdout holds every one of `pieces`.
    #[track_caller]
    pub fn says(&self, pieces: &[&str]) -> &Self {
        holds_all(&self.out, pieces);
        self
    }

    /// Asserts that stdout holds none of `pieces`.
    #[track_caller]
    pub fn never_says(&self, pieces: &[&str]) -> &Self {
        holds_none(&self.out, pieces);
        self
    }

    /// Asserts that stderr holds every one of `pieces`.
    #[track_caller]
    pub fn warns(&self, pieces: &[&str]) -> &Self {
        holds_all(&self.err, pieces);
        self
    }

    /// Asserts that stdout or stderr holds every one of `pieces`.
    #[track_caller]
    pub fn mentions(&self, pieces: &[&str]) -> &Self {
        holds_all(&format!("{}{}", self.out, self.err), pieces);
        self
    }

    /// Asserts that stdout begins with `prefix`.
    #[track_caller]
    pub fn starts(&self, prefix: &str) -> &Self {
        let out = &self.out;
        assert!(out.starts_with(prefix), "not first: {prefix:?}\n{out}");
        self
    }

    /// Asserts that stdout ends with `suffix`.
    #[track_caller]
    pub fn ends(&self, suffix: &str) -> &Self {
        let out = &self.out;
        assert!(out.ends_with(suffix), "not last: {suffix:?}\n{out}");
        self
    }

    /// Stdout read as one JSON value.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.out)
            .unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", self.out))
    }
}

/// Asserts that `text` holds every one of `pieces` (each named in the message).
#[track_caller]
pub fn holds_all(text: &str, pieces: &[&str]) {
    for piece in pieces {
        assert!(text.contains(piece), "{piece:?} missing from:\n{text}");
    }
}

/// Asserts that `text` holds none of `pieces`.
#[track_caller]
pub fn holds_none(text: &str, pieces: &[&str]) {
    for piece in pieces {
        assert!(!text.contains(piece), "{piece:?} present in:\n{text}");
    }
}

/// The string member `member` of every element of the array `array` (`[]` when `array` is not
/// one; panics on an element without it).
#[track_caller]
pub fn each<'a>(array: &'a Value, member: &str) -> Vec<&'a str> {
    array
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|item| {
                    item[member]
                        .as_str()
                        .unwrap_or_else(|| panic!("no {member}: {item}"))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The incident codes of a `--json` report, in order.
#[track_caller]
pub fn codes_of(report: &Value) -> Vec<&str> {
    each(&report["incidents"], "code")
}

/// The options of `citeproof conformance` that write every report format into `dir`: `r.json`,
/// `r.xml` (JUnit), `r.md`, `r.html` and `r.svg` (the badge).
pub fn every_report(dir: &Path) -> Vec<String> {
    let mut args = Vec::new();
    for (format, name) in [
        ("json", "r.json"),
        ("junit", "r.xml"),
        ("markdown", "r.md"),
        ("html", "r.html"),
        ("svg", "r.svg"),
    ] {
        let path = dir.join(name).display().to_string();
        args.extend([
            "--report".to_owned(),
            format.to_owned(),
            "--out".to_owned(),
            path,
        ]);
    }
    args
}

/// The canon/hash-bytes file of the suite in `{}` with the xfail list `{}`.
pub const XFAIL_RUN: &str = "conformance --vectors {} --suite canon/hash-bytes --xfail {}";

/// Writes `contents` to `dir/name`; its path as a string, for a command line.
pub fn file_in(dir: &Path, name: &str, contents: impl AsRef<[u8]>) -> String {
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_string_lossy().into_owned()
}

/// Asserts that `report` matches the published schema of the conformance JSON report.
#[track_caller]
pub fn assert_conformance_report_schema(report: &Value) {
    let schema: Value =
        serde_json::from_str(citeproof_conformance::report::JSON_REPORT_SCHEMA).unwrap();
    let compiled = citeproof_schema::compile(&schema).unwrap();
    let errors: Vec<String> = compiled
        .iter_errors(report)
        .take(5)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
}

/// `citeproof` with the words of `line` in `dir`, which must exit with `status` and print the
/// `--json` error object `{"ok": false, "error": {"code": error}}`; the object.
#[track_caller]
pub fn json_error(dir: &Path, line: &str, status: i32, error: &str) -> Value {
    let v = cli_in(dir, line, &[]).exits(status).json();
    assert_eq!(v["ok"], false, "{line}: {v:#}");
    assert_eq!(v["error"]["code"], error, "{line}: {v:#}");
    v
}

/// The string member `member` of the elements of the array `array` whose `key` is `value`.
#[track_caller]
pub fn each_where<'a>(array: &'a Value, key: &str, value: &str, member: &str) -> Vec<&'a str> {
    let items = array.as_array().map(Vec::as_slice).unwrap_or_default();
    let chosen = items.iter().filter(|item| item[key] == value);
    chosen
        .map(|item| {
            item[member]
                .as_str()
                .unwrap_or_else(|| panic!("no {member}: {item}"))
        })
        .collect()
}

/// Every line of `lines` (no values) exits with `status`.
#[track_caller]
pub fn exits_each(lines: &[&str], status: i32) {
    for line in lines {
        cli(line, &[]).exits(status);
    }
}

/// A file of the shared fixtures, `vectors/fixtures/{folder}/{name}`.
pub fn fixture_in(folder: &str, name: &str) -> String {
    let path = root().join("vectors/fixtures").join(folder).join(name);
    path.to_string_lossy().into_owned()
}

/// The case `id` of the vector file `file` (relative to `vectors/`).
#[track_caller]
pub fn vector_case(file: &str, id: &str) -> Value {
    let text = std::fs::read_to_string(root().join("vectors").join(file)).unwrap();
    let all: Value = serde_json::from_str(&text).unwrap();
    let cases = all["cases"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let case = cases.iter().find(|c| c["id"] == id);
    case.cloned()
        .unwrap_or_else(|| panic!("no case {id} in {file}"))
}

/// The RFC 9421 file `name` (`crates/citeproof-httpsig/tests/data/rfc9421/`).
pub fn rfc9421(name: &str) -> PathBuf {
    root()
        .join("crates/citeproof-httpsig/tests/data/rfc9421")
        .join(name)
}

/// The B.2 test request of RFC 9421 with the B.2.6 signature fields (`keyid="test-key-ed25519"`,
/// `created=1618884473`), as an HTTP/1.1 message: header lines end in CRLF, the 18-byte body is
/// kept exactly as published.
pub fn rfc9421_b26_message() -> String {
    let read = |name: &str| std::fs::read_to_string(rfc9421(name)).unwrap();
    let request = read("test-request.http");
    let (head, body) = request.split_once("\n\n").unwrap();
    let (input, signature) = (read("b2_6-signature-input.txt"), read("b2_6-signature.txt"));
    format!(
        "{}\r\nSignature-Input: {}\r\nSignature: {}\r\n\r\n{body}",
        head.replace('\n', "\r\n"),
        input.trim_end(),
        signature.trim_end()
    )
}
