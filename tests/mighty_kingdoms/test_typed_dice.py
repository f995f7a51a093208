"""Dice rolled at the table (issue 24) in Mighty Kingdoms: RED1 explores T21 and the month rolls
its player order for the next; `pbem resolve --dice FILE` resolves the Orders with the GM's
2D6 for the exploration (5+5 = 10: a city, MK-EXP) and the roll-off dice, written in the short
form (a purpose cut after a whole word). The report and `pbem verify-dice` say they were typed."""

from __future__ import annotations

from pathlib import Path

from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.state.campaign import Campaign
from tests.mighty_kingdoms.test_engine_flow import imported, mail, position
from tests.support.typed_dice import dice_lines, files, pbem, resolve_with, rolls

DICE = """exploration of T21 by RED1: 5+5
player order roll-off: 3
player order roll-off: 5
"""


def exploring(root: Path) -> Campaign:
    """Year 1, month 3: Red has sent RED1 MOVE T21 (unexplored); Blue's orders are still awaited."""
    camp = imported(root, position(x_explored=False))
    mail(root, "o-red", "red", "RED1 MOVE T21")
    code, _, err = pbem("tick", "--root", str(root / "campaigns"))
    assert code == 0, err
    return Campaign(camp.folder)


def test_the_typed_exploration_roll_places_a_city_and_the_roll_off_orders_the_month(tmp_path: Path) -> None:
    camp = exploring(tmp_path)
    assert camp.state["stage"]["title"] == "Year 1, month 3: orders"
    code, out, err = resolve_with(camp.folder, DICE)
    assert code == 0 and "3 typed roll(s), by GM Game master" in out, err
    state = RULESET.load_state(Campaign(camp.folder).state["game"])
    assert state.tiles["T21"].settlement == "city" and state.armies["RED1"].tile == "T21"
    assert state.order == ["red", "blue"]                    # tied on armies: the higher roll first (MK-POR)
    assert [(r["purpose"], r["faces"]) for r in rolls(camp.folder, 3)] == [
        ("exploration of T21 by RED1", [5, 5]), ("player order roll-off (1 army): blue", [3]),
        ("player order roll-off (1 army): red", [5])]
    report = (camp.history(3) / "orders-orders.md").read_text()
    assert "T21 explored, 2D6 = 5+5 = 10: a city, controlled by Red Realm; RED1 enters" in report
    assert dice_lines(report)[0] == "- exploration of T21 by RED1: 2D6 = 5+5 = 10 (typed by GM Game master)"
    code, out, _ = pbem("verify-dice", str(camp.folder), "3")
    assert code == 0 and "TYPED: roll 0 (exploration of T21 by RED1): [5, 5], typed by GM Game master" in out
    assert "3 typed at the table (by GM Game master), not derived from the secret" in out


def test_a_total_typed_for_two_dice_is_refused_with_its_line(tmp_path: Path) -> None:
    camp = exploring(tmp_path)
    before = files(camp.folder)
    code, _, err = resolve_with(camp.folder, DICE.replace("5+5", "10"))
    assert code == 1 and "line 1 `exploration of T21 by RED1: 10` for `exploration of T21 by RED1`: " \
                         "1 value for 2D6: give one per die, like `3+4`" in err
    assert files(camp.folder) == before
