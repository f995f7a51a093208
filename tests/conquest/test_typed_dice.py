"""Dice rolled at the table (issue 24) in Campaigns of Conquest: the setup's capital window is
resolved with `pbem resolve --dice FILE`. The capital pick order, the random legal cities and
the round's size tie-breaks follow the typed values; the dice log and the report say they were
typed by the GM, and `pbem verify-dice` lists them as typed instead of recomputing them."""

from __future__ import annotations

from pathlib import Path

from tests.conquest.engine_helpers import campaign, game, run
from tests.support.typed_dice import dice_lines, files, pbem, resolve_with, rolls

DICE = """# setup, rolled at the club
Capital pick order: anna: 2
Capital pick order: ben: 3
Capital pick order: cara: 4
Capital for cara: random legal city: 2
Capital for ben: random legal city: 1
Capital for anna: random legal city: 1
Round 1 size tie-break: anna: 5
Round 1 size tie-break: ben: 2
round 1 size tie-break: 6
"""


def test_the_capital_window_resolves_with_the_gms_dice_and_says_they_were_typed(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    assert camp.state["stage"]["kind"] == "capitals"
    code, out, err = resolve_with(camp.folder, DICE)
    assert code == 0 and "9 typed roll(s), by GM Game master" in out, err
    state = game(run(camp))
    assert {e.player: e.tiebreak for e in state.round.sizes} == {"anna": [5], "ben": [2], "cara": [6]}
    assert state.round.order == ["ben", "anna", "cara"] and state.round.largest == "cara"
    logged = rolls(camp.folder, 0)
    assert [r["faces"] for r in logged] == [[2], [3], [4], [2], [1], [1], [5], [2], [6]]
    assert {r["typed_by"] for r in logged} == {"GM Game master"}
    report = (camp.history(0) / "capitals-capitals.md").read_text()
    assert dice_lines(report)[0] == "- Capital pick order: Anna: D6 = 2 (typed by GM Game master)"
    assert all(line.endswith("(typed by GM Game master)") for line in dice_lines(report))
    code, out, _ = pbem("verify-dice", str(camp.folder), "0")
    assert code == 0 and "TYPED: roll 8 (Round 1 size tie-break: cara): [6], typed by GM Game master" in out
    assert "0 roll(s) in 1 stage(s) checked; all match; 9 typed at the table (by GM Game master)" in out


def test_a_purpose_that_is_not_the_next_roll_is_refused_whole(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    before = files(camp.folder)
    anna, ben = "Capital pick order: anna: 2", "Capital pick order: ben: 3"
    swapped = DICE.replace(f"{anna}\n{ben}", f"{ben}\n{anna}")
    code, _, err = resolve_with(camp.folder, swapped)
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert "line 2 `Capital pick order: ben: 3` is not the roll the rules ask for here: D6 for " \
           "`Capital pick order: anna`" in err
    assert files(camp.folder) == before
