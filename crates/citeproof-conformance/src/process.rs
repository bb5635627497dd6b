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

use std::{
    io::{BufRead, BufReader, Read, Write},
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        Arc, Mutex,
        mpsc::{self, Receiver, RecvTimeoutError},
    },
    thread,
    time::{Duration, Instant},
};

use serde_json::Value;

use crate::protocol::{self, ImplementationInfo, Reply};

use crate::command::resolve_paths;
pub use crate::command::split_command;

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

enum Line {
    Data(Vec<u8>),
    TooLong,
    Eof,
    Failed(String),
}

struct Running {
    child: Child,
    /// The empty working directory of this process session (removed with it).
    _workdir: tempfile::TempDir,
    /// The first `seq` sent in this session: replies to earlier cases cannot come from it.
    first_seq: Option<u64>,
    /// Lines for the writer thread, which owns the child's stdin: a child that stops reading
    /// can then block only that thread, never the runner (every wait has a deadline).
    stdin: Option<mpsc::Sender<Vec<u8>>>,
    /// Set by the writer thread when a write fails.
    write_error: Arc<Mutex<Option<String>>>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<Vec<u8>>>,
    stderr_thread: thread::JoinHandle<()>,
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
    /// The command with relative paths made absolute (the child runs in an empty directory).
    resolved: Vec<String>,
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
        let resolved = resolve_paths(&argv);
        Subprocess {
            argv,
            resolved,
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
        let Some((program, args)) = self.resolved.split_first() else {
            return Err(self.failure("empty implementation command".into()));
        };
        self.starts += 1;
        let workdir = match tempfile::Builder::new()
            .prefix("citeproof-adapter-")
            .tempdir()
        {
            Ok(d) => d,
            Err(e) => {
                return Err(self.failure(format!(
                    "cannot create the adapter's working directory: {e}"
                )));
            }
        };
        let mut command = Command::new(program);
        command
            .args(args)
            .current_dir(workdir.path())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            command.process_group(0);
        }
        let mut child = match command.spawn() {
            Ok(c) => c,
            Err(e) => return Err(self.failure(format!("cannot start `{program}`: {e}"))),
        };
        let (Some(stdin), Some(stdout), Some(stderr_pipe)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            kill_tree(&mut child);
            return Err(self.failure("cannot open the child's pipes".into()));
        };
        let (tx, rx) = mpsc::channel();
        let max = self.options.max_line_bytes;
        thread::spawn(move || read_lines(stdout, &tx, max));
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let sink = Arc::clone(&stderr);
        let stderr_thread = thread::spawn(move || collect_stderr(stderr_pipe, &sink));
        let (stdin_tx, stdin_rx) = mpsc::channel::<Vec<u8>>();
        let write_error = Arc::new(Mutex::new(None));
        let errors = Arc::clone(&write_error);
        thread::spawn(move || write_lines(stdin, &stdin_rx, &errors));
        self.running = Some(Running {
            child,
            _workdir: workdir,
            first_seq: None,
            stdin: Some(stdin_tx),
            write_error,
            lines: rx,
            stderr,
            stderr_thread,
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
                r.stdin = None;
                let deadline = Instant::now() + self.options.stop_grace;
                let first = r.first_seq;
                loop {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        // Bounded even against an adapter that keeps writing after `stop`.
                        break;
                    }
                    match r.lines.recv_timeout(left.min(Duration::from_millis(10))) {
                        Ok(Line::Data(line)) => {
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
                            continue;
                        }
                        Ok(_) | Err(RecvTimeoutError::Disconnected) => {
                            // EOF: the child closed stdout; wait for its exit.
                            if matches!(r.child.try_wait(), Ok(Some(_))) {
                                break;
                            }
                            thread::sleep(Duration::from_millis(10));
                        }
                        Err(RecvTimeoutError::Timeout) => {}
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
        if let Some(e) = running.write_error.lock().ok().and_then(|e| e.clone()) {
            return Err(format!("cannot write to the implementation: {e}"));
        }
        let mut line = text.into_bytes();
        line.push(b'\n');
        match &running.stdin {
            Some(tx) if tx.send(line).is_ok() => Ok(()),
            _ => Err("cannot write to the implementation: its stdin is closed".into()),
        }
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
            let left = deadline.saturating_duration_since(Instant::now());
            match running.lines.recv_timeout(left) {
                Ok(Line::Data(line)) if line.iter().all(u8::is_ascii_whitespace) => continue,
                Ok(Line::Data(line)) => return Ok(line),
                Ok(Line::TooLong) => {
                    return Err(format!(
                        "line longer than {} bytes while waiting for the {what}",
                        self.options.max_line_bytes
                    ));
                }
                Ok(Line::Failed(e)) => {
                    return Err(format!("cannot read from the implementation: {e}"));
                }
                Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                    let status = wait_briefly(&mut running.child);
                    return Err(format!(
                        "the implementation exited ({status}) while the runner waited for the {what}"
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {
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
        let stderr = self.kill().and_then(|buf| non_empty(&buf));
        Exchange {
            reply: Err(message),
            stderr,
        }
    }

    fn take_stderr(&mut self) -> Option<String> {
        let running = self.running.as_ref()?;
        let mut buf = running.stderr.lock().ok()?;
        let text = non_empty(&buf);
        buf.clear();
        text
    }

    /// Kills the child's process group and returns what it wrote to stderr since the last take.
    fn kill(&mut self) -> Option<Vec<u8>> {
        let mut r = self.running.take()?;
        r.stdin = None;
        kill_tree(&mut r.child);
        // The stderr thread ends when the pipe closes; give it a moment to drain.
        let deadline = Instant::now() + Duration::from_millis(200);
        while !r.stderr_thread.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        r.stderr.lock().ok().map(|b| b.clone())
    }
}

impl Drop for Subprocess {
    fn drop(&mut self) {
        let _ = self.kill();
    }
}

/// Kills the child and every process of its process group (Unix; the child leads its own group,
/// see `process_group(0)` above), then reaps the child.
fn kill_tree(child: &mut Child) {
    #[cfg(unix)]
    {
        let pid = rustix::process::Pid::from_child(child);
        // Never signal group 1 (`kill(-1)` would reach every process of the user).
        if pid.as_raw_nonzero().get() > 1 {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

fn non_empty(buf: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(buf);
    (!text.trim().is_empty()).then(|| text.into_owned())
}

fn wait_briefly(child: &mut Child) -> String {
    let deadline = Instant::now() + Duration::from_millis(500);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return status.to_string(),
            Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
            Ok(None) => return "stdout closed".into(),
            Err(e) => return e.to_string(),
        }
    }
}

fn write_lines(mut stdin: ChildStdin, lines: &Receiver<Vec<u8>>, error: &Mutex<Option<String>>) {
    // Ends when the runner drops its sender (closing the child's stdin) or a write fails.
    for line in lines {
        if let Err(e) = stdin.write_all(&line).and_then(|()| stdin.flush()) {
            if let Ok(mut slot) = error.lock() {
                *slot = Some(e.to_string());
            }
            return;
        }
    }
}

fn read_lines(stdout: impl Read, tx: &mpsc::Sender<Line>, max: usize) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    loop {
        let chunk = match reader.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(Line::Failed(e.to_string()));
                return;
            }
        };
        if chunk.is_empty() {
            if !line.is_empty() && line.len() <= max {
                let _ = tx.send(Line::Data(std::mem::take(&mut line)));
            }
            let _ = tx.send(Line::Eof);
            return;
        }
        match chunk.iter().position(|b| *b == b'\n') {
            Some(pos) => {
                line.extend_from_slice(&chunk[..pos]);
                reader.consume(pos + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                if line.len() > max {
                    let _ = tx.send(Line::TooLong);
                    return;
                }
                if tx.send(Line::Data(std::mem::take(&mut line))).is_err() {
                    return;
                }
            }
            None => {
                let n = chunk.len();
                line.extend_from_slice(chunk);
                reader.consume(n);
                if line.len() > max {
                    let _ = tx.send(Line::TooLong);
                    return;
                }
            }
        }
    }
}

fn collect_stderr(mut pipe: impl Read, sink: &Mutex<Vec<u8>>) {
    let mut chunk = [0u8; 4096];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                let Ok(mut buf) = sink.lock() else { return };
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > STDERR_KEEP {
                    let cut = buf.len() - STDERR_KEEP;
                    buf.drain(..cut);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_reader_bounds_lines() {
        let (tx, rx) = mpsc::channel();
        read_lines(&b"ab\r\ncd\nxxxxxxxxxxxx\n"[..], &tx, 5);
        let got: Vec<_> = rx.try_iter().collect();
        assert!(matches!(&got[0], Line::Data(d) if d == b"ab"));
        assert!(matches!(&got[1], Line::Data(d) if d == b"cd"));
        assert!(matches!(&got[2], Line::TooLong));
        assert_eq!(got.len(), 3);
    }
}
