"""Dice rolled at the table (issue 24) in Star Wars Miniatures: `pbem resolve --dice FILE` resolves
the demo's turn-2 cleanup and initiative window with the GM's d20s. The same window resolved on a
copy with the turn's committed dice gives the purposes in the order the rules ask for them; the
GM's file lists them with his own faces, the last one other than the committed one. The rolls
used, the report's typed-dice lines and `pbem verify-dice` say they were typed."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

from pbem.state.store import read_toml
from tests.star_wars_miniatures.engine import Demo
from tests.support.typed_dice import dice_lines, files, pbem, resolve_with


def at_initiative(root: Path) -> Demo:
    """The demo through its turn-1 battle: turn 2's cleanup and initiative window open, no orders yet."""
    demo = Demo(root)
    demo.play("00-opening", "01-factions", "02-squads", "03-economics", "04-action", "05-battle")
    assert demo.camp.state["stage"]["title"] == "Turn 2: cleanup and initiative"
    return demo


def last_stage_rolls(folder: Path, turn: int) -> list[dict[str, Any]]:
    return list(read_toml(folder / "history" / f"{turn:03d}" / "dice.toml")["stages"][-1]["rolls"])


def committed_rolls(demo: Demo, turn: int) -> list[tuple[str, list[int], int]]:
    """The window resolved on a copy with the committed dice: each roll's purpose, faces and sides."""
    copy = Demo.__new__(Demo)
    copy.root, copy.now = demo.root.parent / "committed", demo.now
    shutil.copytree(demo.root, copy.root)
    copy.folder = copy.root / "campaigns" / demo.folder.name
    code, _, err = pbem("resolve", str(copy.folder))          # resolved by the next tick
    assert code == 0, err
    copy.tick(demo.now + timedelta(hours=1))
    return [(r["purpose"], list(r["faces"]), int(r["sides"])) for r in last_stage_rolls(copy.folder, turn)]


def dice_file(found: list[tuple[str, list[int], int]]) -> str:
    *rest, (purpose, faces, sides) = found
    return "".join(f"{p}: {'+'.join(map(str, f))}\n" for p, f, _ in rest) + f"{purpose}: {faces[0] % sides + 1}\n"


def test_swm_an_initiative_window_resolved_with_the_gms_dice_file_records_them_as_typed(tmp_path: Path) -> None:
    demo = at_initiative(tmp_path / "club")
    turn = demo.camp.state["stage"]["turn"]
    found = committed_rolls(demo, turn)
    assert found and all(sides == 20 for _, _, sides in found)
    code, out, err = resolve_with(demo.folder, dice_file(found))
    assert code == 0 and f"{len(found)} typed roll" in out, err
    used = [(r["purpose"], r["faces"]) for r in last_stage_rolls(demo.folder, turn)]
    assert used[:-1] == [(p, f) for p, f, _ in found[:-1]] and used[-1][1] != found[-1][1]
    report = next(p for p in demo.camp.history(turn).glob("*initiative*.md")).read_text(encoding="utf-8")
    assert len(dice_lines(report)) == len(found) and all("(typed by GM" in ln for ln in dice_lines(report))
    code, out, _ = pbem("verify-dice", str(demo.folder), str(turn))
    assert code == 0 and f"{len(found)} typed at the table (by GM" in out


def test_swm_a_dice_file_with_a_roll_left_over_is_refused_whole_and_nothing_resolved(tmp_path: Path) -> None:
    demo = at_initiative(tmp_path / "club")
    found = committed_rolls(demo, demo.camp.state["stage"]["turn"])
    before = files(demo.folder)
    code, _, err = resolve_with(demo.folder, dice_file(found) + f"{found[-1][0]}: 7\n")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert files(demo.folder) == before
