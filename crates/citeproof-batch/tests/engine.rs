//! The engine: input order whatever the finishing order, the worst rank last, each report
//! settled before its line, resumed inputs not verified again, failed records said.

mod common;

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Mutex;

use citeproof_batch::{Input, Rank, Recorded, Resumed, Settle};
use citeproof_model::Outcome;
use common::{Details, Kept, Stop, TestReport, by_word, run_batch};
use serde_json::json;

/// Settles nothing unless told: records the order of its calls in `events`, marks each report
/// it settled, resumes the inputs of `resume`, fails the records of the lines in `fail`.
#[derive(Default)]
struct Logged {
    events: Rc<RefCell<Vec<String>>>,
    resume: Vec<(&'static str, Resumed)>,
    fail: Vec<usize>,
    lookup_error: bool,
}

impl Settle<Details> for Logged {
    type Error = String;

    fn recorded(&mut self, input: &Input) -> Result<Option<Resumed>, String> {
        if self.lookup_error {
            return Err("store unreadable".into());
        }
        Ok(self
            .resume
            .iter()
            .find(|(text, _)| *text == input.text)
            .map(|(_, r)| *r))
    }

    fn settle(&mut self, input: &Input, report: &mut TestReport) -> Recorded {
        self.events
            .borrow_mut()
            .push(format!("settle {}", input.line));
        report.details.note = format!("settled {}", input.line);
        if self.fail.contains(&input.line) {
            Recorded::Failed("disk full".into())
        } else {
            Recorded::As(100 + i64::try_from(input.line).unwrap())
        }
    }
}

#[test]
fn lines_come_in_input_order_whatever_order_they_finish_in() {
    let texts: Vec<String> = (0..24).map(|n| format!("ok {n}")).collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let finished = Mutex::new(Vec::new());
    let verify = |line: &str| {
        // The first input is the slowest: with more than one worker, others finish first.
        if line == "ok 0" {
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        finished.lock().unwrap().push(line.to_owned());
        by_word(line)
    };
    let mut output = Kept::default();
    let summary = run_batch(&texts, verify, &mut Logged::default(), &mut output).unwrap();
    let written: Vec<(&str, u64)> = output
        .lines
        .iter()
        .map(|l| (l["input"].as_str().unwrap(), l["line"].as_u64().unwrap()))
        .collect();
    let expected: Vec<(&str, u64)> = texts.iter().copied().zip(1..).collect();
    assert_eq!(written, expected);
    let finished = finished.into_inner().unwrap();
    assert_eq!(finished.len(), texts.len());
    if rayon::current_num_threads() > 1 {
        assert_ne!(finished[0], "ok 0", "the test did not finish out of order");
    }
    assert_eq!(summary.exit_status(), 0);
    assert_eq!(summary.count(Rank::Verified), 24);
}

/// Worst last: usage (2) over not verified (1) over could not check (3) over verified (0).
#[test]
fn the_worst_input_decides_the_exit_status() {
    let cases: [(&[&str], u8); 6] = [
        (&[], 0),
        (&["ok a", "ok b"], 0),
        (&["ok a", "unreadable b"], 3),
        (&["unreadable a", "bad b"], 1),
        (&["bad a", "usage b", "ok c"], 2),
        (&["usage a", "unreadable b", "bad c"], 2),
    ];
    for (texts, status) in cases {
        let mut output = Kept::default();
        let summary = run_batch(texts, by_word, &mut Logged::default(), &mut output).unwrap();
        assert_eq!(summary.exit_status(), status, "{texts:?}");
        assert_eq!(output.lines.len(), texts.len());
    }
    let mut output = Kept::default();
    let summary = run_batch(
        &["bad a", "usage b", "ok c", "unreadable d", "ok e"],
        by_word,
        &mut Logged::default(),
        &mut output,
    )
    .unwrap();
    assert_eq!(
        summary.to_string(),
        "5 inputs: 2 verified, 1 not verified, 1 could not be checked, 1 usage errors"
    );
    let outcomes: Vec<&str> = output
        .lines
        .iter()
        .map(|l| l["outcome"].as_str().unwrap())
        .collect();
    assert_eq!(
        outcomes,
        [
            "not-verified",
            "usage-error",
            "verified",
            "could-not-check",
            "verified"
        ]
    );
}

#[test]
fn each_report_is_settled_before_its_line_is_written() {
    let mut settle = Logged::default();
    let mut output = Kept {
        events: settle.events.clone(),
        ..Kept::default()
    };
    run_batch(
        &["ok a", "bad b", "ok c"],
        by_word,
        &mut settle,
        &mut output,
    )
    .unwrap();
    assert_eq!(
        *settle.events.borrow(),
        [
            "settle 1", "line 1", "settle 2", "line 2", "settle 3", "line 3"
        ]
    );
    // The line is the settled report, with the id it was recorded under.
    for (n, line) in output.lines.iter().enumerate() {
        assert_eq!(line["note"], json!(format!("settled {}", n + 1)));
        assert_eq!(line["recorded_as"], json!(101 + n));
    }
}

#[test]
fn an_input_that_cannot_be_verified_writes_its_error_object() {
    let mut output = Kept::default();
    let summary = run_batch(
        &["unreadable x.json"],
        by_word,
        &mut Logged::default(),
        &mut output,
    )
    .unwrap();
    assert_eq!(
        output.lines,
        [
            json!({"command": "test verify", "ok": false, "incidents": [],
                "outcome": "could-not-check",
                "error": {"code": "input-unreadable", "message": "cannot read it"},
                "input": "unreadable x.json", "line": 1})
        ]
    );
    assert_eq!(summary.exit_status(), 3);
}

/// 1 777 593 600 s is 2026-05-01T00:00:00Z (hand count in the CLI's `--now` test).
#[test]
fn a_resumed_input_is_not_verified_again_and_says_when_it_was() {
    let verified = Mutex::new(Vec::new());
    let verify = |line: &str| {
        verified.lock().unwrap().push(line.to_owned());
        by_word(line)
    };
    let mut settle = Logged {
        resume: vec![(
            "ok b",
            Resumed {
                id: 7,
                outcome: Outcome::NotVerified,
                verified_at: 1_777_593_600,
            },
        )],
        ..Logged::default()
    };
    let mut output = Kept::default();
    let summary = run_batch(&["ok a", "ok b"], verify, &mut settle, &mut output).unwrap();
    assert_eq!(verified.into_inner().unwrap(), ["ok a"]);
    assert_eq!(
        output.lines[1],
        json!({"command": "test verify", "ok": false, "incidents": [], "outcome": "not-verified",
               "skipped": true, "recorded_as": 7, "verified_at": "2026-05-01T00:00:00Z",
               "input": "ok b", "line": 2})
    );
    // The recorded verdict counts: not verified, exit 1.
    assert_eq!(summary.exit_status(), 1);
    assert_eq!(
        summary.to_string(),
        "2 inputs: 1 verified, 1 not verified, 0 could not be checked, 0 usage errors \
         (1 already recorded, not verified again)"
    );
}

#[test]
fn a_failed_record_is_said_before_its_line_and_exits_3() {
    let mut settle = Logged {
        fail: vec![2],
        ..Logged::default()
    };
    let mut output = Kept {
        events: settle.events.clone(),
        ..Kept::default()
    };
    let summary = run_batch(&["ok a", "ok b"], by_word, &mut settle, &mut output).unwrap();
    assert_eq!(
        *output.events.borrow(),
        [
            "settle 1",
            "line 1",
            "settle 2",
            "record failed 2: disk full",
            "line 2"
        ]
    );
    assert_eq!(output.lines[1]["record_error"], json!("disk full"));
    assert!(output.lines[1].get("recorded_as").is_none());
    // Every verdict verified, and yet the batch exits 3: a record is missing.
    assert_eq!(summary.exit_status(), 3);
    assert!(summary.to_string().ends_with("; 1 NOT recorded"));
}

#[test]
fn an_output_that_fails_stops_the_batch() {
    let mut settle = Logged::default();
    let mut output = Kept {
        fail_after: Some(1),
        events: settle.events.clone(),
        ..Kept::default()
    };
    let texts = ["ok a", "ok b", "ok c", "ok d"];
    let stopped = run_batch(&texts, by_word, &mut settle, &mut output).unwrap_err();
    assert_eq!(stopped, Stop::Output);
    assert_eq!(output.lines.len(), 1);
    // Nothing after the line that could not be written is settled (recorded).
    assert_eq!(*settle.events.borrow(), ["settle 1", "line 1", "settle 2"]);
}

#[test]
fn a_store_that_cannot_be_read_stops_the_batch_before_any_verification() {
    let verified = Mutex::new(0);
    let verify = |line: &str| {
        *verified.lock().unwrap() += 1;
        by_word(line)
    };
    let mut settle = Logged {
        lookup_error: true,
        ..Logged::default()
    };
    let mut output = Kept::default();
    let stopped = run_batch(&["ok a"], verify, &mut settle, &mut output).unwrap_err();
    assert_eq!(stopped, Stop::Store("store unreadable".into()));
    assert_eq!(*verified.lock().unwrap(), 0);
    assert!(output.lines.is_empty());
}
