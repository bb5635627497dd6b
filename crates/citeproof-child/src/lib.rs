//! A child process spoken to in lines: the conformance runner's adapters and ACA's external
//! support judge are both programs that read one line and write one line.
//!
//! What a caller gets, whatever the child does:
//! - every wait has a deadline: lines are read on a thread and handed over a channel, and lines
//!   are written by a thread that owns the child's stdin, so a child that stops reading blocks
//!   only that thread, never the caller;
//! - lines are bounded in length (a longer one ends the reading with [`ReadError::TooLong`]);
//! - on Unix the child leads its own process group and is killed with it, so a wrapper script
//!   that does not `exec` cannot leave its real program running;
//! - optionally the child starts in a fresh, empty temporary directory, and the words of its
//!   command that name paths are made absolute first ([`resolve_paths`]);
//! - the tail of what it writes to stderr is kept for the caller's report (or inherited).
//!
//! It knows nothing of what the lines mean: the protocols are the callers'.

use std::{
    io::{BufRead, BufReader, Read, Write},
    path::Path,
    process::{Child, ChildStdin, Command, Stdio},
    sync::{
        Arc, Mutex,
        mpsc::{self, Receiver, RecvTimeoutError},
    },
    thread,
    time::{Duration, Instant},
};

/// How a child is started.
#[derive(Debug, Clone)]
pub struct Options {
    /// Longest line read from the child (without its newline).
    pub max_line_bytes: usize,
    /// What becomes of the child's stderr.
    pub stderr: Stderr,
    /// Start the child in a fresh, empty temporary directory (removed with it).
    pub empty_workdir: bool,
}

/// What becomes of the child's stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stderr {
    /// Written where the caller's stderr goes.
    Inherit,
    /// Kept in memory, the last this many bytes, for [`LineChild::take_stderr`].
    KeepTail(usize),
}

/// Why a child could not be started.
#[derive(Debug)]
pub enum SpawnError {
    /// The command has no word.
    EmptyCommand,
    /// The empty working directory could not be made.
    Workdir(std::io::Error),
    /// The program could not be started.
    Start {
        program: String,
        error: std::io::Error,
    },
    /// The standard streams could not be opened.
    Pipes,
}

impl std::fmt::Display for SpawnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SpawnError::EmptyCommand => f.write_str("the command is empty"),
            SpawnError::Workdir(e) => write!(f, "cannot create the working directory: {e}"),
            SpawnError::Start { program, error } => write!(f, "cannot start `{program}`: {error}"),
            SpawnError::Pipes => f.write_str("cannot open the child's pipes"),
        }
    }
}

impl std::error::Error for SpawnError {}

/// Why no line was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// A line longer than the bound; nothing more is read from this child.
    TooLong { max: usize },
    /// The child closed its stdout (it exited, most likely: see [`LineChild::wait_briefly`]).
    Closed,
    /// Reading failed.
    Failed(String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::Timeout => f.write_str("timeout"),
            ReadError::TooLong { max } => write!(f, "line longer than {max} bytes"),
            ReadError::Closed => f.write_str("the child closed its output"),
            ReadError::Failed(e) => write!(f, "cannot read from the child: {e}"),
        }
    }
}

impl std::error::Error for ReadError {}

/// Why a line could not be sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WriteError {
    /// An earlier write failed (the child closed its stdin, most likely).
    Failed(String),
    /// Stdin was closed by [`LineChild::close_stdin`].
    Closed,
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Failed(e) => f.write_str(e),
            WriteError::Closed => f.write_str("its stdin is closed"),
        }
    }
}

impl std::error::Error for WriteError {}

/// The kept tail of the child's stderr and the thread that fills it.
struct StderrTail {
    sink: Arc<Mutex<Vec<u8>>>,
    thread: thread::JoinHandle<()>,
}

enum Line {
    Data(Vec<u8>),
    TooLong,
    Eof,
    Failed(String),
}

/// A running child.
pub struct LineChild {
    child: Child,
    /// The empty working directory, removed when the child is dropped.
    _workdir: Option<tempfile::TempDir>,
    /// Lines for the writer thread; `None` once stdin is closed.
    stdin: Option<mpsc::Sender<Vec<u8>>>,
    /// Set by the writer thread when a write fails.
    write_error: Arc<Mutex<Option<String>>>,
    lines: Receiver<Line>,
    max_line_bytes: usize,
    stderr: Option<StderrTail>,
    killed: bool,
}

