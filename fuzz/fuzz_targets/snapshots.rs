//! Web snapshots, JSON and WARC, on arbitrary bytes: never panic, and a snapshot that loads
//! serves its agent response for its own URL.

#![no_main]

use citeproof_fetch::{FetchPolicy, Fetcher, SnapshotFetcher, parse_snapshot, read_warc};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let policy = FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    };
    let fetcher = if data.starts_with(b"WARC/") {
        read_warc(&mut std::io::Cursor::new(data), policy).ok()
    } else {
        parse_snapshot(data)
            .ok()
            .and_then(|s| SnapshotFetcher::new(&s, policy).ok())
    };
    if let Some(f) = fetcher {
        let agent = f.agent_response().clone();
        if let Ok(again) = f.fetch(&agent.url) {
            assert_eq!(again.body, agent.body);
        }
        for url in f.urls().map(str::to_owned).collect::<Vec<_>>() {
            let _ = f.fetch(&url);
        }
    }
});
