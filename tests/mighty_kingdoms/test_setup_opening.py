"""The campaign's opening: created without dice, the first stage rolls the initial player order
(MK-SET-1) and publishes it with the map before window S opens."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from tests.mighty_kingdoms.helpers_setup import campaign, ctx, resolve, state


@pytest.mark.clause("MK-SET-1")
def test_mk_set_1_the_initial_order_is_rolled_by_d6_roll_off_before_window_s_opens(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    opening = RULESET.stage(ctx(camp))
    assert (opening.kind, opening.ready, opening.owing, opening.turn) == ("opening", True, (), 0)
    assert state(camp).order == []
    dice = ScriptedDice([2, 5, 5, 3, 6])        # a 2, b 5, c 5; b and c re-roll: 3 and 6
    res = resolve(camp, {}, dice)
    assert state(camp).order == ["c", "b", "a"]
    assert [r.purpose for r in dice.log] == ["initial player order: a", "initial player order: b",
                                             "initial player order: c", "initial player order: b",
                                             "initial player order: c"]
    lines = res.reports[0].context["mk"]["sections"][0].lines
    assert lines[0] == "initial player order: Red Realm D6 = 2, Blue March D6 = 5, Green Hold D6 = 5"
    assert lines[1] == "initial player order: Blue March D6 = 3, Green Hold D6 = 6"
    assert "Green Hold, Blue March, Red Realm" in lines[2]
    window_s = RULESET.stage(ctx(camp))
    assert (window_s.kind, window_s.owing, window_s.ready, res.turn_finished) == ("setup", ("c", "b", "a"), False,
                                                                                   False)


@pytest.mark.clause("MK-SET-1")
def test_mk_set_1_the_report_that_opens_window_s_lists_the_starting_tiles(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    res = resolve(camp, {}, ScriptedDice([1, 2, 3]))
    setup = res.reports[0].context["mk"]["setup"]
    assert [s["id"] for s in setup["starts"]] == ["T7", "T10", "T28", "T34", "T52", "T55"]
    assert setup["placed"] is False and all(s["held"] == "" for s in setup["starts"])


@pytest.mark.clause("MK-GEN-14")
def test_mk_gen_14_every_roll_off_die_is_logged_with_its_purpose(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    dice = ScriptedDice([4, 4, 4, 1, 2, 3])
    resolve(camp, {}, dice)
    assert all(r.purpose.startswith("initial player order: ") and r.sides == 6 for r in dice.log)
    assert state(camp).order == ["c", "b", "a"]


def test_lines_sent_while_the_order_is_rolled_are_refused_with_the_reason(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    person = camp.settings.player("a")
    assert person is not None
    parsed = RULESET.parse(ctx(camp), person, [(1, "START T7")])
    assert parsed.payload == {} and "being rolled" in parsed.problems[0].reason
