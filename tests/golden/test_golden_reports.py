"""One turn of each demo, pinned as golden Markdown files: acks, briefings, public and private reports.

Regenerate after an intended change: `PBEM_UPDATE_GOLDEN=1 python3 -m pytest tests/golden`.
"""

from __future__ import annotations

import difflib
import os
import shutil
from pathlib import Path

import pytest

from tests.golden.demo_mails import GOLDEN, PINNED_STEPS, demo_mails

UPDATE = os.environ.get("PBEM_UPDATE_GOLDEN") == "1"


@pytest.mark.parametrize("ruleset", sorted(PINNED_STEPS))
def test_one_demo_turn_mails_exactly_the_golden_files(ruleset: str, tmp_path: Path) -> None:
    mails = demo_mails(ruleset, tmp_path)
    assert mails, f"the {ruleset} demo sent no mail in its pinned steps"
    if UPDATE:
        _rewrite(ruleset, mails)
    pinned = {str(p.relative_to(GOLDEN)): p.read_text(encoding="utf-8")
              for p in sorted((GOLDEN / ruleset).rglob("*.md"))}
    assert sorted(mails) == sorted(pinned), "mails sent and golden files differ; regenerate if intended"
    diffs = [_diff(name, pinned[name], text) for name, text in sorted(mails.items()) if pinned[name] != text]
    assert not diffs, "\n".join(diffs)


def _rewrite(ruleset: str, mails: dict[str, str]) -> None:
    shutil.rmtree(GOLDEN / ruleset, ignore_errors=True)
    for name, text in mails.items():
        path = GOLDEN / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _diff(name: str, expected: str, actual: str) -> str:
    lines = difflib.unified_diff(expected.splitlines(), actual.splitlines(), f"golden/{name}", "sent", lineterm="")
    return "\n".join(lines)
