//! Helpers shared by the workspace's test binaries (a dev-dependency only): the independent
//! oracles the cross-checks ask, each a Python or node script that reads one JSON request on
//! standard input and writes one JSON answer, and the rule for when one may be skipped.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

pub mod arbitrary;
pub mod mutation;

/// Runs `program script args...` with `request` as JSON on standard input; its standard output
/// read as JSON. `Err` says why not (the program cannot start, fails, or writes no JSON).
pub fn run_json(
    program: &str,
    script: &Path,
    args: &[&str],
    request: &Value,
) -> Result<Value, String> {
    let mut child = Command::new(program)
        .arg(script)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    let input = serde_json::to_vec(request).map_err(|e| e.to_string())?;
    // An oracle that answers without reading its input (a probe) may close it first.
    match child
        .stdin
        .take()
        .ok_or("no standard input")?
        .write_all(&input)
    {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            return Err(format!("writing to {program}: {e}"));
        }
        _ => {}
    }
    let out = child
        .wait_with_output()
        .map_err(|e| format!("waiting for {program}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed ({}): {}{}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("{program} output: {e}"))
}

/// A Python oracle of a crate's tests: a script that answers `--probe` with what it runs on
/// and one JSON request on standard input with one JSON answer, run by `python3`.
#[derive(Debug, Clone)]
pub struct PythonOracle {
    script: std::path::PathBuf,
}

impl PythonOracle {
    /// The script at `script`, relative to `manifest_dir` (the crate's `CARGO_MANIFEST_DIR`).
    pub fn new(manifest_dir: &str, script: &str) -> PythonOracle {
        PythonOracle {
            script: Path::new(manifest_dir).join(script),
        }
    }

    /// What the oracle runs on (for [`oracle_available`]), or why it cannot run.
    pub fn probe(&self) -> Result<Value, String> {
        run_json(
            "python3",
            &self.script,
            &["--probe"],
            &Value::Object(Default::default()),
        )
    }

    /// The oracle's answer to `request`.
    ///
    /// # Panics
    /// When the oracle fails or answers with no JSON (after a probe said it runs).
    #[allow(clippy::panic)]
    pub fn ask(&self, request: &Value) -> Value {
        run_json("python3", &self.script, &[], request).unwrap_or_else(|e| panic!("{e}"))
    }
}

/// Whether the cross-check `what` can run, from its oracle's `probe` (what answered, or why it
/// cannot). It may be skipped, with a notice, only where `CITEPROOF_REQUIRE_PYTHON` is unset
/// (`cargo xtask test` and CI set it: there a cross-check that cannot run is a failure).
///
/// # Panics
/// When the oracle cannot run and `CITEPROOF_REQUIRE_PYTHON` is set.
pub fn oracle_available(what: &str, probe: Result<Value, String>) -> bool {
    match probe {
        Ok(answer) => {
            println!("{what}: cross-checking with {answer}");
            true
        }
        Err(why) => {
            assert!(
                std::env::var_os("CITEPROOF_REQUIRE_PYTHON").is_none(),
                "CITEPROOF_REQUIRE_PYTHON is set but {what} cannot run: {why}"
            );
            println!("NOTICE: skipping {what}: {why}");
            false
        }
    }
}

/// Resets the process's peak resident set (`/proc/self/clear_refs`, Linux 4.0 and later), for a
/// test that measures the memory of one step with [`peak_rss`].
///
/// # Panics
/// When the file cannot be written (not Linux): the measurement cannot be made.
#[allow(clippy::expect_used)]
pub fn reset_peak_rss() {
    std::fs::write("/proc/self/clear_refs", "5").expect("reset the peak RSS");
}

/// The process's peak resident set since the last [`reset_peak_rss`], in bytes (`VmHWM`).
///
/// # Panics
/// When `/proc/self/status` cannot be read or has no `VmHWM` line.
#[allow(clippy::expect_used)]
pub fn peak_rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").expect("read /proc/self/status");
    let line = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .expect("VmHWM in /proc/self/status");
    let kib: usize = line
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .expect("VmHWM in kB");
    kib * 1024
}

/// L, the order of the edwards25519 base point (RFC 8032, section 5.1), little-endian.
pub const ED25519_L: [u8; 32] = [
    0xed, 0xd3, 0xf5, 0x5c, 0x1a, 0x63, 0x12, 0x58, 0xd6, 0x9c, 0xf7, 0xa2, 0xde, 0xf9, 0xde, 0x14,
    0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10,
];

/// `s + L` of a 32-byte little-endian scalar `s < L`: the same scalar mod L written
/// non-canonically, which a lax Ed25519 verifier accepts (signature malleability) and a strict
/// one (RFC 8032, section 5.1.7: S < L) refuses.
///
/// # Panics
/// When `s` is not 32 bytes or the sum does not fit in 32 bytes.
#[allow(clippy::panic)]
pub fn ed25519_s_plus_l(s: &[u8]) -> Vec<u8> {
    assert_eq!(s.len(), 32, "an Ed25519 scalar is 32 bytes");
    let mut out = vec![0u8; 32];
    let mut carry = 0u16;
    for ((o, a), b) in out.iter_mut().zip(s).zip(ED25519_L) {
        let v = u16::from(*a) + u16::from(b) + carry;
        *o = u8::try_from(v & 0xff).unwrap_or_default();
        carry = v >> 8;
    }
    assert_eq!(carry, 0, "s + L does not fit in 32 bytes");
    out
}

/// Standard base64 with padding (RFC 4648, section 4), written here so that a test's expected
/// value does not come from the base64 code of the crate under test.
pub fn base64_std(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let byte = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (byte(0) << 16) | (byte(1) << 8) | byte(2);
        for k in 0..4 {
            if k <= chunk.len() {
                out.push(char::from(ALPHABET[((n >> (18 - 6 * k)) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
}
