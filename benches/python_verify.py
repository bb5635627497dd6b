#!/usr/bin/env python3
"""Benchmark of the Python package (issue 22, "done when"): verifying 10,000 claims from Python
against the Rust verification of the same snapshot inside the same process, and a
ThreadPoolExecutor over 2 threads against 1.

    .venv/bin/python benches/python_verify.py [--claims 10000] [--repeats 5] [--cli target/release/citeproof]

Prints one JSON object: the times (best of --repeats), the ratios, and, with --cli, the wall time
of `citeproof aca verify --snapshot FILE` (one process: start-up and file read included). Needs
the wheel built in release (`maturin build --release`): a debug build measures nothing useful.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import citeproof
from citeproof import _native, aca


def best(repeats: int, f) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--claims", type=int, default=10_000)
    p.add_argument("--sources", type=int, default=10)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--jobs", type=int, default=8, help="verifications per thread-pool round")
    p.add_argument("--cli", help="a citeproof binary to time on the same snapshot")
    a = p.parse_args()
    now = _native.SYNTHETIC_NOW
    snapshot = _native._synthetic_snapshot(a.claims, a.sources)

    rust, level = _native._time_verify_snapshot(snapshot, now, a.repeats)
    assert level == 3, f"the synthetic run verified at level {level}, not 3"
    report = {}

    def from_python() -> None:
        report["r"] = aca.verify_snapshot_report(snapshot, now=now)

    python = best(a.repeats, from_python)
    assert report["r"]["ok"] is True and report["r"]["level"] == 3
    verdict_time = best(a.repeats, lambda: aca.verify_snapshot(snapshot, now=now, required_level=3))

    def pool(threads: int) -> float:
        with ThreadPoolExecutor(threads) as ex:
            t = time.perf_counter()
            results = list(ex.map(lambda _: aca.verify_snapshot_report(snapshot, now=now)["level"],
                                  range(a.jobs)))
            elapsed = time.perf_counter() - t
        assert results == [3] * a.jobs
        return elapsed

    one = min(pool(1) for _ in range(2))
    two = min(pool(2) for _ in range(2))
    out = {
        "claims": a.claims, "sources": a.sources, "repeats": a.repeats, "cpus": os.cpu_count(),
        "citeproof": citeproof.__version__,
        "rust_in_process_s": round(rust, 4),
        "python_report_s": round(python, 4),
        "python_verdict_s": round(verdict_time, 4),
        "python_over_rust": round(python / rust, 3),
        "pool_jobs": a.jobs, "pool_1_thread_s": round(one, 3), "pool_2_threads_s": round(two, 3),
        "speedup_2_threads": round(one / two, 3),
    }
    if a.cli:
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "snapshot.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(snapshot)
            cmd = [a.cli, "aca", "verify", "--snapshot", path, "--now", str(now), "--json"]

            def cli() -> None:
                r = subprocess.run(cmd, capture_output=True, text=True)
                assert json.loads(r.stdout)["level"] == 3, r.stderr

            cli_s = best(a.repeats, cli)
        out["cli_process_s"] = round(cli_s, 4)
        out["python_over_cli_process"] = round(python / cli_s, 3)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
