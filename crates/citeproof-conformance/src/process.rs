//! An implementation running as a child process that speaks the adapter protocol on its
//! stdin/stdout. Lines are read on a separate thread and handed over a channel, so every wait
//! has a deadline (`recv_timeout`); lines are bounded in length; on a timeout, a crash or a
//! malformed line the child is killed and restarted before the next case.
//!
//! The child runs in a fresh, empty temporary working directory (nothing of the checkout is at
//! hand by relative path) and, on Unix, in its own process group: killing it kills the whole
//! group, so a wrapper script that does not `exec` cannot leave its real adapter running.
//! A reply to a case that already has its answer (a second reply) is attributed to that case,
//! not to the case being waited for.

use std::time::{Duration, Instant};

use citeproof_child::{LineChild, ReadError, Stderr};
use serde_json::Value;

use crate::protocol::{self, ImplementationInfo, Reply};

pub use citeproof_child::split_command;

/// Bytes of stderr kept per case (the tail).
const STDERR_KEEP: usize = 8 * 1024;

/// Limits for a child-process implementation.
#[derive(Debug, Clone)]
pub struct ProcessOptions {
    /// How long one case may take.
    pub case_timeout: Duration,
    /// How long the implementation may take to answer `start`.
    pub start_timeout: Duration,
    /// Longest accepted line (without its newline).
    pub max_line_bytes: usize,
    /// How long the implementation may take to exit after `stop`.
    pub stop_grace: Duration,
}

impl Default for ProcessOptions {
    fn default() -> Self {
        ProcessOptions {
            case_timeout: Duration::from_secs(10),
            start_timeout: Duration::from_secs(30),
            max_line_bytes: protocol::DEFAULT_MAX_LINE_BYTES,
            stop_grace: Duration::from_secs(2),
        }
    }
}

struct Running {
    child: LineChild,
    /// The first `seq` sent in this session: replies to earlier cases cannot come from it.
    first_seq: Option<u64>,
}

/// A reply line for a case that had already been answered (or was abandoned), read while the
/// runner waited for another case. The runner blames the case whose `seq` it names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stray {
    pub seq: u64,
    /// What was wrong, with an excerpt of the line.
    pub message: String,
}

/// A child-process implementation.
pub struct Subprocess {
    /// The command as given (for reports).
    argv: Vec<String>,
    /// Stray replies not yet collected by the runner.
    strays: Vec<Stray>,
    /// The highest `seq` sent so far (replies naming a higher one are garbage).
    last_seq: u64,
    options: ProcessOptions,
    running: Option<Running>,
    info: Option<ImplementationInfo>,
    /// Number of times the process was started.
    pub starts: u32,
}

impl std::fmt::Debug for Subprocess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subprocess")
            .field("argv", &self.argv)
            .field("starts", &self.starts)
            .finish_non_exhaustive()
    }
}

/// The result of one exchange with the child, as seen by the runner.
#[derive(Debug, Clone, PartialEq)]
pub struct Exchange {
    /// The reply, or why there is none (the case is then `errored`).
    pub reply: Result<Reply, String>,
    /// What the child wrote to stderr during the exchange (tail), if anything.
    pub stderr: Option<String>,
}

impl Subprocess {
    pub fn new(argv: Vec<String>, options: ProcessOptions) -> Subprocess {
        Subprocess {
            argv,
            strays: Vec::new(),
            last_seq: 0,
            options,
            running: None,
            info: None,
            starts: 0,
        }
    }

    pub fn command_line(&self) -> String {
        self.argv.join(" ")
    }

    /// The last hello received.
    pub fn info(&self) -> Option<&ImplementationInfo> {
        self.info.as_ref()
    }

    /// Starts the child if it is not running and performs the handshake.
    pub fn ensure_started(&mut self) -> Result<ImplementationInfo, Exchange> {
        if self.running.is_some()
            && let Some(info) = &self.info
        {
            return Ok(info.clone());
        }
        let _ = self.kill();
        self.starts += 1;
        let options = citeproof_child::Options {
            max_line_bytes: self.options.max_line_bytes,
            stderr: Stderr::KeepTail(STDERR_KEEP),
            empty_workdir: true,
        };
        let child = match LineChild::spawn(&self.argv, &options) {
            Ok(child) => child,
            Err(e) => return Err(self.failure(e.to_string())),
        };
        self.running = Some(Running {
            child,
            first_seq: None,
        });
        if let Err(e) = self.send(&protocol::start_message()) {
            return Err(self.fail_and_kill(e));
        }
        let deadline = Instant::now() + self.options.start_timeout;
        match self.receive(deadline, self.options.start_timeout, "hello line") {
            Ok(line) => match protocol::parse_hello(&line) {
                Ok(info) => {
                    self.info = Some(info.clone());
                    self.take_stderr();
                    Ok(info)
                }
                Err(e) => {
                    Err(self.fail_and_kill(format!("bad handshake: {e}; line: {}", excerpt(&line))))
                }
            },
            Err(e) => Err(self.fail_and_kill(e)),
        }
    }

