"""`pbem resolve CAMPAIGN --dice FILE` for the tests: the command run, the files of a campaign
folder read back to prove nothing changed, and the dice log of a turn."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import Any

from pbem.cli import main
from pbem.state.store import read_toml


def pbem(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of the command line."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def resolve_with(folder: Path, lines: str, *more: str) -> tuple[int, str, str]:
    """Write `lines` as a dice file beside the campaigns and resolve the open stage with it."""
    path = folder.parent.parent / "dice.txt"
    path.write_text(lines, encoding="utf-8")
    return pbem("resolve", str(folder), "--dice", str(path), *more)


def files(folder: Path) -> dict[str, bytes]:
    """Every file under the campaigns' root (campaigns, outbox), with its bytes."""
    root = folder.parent.parent
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "dice.txt"}


def rolls(folder: Path, turn: int) -> list[dict[str, Any]]:
    """Every roll the dice log of `turn` holds, in order."""
    log = read_toml(folder / "history" / f"{turn:03d}" / "dice.toml")
    return [roll for stage in log["stages"] for roll in stage["rolls"]]


def dice_lines(report: str) -> list[str]:
    """The lines of a report's dice list (`## Dice`), to the next heading or paragraph."""
    part = report.partition("## Dice\n\n")[2]
    return [line for line in part.partition("\n\n")[0].splitlines() if line.startswith("- ")]
