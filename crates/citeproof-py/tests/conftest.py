"""Shared helpers of the package's tests: the repository root and the `citeproof` binary.

The tests run against the installed wheel (`cargo xtask test` builds and installs it into
`.venv/`) and the CLI built by `cargo test --workspace` (`target/debug/citeproof`, or
`CITEPROOF_BIN`). A missing binary fails the tests: a cross-check that skips proves nothing.
"""

from __future__ import annotations

import base64
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "examples" / "python-agent"))


def citeproof_bin() -> str:
    explicit = os.environ.get("CITEPROOF_BIN")
    if explicit:
        return explicit
    for profile in ("debug", "release"):
        candidate = ROOT / "target" / profile / "citeproof"
        if candidate.exists():
            return str(candidate)
    pytest.fail("no citeproof binary: build it (cargo build -p citeproof-cli) or set CITEPROOF_BIN")


def flip_source_byte(snap: dict, doc: int) -> None:
    """Changes one byte of the cited source `https://sources.example/doc/<doc>` of a parsed
    synthetic snapshot, inside its text `Record <doc>.0`: its hash no longer matches the
    manifest's."""
    source = snap["resources"][f"https://sources.example/doc/{doc}"]
    body = bytearray(base64.b64decode(source["body_base64"]))
    i = body.index(f"Record {doc}.0".encode()) + len(b"Record ")
    body[i] ^= 0x01
    source["body_base64"] = base64.b64encode(bytes(body)).decode()


def run_cli(*args: str, check: bool = False, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run([citeproof_bin(), *args], capture_output=True, text=True,
                          timeout=timeout, check=check)


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
