"""The conformance adapter built on the package alone (examples/adapters/python/package/) passes
the whole suite through `citeproof conformance --impl`: static and generated cases, nothing
skipped, and the run claims every level (the same run as `cargo xtask conformance`)."""

from __future__ import annotations

import json
import shlex
import sys
from collections import Counter
from pathlib import Path

from conftest import run_cli


def test_the_package_adapter_passes_the_whole_suite(root: Path, tmp_path: Path) -> None:
    adapter = root / "examples/adapters/python/package/citeproof_package_adapter.py"
    report_path = tmp_path / "report.json"
    impl = f"{shlex.quote(sys.executable)} {shlex.quote(str(adapter))}"
    out = run_cli("conformance", "--no-progress", "--vectors", str(root / "vectors"),
                  "--impl", impl, "--report", "json", "--out", str(report_path), timeout=1800)
    report = json.loads(report_path.read_text())
    statuses = Counter(c["status"] for c in report["cases"])
    bad = [f'{c["id"]} {c["status"]}: {c.get("message")}' for c in report["cases"]
           if c["status"] != "passed"]
    assert out.returncode == 0, "\n".join(bad[:30]) + out.stderr[-3000:]
    assert set(statuses) == {"passed"}, statuses
    kinds = Counter(c["origin"]["kind"] for c in report["cases"])
    assert kinds["generated"] > 0 and kinds["static"] > 0, kinds
    assert report["implementation"]["name"] == "citeproof-python-package"
    assert report["claim"]["subset"] is False, report["claim"]
    assert report["claim"]["gaps"] == [], report["claim"]["gaps"]
    print(f"package adapter: {dict(kinds)} cases, all passed")
