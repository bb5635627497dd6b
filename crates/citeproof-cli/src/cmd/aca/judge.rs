//! `--judge CMD`: an external support judge (a model, a service) spoken to over JSON lines.
//!
//! The command is started once per verification run. For each claim whose sources all yielded
//! an excerpt, citeproof writes one line and reads one line:
//!
//! ```text
//! → {"claim": "…", "excerpts": ["…", …]}
//! ← {"supported": true}            or  {"supported": false, "reason": "…"}
//! ```
//!
//! The judge is an *additional* judge: the profile's rule still decides `aca-claim-unsupported`,
//! and this judge can only add `aca-judge-unsupported` (its "no") or `aca-judge-failed` (no
//! answer within the timeout, a malformed line, a dead process). It can never make a claim
//! supported.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use citeproof_aca::{Judgement, SupportJudge};
use citeproof_child::{LineChild, Options, ReadError, Stderr};
use serde_json::{Value, json};

/// Longest answer line read from a judge.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// An external judge behind a command line, started on the first question and restarted after
/// a failure (a late answer must not be read as the answer to the next claim).
pub struct CommandJudge {
    name: String,
    argv: Vec<String>,
    timeout: Duration,
    session: Mutex<Option<LineChild>>,
}

impl CommandJudge {
    /// `command` is split like a POSIX shell would (quotes, backslashes), without running a
    /// shell.
    pub fn new(command: &str, timeout: Duration) -> Result<CommandJudge, String> {
        let argv = citeproof_child::split_command(command)
            .map_err(|e| format!("the judge command `{command}`: {e}"))?;
        Ok(CommandJudge {
            name: format!("judge `{command}`"),
            argv,
            timeout,
            session: Mutex::new(None),
        })
    }

    fn ask(&self, claim: &str, excerpts: &[&str]) -> Result<Judgement, String> {
        let mut guard = self
            .session
            .lock()
            .map_err(|_| "the judge session is poisoned".to_owned())?;
        let child = match guard.as_mut() {
            Some(child) => child,
            None => {
                let options = Options {
                    max_line_bytes: MAX_LINE_BYTES,
                    stderr: Stderr::Inherit,
                    empty_workdir: false,
                };
                let child = LineChild::spawn(&self.argv, &options).map_err(|e| e.to_string())?;
                guard.insert(child)
            }
        };
        let request = json!({ "claim": claim, "excerpts": excerpts }).to_string();
        let deadline = Instant::now() + self.timeout;
        let answer = match child.send_line(request.as_bytes()) {
            Err(e) => Err(format!("cannot write to the judge: {e}")),
            Ok(()) => match child.read_line(deadline) {
                Ok(line) => Ok(line),
                Err(ReadError::Timeout) => {
                    Err(format!("no answer within {} s", self.timeout.as_secs()))
                }
                Err(ReadError::Closed) => {
                    Err(format!("the judge exited ({})", child.wait_briefly()))
                }
                Err(e) => Err(e.to_string()),
            },
        };
        match answer {
            Ok(line) => match std::str::from_utf8(&line) {
                Ok(text) => parse_answer(text),
                Err(_) => Err("an answer that is not UTF-8".into()),
            },
            Err(reason) => {
                // Killed with its process group; the next claim starts a fresh judge.
                *guard = None;
                Err(reason)
            }
        }
    }
}

/// `{"supported": bool, "reason"?: string}`, nothing else.
fn parse_answer(line: &str) -> Result<Judgement, String> {
    if line.len() > MAX_LINE_BYTES {
        return Err(format!("an answer longer than {MAX_LINE_BYTES} bytes"));
    }
    let value = citeproof_model::json::parse_strict(line.trim_end().as_bytes())
        .map_err(|e| format!("a malformed answer ({}): {line:?}", e.code))?;
    let obj = value.as_object().ok_or("an answer that is not an object")?;
    if let Some(k) = obj.keys().find(|k| *k != "supported" && *k != "reason") {
        return Err(format!("an answer with the unknown member `{k}`"));
    }
    let reason = match obj.get("reason") {
        None => None,
        Some(Value::String(r)) => Some(r.clone()),
        Some(_) => return Err("`reason` is not a string".into()),
    };
    match obj.get("supported") {
        Some(Value::Bool(true)) => Ok(Judgement::Supported),
        Some(Value::Bool(false)) => Ok(Judgement::Unsupported {
            reason: reason.unwrap_or_else(|| "unsupported (no reason given)".into()),
        }),
        _ => Err("`supported` is missing or not a boolean".into()),
    }
}

impl SupportJudge for CommandJudge {
    fn name(&self) -> &str {
        &self.name
    }

    fn judge(&self, claim: &str, excerpts: &[&str]) -> Judgement {
        self.ask(claim, excerpts)
            .unwrap_or_else(|reason| Judgement::Failed { reason })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_strict() {
        assert_eq!(
            parse_answer("{\"supported\":true}\n"),
            Ok(Judgement::Supported)
        );
        assert_eq!(
            parse_answer("{\"supported\":false,\"reason\":\"no\"}"),
            Ok(Judgement::Unsupported {
                reason: "no".into()
            })
        );
        for bad in [
            "{\"supported\":\"yes\"}",
            "{}",
            "[true]",
            "{\"supported\":true,\"supported\":true}",
            "{\"supported\":true,\"x\":1}",
            "{\"supported\":false,\"reason\":1}",
            "yes",
        ] {
            assert!(parse_answer(bad).is_err(), "{bad}");
        }
    }
}