impl std::fmt::Debug for LineChild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineChild")
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl LineChild {
    /// Starts `argv` (program first) with piped stdin and stdout.
    pub fn spawn(argv: &[String], options: &Options) -> Result<LineChild, SpawnError> {
        let workdir = if options.empty_workdir {
            let dir = tempfile::Builder::new()
                .prefix("citeproof-child-")
                .tempdir()
                .map_err(SpawnError::Workdir)?;
            Some(dir)
        } else {
            None
        };
        let resolved;
        let argv = if workdir.is_some() {
            resolved = resolve_paths(argv);
            &resolved[..]
        } else {
            argv
        };
        let (program, args) = argv.split_first().ok_or(SpawnError::EmptyCommand)?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(match options.stderr {
                Stderr::Inherit => Stdio::inherit(),
                Stderr::KeepTail(_) => Stdio::piped(),
            });
        if let Some(dir) = &workdir {
            command.current_dir(dir.path());
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt as _;
            command.process_group(0);
        }
        let mut child = command.spawn().map_err(|error| SpawnError::Start {
            program: program.clone(),
            error,
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_tree(&mut child);
            return Err(SpawnError::Pipes);
        };
        let stderr = match (options.stderr, child.stderr.take()) {
            (Stderr::KeepTail(keep), Some(pipe)) => {
                let sink = Arc::new(Mutex::new(Vec::new()));
                let writer = Arc::clone(&sink);
                let thread = thread::spawn(move || collect_stderr(pipe, &writer, keep));
                Some(StderrTail { sink, thread })
            }
            _ => None,
        };
        let (tx, lines) = mpsc::channel();
        let max = options.max_line_bytes;
        thread::spawn(move || read_lines(stdout, &tx, max));
        let (stdin_tx, stdin_rx) = mpsc::channel::<Vec<u8>>();
        let write_error = Arc::new(Mutex::new(None));
        let errors = Arc::clone(&write_error);
        thread::spawn(move || write_lines(stdin, &stdin_rx, &errors));
        Ok(LineChild {
            child,
            _workdir: workdir,
            stdin: Some(stdin_tx),
            write_error,
            lines,
            max_line_bytes: max,
            stderr,
            killed: false,
        })
    }

    /// Queues `line` and a newline for the child's stdin. An error when an earlier write
    /// failed or stdin is closed; a write that blocks (the child does not read) blocks only the
    /// writer thread.
    pub fn send_line(&mut self, line: &[u8]) -> Result<(), WriteError> {
        if let Some(e) = self.write_error.lock().ok().and_then(|e| e.clone()) {
            return Err(WriteError::Failed(e));
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line);
        bytes.push(b'\n');
        match &self.stdin {
            Some(tx) if tx.send(bytes).is_ok() => Ok(()),
            _ => Err(WriteError::Closed),
        }
    }

    /// Closes the child's stdin once the lines queued so far are written.
    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line (without its newline or a CR before it) before `deadline`.
    pub fn read_line(&mut self, deadline: Instant) -> Result<Vec<u8>, ReadError> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(Line::Data(line)) => Ok(line),
            Ok(Line::TooLong) => Err(ReadError::TooLong {
                max: self.max_line_bytes,
            }),
            Ok(Line::Failed(e)) => Err(ReadError::Failed(e)),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => Err(ReadError::Closed),
            Err(RecvTimeoutError::Timeout) => Err(ReadError::Timeout),
        }
    }

    /// True when the child has exited.
    pub fn has_exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// The child's exit status if it exits within half a second, for a report.
    pub fn wait_briefly(&mut self) -> String {
        let deadline = Instant::now() + Duration::from_millis(500);
        loop {
            match self.child.try_wait() {
                Ok(Some(status)) => return status.to_string(),
                Ok(None) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Ok(None) => return "stdout closed".into(),
                Err(e) => return e.to_string(),
            }
        }
    }

    /// What the child wrote to stderr since the last take (kept tail), if anything but
    /// whitespace.
    pub fn take_stderr(&mut self) -> Option<String> {
        let mut buf = self.stderr.as_ref()?.sink.lock().ok()?;
        let text = non_empty(&buf);
        buf.clear();
        text
    }

    /// Kills the child and its process group; returns what it wrote to stderr since the last
    /// take (given a moment to drain).
    pub fn kill(mut self) -> Option<String> {
        self.terminate();
        let StderrTail { sink, thread } = self.stderr.take()?;
        let deadline = Instant::now() + Duration::from_millis(200);
        while !thread.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(5));
        }
        let buf = sink.lock().ok()?;
        non_empty(&buf)
    }

    fn terminate(&mut self) {
        if !self.killed {
            self.killed = true;
            self.stdin = None;
            kill_tree(&mut self.child);
        }
    }
}

