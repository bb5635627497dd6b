#!/usr/bin/env python3
"""Benchmark of the Python package (issue 22, "done when"): verifying 10,000 claims from Python
against the Rust verification of the same snapshot inside the same process, and the same
verifications on a ThreadPoolExecutor of 2 threads against 1 thread.

    .venv/bin/python benches/python_verify.py [--claims 10000] [--repeats 5] [--jobs 8] [--cli target/release/citeproof]

Prints one JSON object. Needs the wheel built in release (`maturin build --release`): a debug
build measures nothing useful. What is measured, all in this one run:

* ``rust_in_process_s``: ``citeproof_aca::verify_snapshot_bytes`` alone, called from Rust with
  the GIL released (best of --repeats); the Rust report's drop is not timed.
* ``python_report_s``: one ``citeproof.aca.verify_snapshot_report`` call, the report dict
  returned (best of --repeats). The dict of the previous repeat is freed before the clock
  starts, as the Rust figure does not time its drop; ``python_report_free_s`` is that free.
* ``python_verdict_s``: one ``citeproof.aca.verify_snapshot`` (the conformance operation's
  verdict, no report).
* ``report_phases_s``: where one report call goes: ``verify`` (no GIL), ``build`` (the dict
  built from the Rust report: the only part that holds the GIL), ``drop`` (the Rust report,
  no GIL), each the best of --repeats; ``report_phases_cpu_s`` the same in this thread's CPU
  time (``time.thread_time``), which other work on a shared machine disturbs far less than
  wall time; ``report_over_verify_cpu`` = (verify + build + drop) / verify in CPU time.
* threads: the same --jobs report calls on a pool of 1 thread and on a pool of 2 threads,
  alternated (1, 2, 1, 2, ...) --rounds times, best of each. ``pool_2_threads_cpu`` is the
  process CPU time over the wall time of the best 2-thread round: near 2.0 when both cores
  were ours, lower when other work on the machine took them (then the speedup is not the
  package's). ``rust_speedup_2_threads``: the same jobs verified by 1 and by 2 Rust threads
  (no Python, no GIL), in the same rounds: what the machine itself gives a second thread, the
  ceiling of ``speedup_2_threads``. ``loadavg_start`` / ``loadavg_end``: the machine's 1, 5
  and 15-minute load averages, so that a loaded measurement is recognisable.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

import citeproof
from citeproof import _native, aca


def best(repeats: int, f: Callable[[], Any]) -> float:
    """The best time of ``f`` over ``repeats`` calls; each result is freed before the next
    call's clock starts."""
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        result = f()
        times.append(time.perf_counter() - t)
        del result
    return min(times)


def pool_round(snapshot: str, now: int, threads: int, jobs: int) -> tuple[float, float]:
    """``jobs`` report calls on a pool of ``threads`` threads: (wall seconds, CPU seconds)."""
    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(lambda _: None, range(threads)))  # the threads exist before the clock
        cpu, wall = time.process_time(), time.perf_counter()
        levels = list(ex.map(lambda _: aca.verify_snapshot_report(snapshot, now=now)["level"],
                             range(jobs)))
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert levels == [3] * jobs, levels
    return wall, cpu


def threads(snapshot: str, now: int, jobs: int, rounds: int) -> dict[str, Any]:
    one: list[tuple[float, float]] = []
    two: list[tuple[float, float]] = []
    rust_one: list[float] = []
    rust_two: list[float] = []
    for _ in range(rounds):
        one.append(pool_round(snapshot, now, 1, jobs))
        two.append(pool_round(snapshot, now, 2, jobs))
        rust_one.append(_native._time_verify_threads(snapshot, now, jobs, 1))
        rust_two.append(_native._time_verify_threads(snapshot, now, jobs, 2))
    best_one, best_two = min(one), min(two)
    return {
        "rust_threads_1_s": round(min(rust_one), 3), "rust_threads_2_s": round(min(rust_two), 3),
        "rust_speedup_2_threads": round(min(rust_one) / min(rust_two), 3),
        "pool_jobs": jobs, "pool_rounds": rounds,
        "pool_1_thread_s": round(best_one[0], 3), "pool_2_threads_s": round(best_two[0], 3),
        "pool_1_thread_all_s": [round(w, 3) for w, _ in one],
        "pool_2_threads_all_s": [round(w, 3) for w, _ in two],
        "pool_2_threads_cpu": round(best_two[1] / best_two[0], 2),
        "speedup_2_threads": round(best_one[0] / best_two[0], 3),
    }


