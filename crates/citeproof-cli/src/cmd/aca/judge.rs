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

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use citeproof_aca::{Judgement, SupportJudge};
use serde_json::{Value, json};

/// Longest answer line read from a judge.
const MAX_LINE_BYTES: usize = 64 * 1024;

/// A judge process and the pipes to it.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<std::io::Result<String>>,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An external judge behind a command line.
pub struct CommandJudge {
    name: String,
    argv: Vec<String>,
    timeout: Duration,
    session: Mutex<Option<Session>>,
}

impl CommandJudge {
    /// `command` is split like a POSIX shell would (quotes, backslashes), without running a
    /// shell.
    pub fn new(command: &str, timeout: Duration) -> Result<CommandJudge, String> {
        let argv = shlex::split(command)
            .filter(|a| !a.is_empty())
            .ok_or_else(|| format!("cannot split the judge command `{command}`"))?;
        Ok(CommandJudge {
            name: format!("judge `{command}`"),
            argv,
            timeout,
            session: Mutex::new(None),
        })
    }

    fn start(&self) -> Result<Session, String> {
        let (program, args) = self
            .argv
            .split_first()
            .ok_or_else(|| "empty judge command".to_owned())?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                let got = std::io::Read::take(&mut reader, MAX_LINE_BYTES as u64 + 1)
                    .read_line(&mut line);
                let end = matches!(got, Ok(0) | Err(_));
                if tx.send(got.map(|_| line)).is_err() || end {
                    return;
                }
            }
        });
        Ok(Session {
            child,
            stdin,
            lines: rx,
        })
    }

    fn ask(&self, claim: &str, excerpts: &[&str]) -> Result<Judgement, String> {
        let mut guard = self
            .session
            .lock()
            .map_err(|_| "the judge session is poisoned".to_owned())?;
        if guard.is_none() {
            *guard = Some(self.start()?);
        }
        let session = guard.as_mut().ok_or("no session")?;
        let request = json!({ "claim": claim, "excerpts": excerpts }).to_string();
        let sent = writeln!(session.stdin, "{request}").and_then(|()| session.stdin.flush());
        if let Err(e) = sent {
            *guard = None;
            return Err(format!("cannot write to the judge: {e}"));
        }
        let line = match session.lines.recv_timeout(self.timeout) {
            Ok(Ok(line)) if line.is_empty() => {
                *guard = None;
                return Err("the judge closed its output".into());
            }
            Ok(Ok(line)) => line,
            Ok(Err(e)) => {
                *guard = None;
                return Err(format!("cannot read from the judge: {e}"));
            }
            Err(RecvTimeoutError::Timeout) => {
                // The answer may still arrive and would then be read for the next claim.
                *guard = None;
                return Err(format!("no answer within {} s", self.timeout.as_secs()));
            }
            Err(RecvTimeoutError::Disconnected) => {
                *guard = None;
                return Err("the judge exited".into());
            }
        };
        parse_answer(&line)
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