impl Drop for LineChild {
    fn drop(&mut self) {
        self.terminate();
    }
}

/// Splits a command line into words like a POSIX shell (quotes and backslashes; no expansion,
/// no shell is run).
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    let words = shlex::split(line).ok_or_else(|| {
        "cannot split the command: an unterminated quote or a trailing backslash".to_owned()
    })?;
    if words.is_empty() {
        return Err("the command is empty".into());
    }
    Ok(words)
}

/// The command with every word that names an existing path relative to the caller's working
/// directory made absolute (for a child started in an empty directory). A word counts when it
/// does not start with `-` and either contains a `/` or names an existing file.
pub fn resolve_paths(argv: &[String]) -> Vec<String> {
    let Ok(cwd) = std::env::current_dir() else {
        return argv.to_vec();
    };
    argv.iter()
        .map(|word| {
            let path = Path::new(word);
            let candidate = cwd.join(path);
            let counts = !word.starts_with('-')
                && !path.is_absolute()
                && (word.contains('/') && candidate.exists() || candidate.is_file());
            if counts {
                candidate.display().to_string()
            } else {
                word.clone()
            }
        })
        .collect()
}

/// Kills the child and every process of its process group (Unix; the child leads its own group,
/// see `process_group(0)`), then reaps the child.
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

fn write_lines(mut stdin: ChildStdin, lines: &Receiver<Vec<u8>>, error: &Mutex<Option<String>>) {
    // Ends when the caller drops its sender (closing the child's stdin) or a write fails.
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
        let (take, complete) = match chunk.iter().position(|b| *b == b'\n') {
            Some(pos) => (pos, true),
            None => (chunk.len(), false),
        };
        line.extend_from_slice(&chunk[..take]);
        reader.consume(take + usize::from(complete));
        if complete && line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > max {
            let _ = tx.send(Line::TooLong);
            return;
        }
        if complete && tx.send(Line::Data(std::mem::take(&mut line))).is_err() {
            return;
        }
    }
}

fn collect_stderr(mut pipe: impl Read, sink: &Mutex<Vec<u8>>, keep: usize) {
    let mut chunk = [0u8; 4096];
    loop {
        match pipe.read(&mut chunk) {
            Ok(0) => return,
            Ok(n) => {
                let Ok(mut buf) = sink.lock() else { return };
                buf.extend_from_slice(&chunk[..n]);
                if buf.len() > keep {
                    let cut = buf.len() - keep;
                    buf.drain(..cut);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the line reader sends for `input` with lines of at most `max` bytes.
    fn lines(input: &[u8], max: usize) -> Vec<Line> {
        let (tx, rx) = mpsc::channel();
        read_lines(input, &tx, max);
        rx.try_iter().collect()
    }

    #[test]
    fn line_reader_bounds_lines() {
        let got = lines(b"ab\r\ncd\nxxxxxxxxxxxx\n", 5);
        assert!(matches!(&got[0], Line::Data(d) if d == b"ab"));
        assert!(matches!(&got[1], Line::Data(d) if d == b"cd"));
        assert!(matches!(&got[2], Line::TooLong));
        assert_eq!(got.len(), 3);
    }

    #[test]
    fn a_last_line_without_newline_is_read_then_the_end() {
        let got = lines(b"ab\ncd", 5);
        assert!(matches!(&got[1], Line::Data(d) if d == b"cd"));
        assert!(matches!(&got[2], Line::Eof));
    }

    #[test]
    fn command_splitting() {
        assert_eq!(
            split_command("python3 adapter.py").unwrap(),
            ["python3", "adapter.py"]
        );
        assert_eq!(
            split_command(r#"  a 'b c' "d \"e\"" f\ g "" "#).unwrap(),
            ["a", "b c", "d \"e\"", "f g", ""]
        );
        assert!(split_command("a 'b").is_err());
        assert!(split_command("a \"b").is_err());
        assert!(split_command("   ").is_err());
    }

    #[test]
    fn relative_paths_become_absolute_other_words_stay() {
        let cwd = std::env::current_dir().unwrap();
        let words: Vec<String> = [
            "python3",
            "src/lib.rs",
            "Cargo.toml",
            "--flag",
            "adapter",
            "no/such/path",
        ]
        .iter()
        .map(|w| (*w).to_owned())
        .collect();
        let out = resolve_paths(&words);
        assert_eq!(out[0], "python3");
        assert_eq!(out[1], cwd.join("src/lib.rs").display().to_string());
        assert_eq!(out[2], cwd.join("Cargo.toml").display().to_string());
        assert_eq!(&out[3..], &words[3..]);
    }
}
