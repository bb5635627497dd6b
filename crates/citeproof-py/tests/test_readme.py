"""The README's Python section runs as written."""

from __future__ import annotations

import re
from pathlib import Path


def test_the_readme_python_block_runs(root: Path, capsys) -> None:
    readme = (root / "README.md").read_text(encoding="utf-8")
    section = readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.S)
    assert len(blocks) == 1
    exec(compile(blocks[0], "README.md", "exec"), {})
    assert capsys.readouterr().out.strip() == "key-format-unknown"
