"""The README's Python section runs as written (its blocks in order, from the repository's root)."""

from __future__ import annotations

import re
from pathlib import Path


def test_the_readme_python_blocks_run(root: Path, capsys, monkeypatch) -> None:
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 2
    monkeypatch.chdir(root)  # the second block reads the archive fixtures, as it says
    namespace: dict[str, object] = {}
    for block in blocks:  # one session: the second block uses the first one's key
        exec(compile(block, "README.md", "exec"), namespace)
    assert capsys.readouterr().out.strip() == "key-format-unknown"
