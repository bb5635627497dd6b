//! Real children (`sh`, `sleep`): lines both ways, every wait bounded, the process group killed.

use std::time::{Duration, Instant};

use citeproof_child::{LineChild, Options, ReadError, Stderr};

fn sh(script: &str, options: &Options) -> LineChild {
    let argv = ["sh".to_owned(), "-c".to_owned(), script.to_owned()];
    LineChild::spawn(&argv, options).expect("sh starts")
}

fn options() -> Options {
    Options {
        max_line_bytes: 1024,
        stderr: Stderr::KeepTail(64),
        empty_workdir: false,
    }
}

fn soon() -> Instant {
    Instant::now() + Duration::from_secs(20)
}

#[test]
fn lines_go_both_ways() {
    let mut child = sh(
        r#"while read -r l; do printf 'got %s\r\n' "$l"; done"#,
        &options(),
    );
    child.send_line(b"one").unwrap();
    child.send_line(b"two").unwrap();
    assert_eq!(child.read_line(soon()).unwrap(), b"got one");
    assert_eq!(child.read_line(soon()).unwrap(), b"got two");
    child.close_stdin();
    assert_eq!(child.read_line(soon()), Err(ReadError::Closed));
    assert_eq!(child.wait_briefly(), "exit status: 0");
}

#[test]
fn a_silent_child_costs_the_deadline_not_more() {
    let mut child = sh("sleep 30", &options());
    let started = Instant::now();
    let got = child.read_line(Instant::now() + Duration::from_millis(200));
    assert_eq!(got, Err(ReadError::Timeout));
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn a_child_that_never_reads_cannot_block_the_caller() {
    let mut child = sh("sleep 30", &options());
    let line = vec![b'x'; 1000];
    let started = Instant::now();
    // 4 MB: far more than a pipe holds; only the writer thread waits on it.
    for _ in 0..4000 {
        child.send_line(&line).unwrap();
    }
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[test]
fn an_overlong_line_ends_the_reading() {
    let mut child = sh(
        "head -c 5000 /dev/zero | tr '\\0' x; echo; echo after",
        &options(),
    );
    assert_eq!(
        child.read_line(soon()),
        Err(ReadError::TooLong { max: 1024 })
    );
    assert_eq!(child.read_line(soon()), Err(ReadError::Closed));
}

#[test]
fn stderr_keeps_its_tail() {
    let mut child = sh(
        // One write (94 bytes, under PIPE_BUF, so one read): with two, a take between them
        // would return the early text before the tail could cut it.
        "printf 'early-text-that-is-cut-%070d\\n' 7 >&2; echo done",
        &options(),
    );
    assert_eq!(child.read_line(soon()).unwrap(), b"done");
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut text = String::new();
    while Instant::now() < deadline {
        text.push_str(&child.take_stderr().unwrap_or_default());
        if text.ends_with("7\n") {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(text.ends_with("0007\n"), "{text:?}");
    assert!(
        !text.contains("early"),
        "only the last 64 bytes are kept: {text:?}"
    );
}

#[test]
fn an_empty_working_directory_and_absolute_paths() {
    let here = std::env::current_dir().unwrap();
    let argv = [
        "sh".to_owned(),
        "tests/print_cwd.sh".to_owned(), // relative to the crate: made absolute
    ];
    let mut child = LineChild::spawn(
        &argv,
        &Options {
            empty_workdir: true,
            ..options()
        },
    )
    .unwrap();
    let cwd = String::from_utf8(child.read_line(soon()).unwrap()).unwrap();
    let entries = child.read_line(soon()).unwrap();
    assert_ne!(std::path::Path::new(&cwd), here);
    assert!(cwd.contains("citeproof-child-"), "{cwd}");
    assert_eq!(entries, b"0");
}

#[test]
fn a_missing_program_is_a_typed_error() {
    let argv = ["/nonexistent/citeproof-judge".to_owned()];
    let err = LineChild::spawn(&argv, &options()).unwrap_err();
    assert!(
        err.to_string()
            .starts_with("cannot start `/nonexistent/citeproof-judge`")
    );
    assert!(LineChild::spawn(&[], &options()).is_err());
}

#[cfg(target_os = "linux")]
#[test]
fn killing_the_child_kills_what_it_started() {
    // A wrapper that does not `exec`: its own child must not outlive it.
    let mut child = sh("sleep 300 & echo $!; wait", &options());
    let pid = String::from_utf8(child.read_line(soon()).unwrap()).unwrap();
    let proc_dir = std::path::PathBuf::from(format!("/proc/{}", pid.trim()));
    assert!(proc_dir.exists(), "the grandchild runs before the kill");
    child.kill();
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        // Gone, or a zombie waiting for init to reap it: either way no longer running.
        let state = std::fs::read_to_string(proc_dir.join("stat")).unwrap_or_default();
        let running = state
            .rsplit(')')
            .next()
            .and_then(|rest| rest.split_whitespace().next())
            .is_some_and(|s| s != "Z");
        if !running {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the grandchild survived: {state}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