    /// Sends one case (under the opaque `token`, never the vector id) and waits for its reply.
    /// `input` is the text of the case's input object as it goes on the wire.
    pub fn run_case(&mut self, seq: u64, token: &str, operation: &str, input: &str) -> Exchange {
        self.take_stderr();
        self.last_seq = self.last_seq.max(seq);
        if let Some(r) = self.running.as_mut() {
            r.first_seq.get_or_insert(seq);
        }
        if let Err(e) = self.send_line(protocol::run_line(seq, token, operation, input)) {
            return self.fail_and_kill(e);
        }
        let deadline = Instant::now() + self.options.case_timeout;
        loop {
            let line = match self.receive(deadline, self.options.case_timeout, "reply") {
                Ok(line) => line,
                Err(e) => return self.fail_and_kill(e),
            };
            match protocol::parse_any_reply(&line) {
                Err(e) => return self.fail_and_kill(format!("{e}; line: {}", excerpt(&line))),
                Ok((s, Ok(reply))) if s == seq => {
                    return Exchange {
                        reply: Ok(reply),
                        stderr: self.take_stderr(),
                    };
                }
                Ok((s, Err(e))) if s == seq => {
                    return self.fail_and_kill(format!("{e}; line: {}", excerpt(&line)));
                }
                Ok((s, _)) if self.answered_in_session(s, seq) => {
                    // A second reply to an earlier case: that case is to blame, not this one.
                    self.strays.push(Stray {
                        seq: s,
                        message: format!(
                            "the implementation sent another reply to this case (seq {s}) after its answer; line: {}",
                            excerpt(&line)
                        ),
                    });
                }
                Ok((s, _)) => {
                    return self.fail_and_kill(format!(
                        "reply has seq {s} but the case was sent with seq {seq}; line: {}",
                        excerpt(&line)
                    ));
                }
            }
        }
    }

    /// True when `s` is the seq of a case sent earlier to the running process.
    fn answered_in_session(&self, s: u64, current: u64) -> bool {
        self.running
            .as_ref()
            .and_then(|r| r.first_seq)
            .is_some_and(|first| s >= first && s < current)
    }

    /// Stray replies read since the last call (see [`Stray`]).
    pub fn take_strays(&mut self) -> Vec<Stray> {
        std::mem::take(&mut self.strays)
    }

    /// Sends `stop`, closes stdin and waits briefly for the child to exit (reading what it
    /// still writes: a late second reply is a stray), then kills its process group.
    pub fn stop(&mut self) {
        if self.running.is_some() {
            let _ = self.send(&protocol::stop_message());
            let last = self.last_seq;
            if let Some(r) = &mut self.running {
                r.child.close_stdin();
                let deadline = Instant::now() + self.options.stop_grace;
                let first = r.first_seq;
                // Bounded even against an adapter that keeps writing after `stop`.
                while Instant::now() < deadline {
                    let step = (Instant::now() + Duration::from_millis(10)).min(deadline);
                    match r.child.read_line(step) {
                        Ok(line) => {
                            if let Some(s) = protocol::reply_seq(&line)
                                && first.is_some_and(|f| s >= f && s <= last)
                            {
                                self.strays.push(Stray {
                                    seq: s,
                                    message: format!(
                                        "the implementation sent another reply to this case (seq {s}) after its answer; line: {}",
                                        excerpt(&line)
                                    ),
                                });
                            }
                        }
                        Err(ReadError::Timeout) => {}
                        Err(_) => {
                            // The child closed stdout; wait for its exit.
                            if r.child.has_exited() {
                                break;
                            }
                            std::thread::sleep(Duration::from_millis(10));
                        }
                    }
                }
            }
        }
        let _ = self.kill();
    }

    fn send(&mut self, message: &Value) -> Result<(), String> {
        self.send_line(message.to_string())
    }

    fn send_line(&mut self, text: String) -> Result<(), String> {
        let Some(running) = self.running.as_mut() else {
            return Err("the implementation is not running".into());
        };
        running
            .child
            .send_line(text.as_bytes())
            .map_err(|e| format!("cannot write to the implementation: {e}"))
    }

    /// The next non-empty line before `deadline`; `timeout` is the whole allowance, for the
    /// message.
    fn receive(
        &mut self,
        deadline: Instant,
        timeout: Duration,
        what: &str,
    ) -> Result<Vec<u8>, String> {
        let Some(running) = self.running.as_mut() else {
            return Err("the implementation is not running".into());
        };
        loop {
            match running.child.read_line(deadline) {
                Ok(line) if line.iter().all(u8::is_ascii_whitespace) => {}
                Ok(line) => return Ok(line),
                Err(ReadError::TooLong { max }) => {
                    return Err(format!(
                        "line longer than {max} bytes while waiting for the {what}"
                    ));
                }
                Err(ReadError::Failed(e)) => {
                    return Err(format!("cannot read from the implementation: {e}"));
                }
                Err(ReadError::Closed) => {
                    let status = running.child.wait_briefly();
                    return Err(format!(
                        "the implementation exited ({status}) while the runner waited for the {what}"
                    ));
                }
                Err(ReadError::Timeout) => {
                    return Err(format!(
                        "no {what} within {} s (timeout)",
                        fmt_secs(timeout)
                    ));
                }
            }
        }
    }

    fn failure(&mut self, message: String) -> Exchange {
        Exchange {
            reply: Err(message),
            stderr: self.take_stderr(),
        }
    }

    /// Kills the child, then reports `message` with everything it wrote to stderr.
    fn fail_and_kill(&mut self, message: String) -> Exchange {
        Exchange {
            reply: Err(message),
            stderr: self.kill(),
        }
    }

    fn take_stderr(&mut self) -> Option<String> {
        self.running.as_mut()?.child.take_stderr()
    }

    /// Kills the child's process group and returns what it wrote to stderr since the last take.
    fn kill(&mut self) -> Option<String> {
        self.running.take()?.child.kill()
    }
}

impl Drop for Subprocess {
    fn drop(&mut self) {
        let _ = self.kill();
    }
}

fn excerpt(line: &[u8]) -> String {
    const MAX: usize = 200;
    let text = String::from_utf8_lossy(&line[..line.len().min(MAX)]).into_owned();
    if line.len() > MAX {
        format!("{text:?}... ({} bytes)", line.len())
    } else {
        format!("{text:?}")
    }
}

fn fmt_secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s.fract() == 0.0 {
        format!("{s:.0}")
    } else {
        format!("{s}")
    }
}
