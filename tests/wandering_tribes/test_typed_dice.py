"""Dice rolled at the table (issue 24) in Wandering Tribes: `pbem resolve --dice FILE` resolves a
strategic round with the GM's dice. The same round resolved on a copy with the turn's committed
dice gives the purposes in the order the rules ask for them; the GM's file lists those purposes
with the faces he rolled, one of them other than the committed one. The rolls used, the report's
typed-dice lines and `pbem verify-dice` say they were typed."""

from __future__ import annotations

import shutil
from datetime import timedelta
from pathlib import Path
from typing import Any

from pbem.state.campaign import Campaign
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from tests.support.typed_dice import dice_lines, files, pbem, resolve_with
from tests.table.helpers import T0, campaign, mail, read_mail


def round_one(root: Path) -> Campaign:
    """Round 1's orders open, Anna's mailed, the others silent (their defaults play)."""
    camp = campaign(root)
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    return read_mail(camp)


def last_stage_rolls(folder: Path, turn: int) -> list[dict[str, Any]]:
    """The rolls of the stage resolved last in `turn` (the round's opening rolled its own before)."""
    return list(read_toml(folder / "history" / f"{turn:03d}" / "dice.toml")["stages"][-1]["rolls"])


def committed_rolls(root: Path, turn: int) -> list[tuple[str, list[int], int]]:
    """The round resolved on a copy with the committed dice: each roll's purpose, faces and sides."""
    copy = root.parent / f"{root.name}-committed"
    shutil.copytree(root, copy)
    folder = copy / "campaigns" / "wt"
    code, _, err = pbem("resolve", str(folder))           # resolved by the next tick
    assert code == 0, err
    tick(folder.parent, T0 + timedelta(hours=2))
    return [(r["purpose"], list(r["faces"]), int(r["sides"])) for r in last_stage_rolls(folder, turn)]


def dice_file(found: list[tuple[str, list[int], int]]) -> str:
    """The GM's file: every purpose in order, the last roll's first die turned to another face."""
    *rest, (purpose, faces, sides) = found
    last = [faces[0] % sides + 1, *faces[1:]]
    return "".join(f"{p}: {'+'.join(map(str, f))}\n" for p, f, _ in [*rest, (purpose, last, sides)])


def test_wt_a_strategic_round_resolved_with_the_gms_dice_file_records_them_as_typed(tmp_path: Path) -> None:
    camp = round_one(tmp_path / "club")
    turn = camp.state["stage"]["turn"]
    found = committed_rolls(tmp_path / "club", turn)
    assert found, "the round rolls dice"
    code, out, err = resolve_with(camp.folder, dice_file(found))
    assert code == 0 and f"{len(found)} typed roll" in out, err
    used = [(r["purpose"], r["faces"]) for r in last_stage_rolls(camp.folder, turn)]
    assert used[:-1] == [(p, f) for p, f, _ in found[:-1]] and used[-1][1] != found[-1][1]
    report = (camp.history(turn) / "orders-turn-2.md").read_text(encoding="utf-8")
    assert len(dice_lines(report)) == len(found) and all("(typed by GM" in ln for ln in dice_lines(report))
    code, out, _ = pbem("verify-dice", str(camp.folder), str(turn))
    assert code == 0 and f"{len(found)} typed at the table (by GM" in out


def test_wt_a_dice_file_one_roll_short_is_refused_whole_and_nothing_resolved(tmp_path: Path) -> None:
    camp = round_one(tmp_path / "club")
    found = committed_rolls(tmp_path / "club", camp.state["stage"]["turn"])
    before = files(camp.folder)
    code, _, err = resolve_with(camp.folder, dice_file(found).rsplit("\n", 2)[0] + "\n")
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert files(camp.folder) == before