def phases(snapshot: str, now: int, repeats: int, clock: Callable[[], float]) -> dict[str, float]:
    """The report call's phases read on ``clock``, each the best of ``repeats``."""
    runs = [_native._time_report_phases(snapshot, now, clock) for _ in range(repeats)]
    return {name: round(min(r[i] for r in runs), 4) for i, name in enumerate(("verify", "build", "drop"))}


def report_free(snapshot: str, now: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        report = aca.verify_snapshot_report(snapshot, now=now)
        t = time.perf_counter()
        del report
        times.append(time.perf_counter() - t)
    return min(times)


def cli_time(cli: str, snapshot: str, now: int, repeats: int) -> float:
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "snapshot.json")
        with open(path, "w", encoding="utf-8") as f:
            f.write(snapshot)
        cmd = [cli, "aca", "verify", "--snapshot", path, "--now", str(now), "--json"]

        def run() -> None:
            r = subprocess.run(cmd, capture_output=True, text=True)
            assert json.loads(r.stdout)["level"] == 3, r.stderr

        return best(repeats, run)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--claims", type=int, default=10_000)
    p.add_argument("--sources", type=int, default=10)
    p.add_argument("--repeats", type=int, default=5)
    p.add_argument("--jobs", type=int, default=8, help="report calls per thread-pool round")
    p.add_argument("--rounds", type=int, default=2, help="thread-pool rounds of each size")
    p.add_argument("--cli", help="a citeproof binary to time on the same snapshot")
    a = p.parse_args()
    loadavg_start = [round(x, 2) for x in os.getloadavg()]
    now = _native.SYNTHETIC_NOW
    snapshot = _native._synthetic_snapshot(a.claims, a.sources)

    rust, level = _native._time_verify_snapshot(snapshot, now, a.repeats)
    assert level == 3, f"the synthetic run verified at level {level}, not 3"
    first = aca.verify_snapshot_report(snapshot, now=now)
    assert first["ok"] is True and first["level"] == 3
    del first
    python = best(a.repeats, lambda: aca.verify_snapshot_report(snapshot, now=now))
    verdict = best(a.repeats, lambda: aca.verify_snapshot(snapshot, now=now, required_level=3))
    wall_phases = phases(snapshot, now, a.repeats, time.perf_counter)
    cpu_phases = phases(snapshot, now, a.repeats, time.thread_time)
    out: dict[str, Any] = {
        "claims": a.claims, "sources": a.sources, "repeats": a.repeats, "cpus": os.cpu_count(),
        "citeproof": citeproof.__version__, "loadavg_start": loadavg_start,
        "rust_in_process_s": round(rust, 4),
        "python_report_s": round(python, 4),
        "python_report_free_s": round(report_free(snapshot, now, a.repeats), 4),
        "python_verdict_s": round(verdict, 4),
        "report_over_rust": round(python / rust, 3),
        "verdict_over_rust": round(verdict / rust, 3),
        "report_phases_s": wall_phases,
        "report_phases_cpu_s": cpu_phases,
        "report_over_verify_cpu": round(sum(cpu_phases.values()) / cpu_phases["verify"], 3),
    }
    out.update(threads(snapshot, now, a.jobs, a.rounds))
    if a.cli:
        cli_s = cli_time(a.cli, snapshot, now, a.repeats)
        out["cli_process_s"] = round(cli_s, 4)
        out["report_over_cli_process"] = round(python / cli_s, 3)
    out["loadavg_end"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
