//! Round trip over real HTTP on loopback: ledger → manifest → signed response (the demo site
//! built with the public signer API) → served by a tiny_http server on 127.0.0.1 → verified
//! with the hardened HTTP fetcher; then the same verification replayed from the web snapshot
//! the recording fetcher wrote. No mocks.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;
use std::thread;

use citeproof_aca::sign::SigningKey;
use citeproof_aca::{VerifyOptions, verify_snapshot, verify_url};
use citeproof_cli::demo::{DemoSite, build_demo_site};
use citeproof_fetch::{FetchPolicy, HttpFetcher, RecordingFetcher};
use citeproof_model::IncidentCode;

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// Serves the demo site on 127.0.0.1:0 from a background thread; returns the base URL.
fn serve() -> (String, Arc<DemoSite>) {
    let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
    let port = server.server_addr().to_ip().unwrap().port();
    let base = format!("http://127.0.0.1:{port}");
    let key = SigningKey::from_secret_bytes(&[42u8; 32]);
    let site =
        Arc::new(build_demo_site(&base, &key, citeproof_cli::demo::DEMO_KID, now()).unwrap());
    let served = Arc::clone(&site);
    thread::spawn(move || {
        for request in server.incoming_requests() {
            let r = served.respond(request.url());
            let mut response = tiny_http::Response::from_data(r.body).with_status_code(r.status);
            for (name, value) in &r.headers {
                response.add_header(
                    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).unwrap(),
                );
            }
            let _ = request.respond(response);
        }
    });
    (base, site)
}

fn policy() -> FetchPolicy {
    FetchPolicy {
        allow_private: true,
        ..FetchPolicy::default()
    }
}

#[test]
fn demo_runs_reach_their_expected_levels_live_and_from_snapshots() {
    let (_base, site) = serve();
    assert!(site.runs.iter().any(|r| r.expected_level == 3));
    assert!(site.runs.iter().filter(|r| r.expected_level < 3).count() >= 3);
    let mut opts = VerifyOptions::new(now());
    opts.allow_private = true;
    for run in &site.runs {
        let recorder = RecordingFetcher::new(HttpFetcher::new(policy()));
        let report = verify_url(&run.url, &recorder, &opts);
        assert_eq!(
            report.verdict.level, run.expected_level,
            "{}: {}\n{:#?}",
            run.url, run.description, report.verdict.incidents
        );
        // Replay offline: the same verdict and the same incidents.
        let snapshot = recorder.snapshot(&run.url).unwrap();
        let replay = verify_snapshot(&snapshot, &opts);
        assert_eq!(replay.verdict.level, report.verdict.level, "{}", run.url);
        assert_eq!(
            replay.plain_incidents(),
            report.plain_incidents(),
            "{}",
            run.url
        );
    }
}

#[test]
fn complete_run_is_level_3_with_every_claim_supported() {
    let (base, _site) = serve();
    let mut opts = VerifyOptions::new(now());
    opts.allow_private = true;
    let report = verify_url(
        &format!("{base}/runs/complete"),
        &HttpFetcher::new(policy()),
        &opts,
    );
    assert_eq!(report.verdict.level, 3, "{:#?}", report.verdict.incidents);
    assert!(report.verdict.verified);
    assert!(
        report.verdict.incidents.is_empty(),
        "{:#?}",
        report.verdict.incidents
    );
    assert_eq!(report.details.manifests.len(), 1);
    assert_eq!(
        report.details.manifests[0].signed_by.as_deref(),
        Some("demo-2026")
    );
    assert!(
        report.details.manifests[0]
            .claims
            .iter()
            .all(|c| c.supported == Some(true))
    );
}

#[test]
fn broken_runs_report_the_documented_codes() {
    let (base, _site) = serve();
    let mut opts = VerifyOptions::new(now());
    opts.allow_private = true;
    let fetcher = HttpFetcher::new(policy());
    use IncidentCode as C;
    for (run, codes) in [
        ("unsigned", &[C::AcaSignatureMissing][..]),
        ("tampered", &[C::AcaContentDigestMismatch]),
        ("wrong-key", &[C::AcaKeyUnresolved]),
        (
            "changed-source",
            &[C::AcaSourceHashMismatch, C::AcaExcerptIntact],
        ),
        ("reused-manifest", &[C::AcaRunMismatch]),
        ("unsupported-claim", &[C::AcaClaimUnsupported]),
        ("no-header", &[C::AcaHeaderMissing]),
        ("replayed", &[C::AcaResponseUrlMismatch]),
        (
            "error-page",
            &[C::AcaResponseFetchFailed, C::FetchHttpStatus],
        ),
        ("unbound", &[C::AcaResponseUnbound]),
    ] {
        let report = verify_url(&format!("{base}/runs/{run}"), &fetcher, &opts);
        for code in codes {
            assert!(
                report.has(*code),
                "{run}: {code:?} missing in {:#?}",
                report.verdict.incidents
            );
        }
    }
}

#[test]
fn private_addresses_are_refused_without_allow_private() {
    let (base, _site) = serve();
    let opts = VerifyOptions::new(now());
    let report = verify_url(
        &format!("{base}/runs/complete"),
        &HttpFetcher::new(FetchPolicy::default()),
        &opts,
    );
    assert_eq!(report.verdict.level, 0);
    assert!(
        report.has(IncidentCode::FetchAddressForbidden),
        "{:#?}",
        report.verdict.incidents
    );
}

#[test]
fn live_fetch_failures_are_reported_with_their_cause() {
    use std::io::{Read, Write};
    let mut opts = VerifyOptions::new(now());
    opts.allow_private = true;
    let fetcher = HttpFetcher::new(policy());

    // Nothing listens on the port any more.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let fails_with = |port: u16, code: IncidentCode| {
        let r = verify_url(&format!("http://127.0.0.1:{port}/runs/x"), &fetcher, &opts);
        assert_eq!(r.verdict.level, 0);
        assert!(r.has(code), "{code:?}: {:#?}", r.verdict.incidents);
    };
    fails_with(port, IncidentCode::FetchConnectFailed);

    // A server that does not speak HTTP.
    let garbage = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = garbage.local_addr().unwrap().port();
    thread::spawn(move || {
        if let Ok((mut s, _)) = garbage.accept() {
            let mut buf = [0u8; 1024];
            let _ = s.read(&mut buf);
            let _ = s.write_all(b"NOT HTTP AT ALL\r\n\r\n");
        }
    });
    fails_with(port, IncidentCode::FetchProtocolError);
}
