"""The battle window and victory by the catalog's readings: who controls a territory after "both
lose" (A11), a single battle report (SWM-PBM-10), revised action orders (SWM-PBM-11) and when
capitals are counted (A29), each default against the alternative a campaign.toml may choose,
through the rule system's hooks or its steps with fixed dice. A question to the GM is the
engine's GMDecisionNeeded: the stage waits until he answers with DECIDE."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.phases import GMDecisionNeeded
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import rules, turn
from pbem.rulesets.star_wars_miniatures.battle import NONE, Result
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import Battle
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import flow, helpers
from tests.star_wars_miniatures.flow import Game
from tests.star_wars_miniatures.test_flow import (
    REPORT,
    in_economics,
    to_battle,
)

CHART = [19, 3, 16, 9]          # the post-battle dice of REPORT's four troops


def battle_with(rules: dict[str, Any]) -> Game:
    """The flow game at window B (cara attacks alice's fortified T03), its campaign.toml choosing `rules`."""
    game = to_battle()
    clockless = {**rules, "battle": {**flow.NO_CLOCK["battle"], **rules.get("battle", {})}}   # no grace here
    game.settings = flow.settings(rules=clockless)
    return game


def lines(game: Game) -> list[str]:
    return list(game.results[-1].reports[0].context["swm"]["lines"])


# -- A11: control after "both lose" ---------------------------------------------------------
def _both_lose(book: RuleBook, cat: Catalog, decisions: dict[str, str] | None = None) -> tuple[World, list[Any]]:
    st = helpers.state()
    helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x5", "Stormtrooper x8"])
    helpers.squad(st, cat, "R1", "bob", "A2", ["Rebel Trooper x15"])
    world = World(st, helpers.test_map(), cat, book)
    out = bt.apply(world, Battle("B1-2-1", "A2", ["bob"], ["R1"], ["S1"]), Result(NONE), ScriptedDice([]), decisions)
    return world, out


@pytest.mark.clause("SWM-PBC-14")
@pytest.mark.clause("SWM-BAT-21")
def test_swm_pbc_14_a11_after_both_lose_the_controller_keeps_the_empty_territory(cat: Catalog,
                                                                                   book: RuleBook) -> None:
    world, out = _both_lose(book, cat)
    assert world.state.owner("A2") == "alice" and out == [("R1", "A2"), ("S1", "A2")]
    assert world.state.log == ["Battle B1-2-1: both sides were wiped out together; nobody wins and control stays."]


def test_swm_pbc_14_a11_no_winner_control_gm_asks_the_gm_who_controls_it(cat: Catalog) -> None:
    book = helpers.chosen("battle", "no_winner_control", "gm")
    with pytest.raises(GMDecisionNeeded) as asked:
        _both_lose(book, cat)
    assert (asked.value.key, asked.value.options) == ("control_B1-2-1", ["alice", "bob"])
    assert asked.value.question == ("both sides of battle B1-2-1 in A2 were wiped out together and the territory "
                                    "is left empty: who controls it now (alice did)?")
    world, out = _both_lose(book, cat, {"control_B1-2-1": "bob"})
    assert world.state.owner("A2") == "bob" and out == [("R1", "A2"), ("S1", "A2")]   # both still retreat
    assert world.state.log == ["Battle B1-2-1: both sides were wiped out together; nobody wins, and the GM gives "
                               "A2 to bob (A11)."]


def test_swm_pbc_14_a11_the_battle_window_waits_for_the_gms_answer_then_both_sides_retreat() -> None:
    game = battle_with({"battle": {"no_winner_control": "gm"}})
    game.send("alice", "WINNER B1-2-1 none")
    game.send("cara", "WINNER B1-2-1 none")
    with pytest.raises(GMDecisionNeeded) as asked:
        game.resolve(ScriptedDice([]))
    assert (asked.value.key, asked.value.options) == ("control_B1-2-1", ["alice", "bob", "cara"])
    assert game.state.window == "battle" and game.state.owner("T03") == "alice"     # nothing stored yet
    game.resolve(ScriptedDice([]), {"control_B1-2-1": "cara"})
    assert lines(game)[:3] == ["Battle B1-2-1: both sides were wiped out together; nobody wins, and the GM gives "
                               "T03 to Cara (A11).", "A1 retreats from T03 to T01.", "C3 retreats from T03 to T21."]
    assert game.state.owner("T03") == "cara" and game.state.window == "initiative"


# -- SWM-PBM-10: a single report ------------------------------------------------------------
@pytest.mark.clause("SWM-PBM-10")
def test_swm_pbm_10_a_single_report_is_applied_at_the_deadline() -> None:
    game = battle_with({})
    game.send("alice", REPORT)
    game.resolve(ScriptedDice(CHART))
    assert lines(game)[0] == "Post-battle chart t28 Mandalorian Soldier: d20 19 = 19, survives."
    assert "Battle B1-2-1: the defender wins." in lines(game) and game.state.owner("T03") == "alice"


def test_swm_pbm_10_single_report_gm_asks_the_gm_who_won() -> None:
    game = battle_with({"battle": {"single_report": "gm"}})
    game.send("alice", REPORT)
    with pytest.raises(GMDecisionNeeded) as asked:
        game.resolve(ScriptedDice(CHART))
    assert (asked.value.key, asked.value.options) == ("battle_B1-2-1", ["attacker", "defender", "none"])
    assert asked.value.question == ("only the defender reported battle B1-2-1 (the defender wins, by that report): "
                                    "who won?")
    game.resolve(ScriptedDice(CHART), {"battle_B1-2-1": "defender"})          # he agrees: the kills stand
    assert lines(game)[0] == "Post-battle chart t28 Mandalorian Soldier: d20 19 = 19, survives."
    assert game.state.owner("T03") == "alice"


def test_swm_pbm_10_single_report_gm_the_gms_other_winner_drops_the_reports_kills() -> None:
    game = battle_with({"battle": {"single_report": "gm"}})
    game.send("alice", REPORT)
    dice = ScriptedDice([])
    game.resolve(dice, {"battle_B1-2-1": "attacker"})
    assert dice.log == [] and game.state.owner("T03") == "cara"
    assert "Battle B1-2-1: the attacker wins." in lines(game)


# -- SWM-PBM-11: revising action orders in a battle window ----------------------------------
def _slot_one_battle(rules: dict[str, Any]) -> Game:
    """Turn 1: alice (slot 1) attacks cara's T21 and opens B1-1-1; bob + cara act in slot 2."""
    game = in_economics(rules)
    game.resolve(ScriptedDice([]))
    game.send("alice", "MOVE A1 T21\nSTRATEGIC A1 TO T04")
    game.send("cara", "MOVE C3 T03")
    game.resolve(ScriptedDice([]))
    assert [b.id for b in game.state.battles] == ["B1-1-1"] and game.state.slot == 0
    return game


@pytest.mark.clause("SWM-PBM-11")
def test_swm_pbm_11_the_acting_side_replaces_its_strategic_order_with_its_report() -> None:
    game = _slot_one_battle({})
    parsed = game.send("alice", "WINNER B1-1-1 defender\nSTRATEGIC A1 TO T02\nMOVE A1 T04")
    assert [str(p) for p in parsed.problems] == [
        "line 3: your side's slot has started and its moves are made; only STRATEGIC may still be replaced"]
    game.send("cara", "WINNER B1-1-1 defender\nMOVE C3 T22")
    game.resolve(ScriptedDice([]))
    assert lines(game) == ["Battle B1-1-1: the defender wins.", "A1 retreats from T21 to T03.",
                           "Strategic move: A1 from T03 to T02.", "Cara: C3 moves to T22."]


def test_swm_pbm_11_revise_until_slot_false_keeps_the_orders_of_window_a() -> None:
    game = _slot_one_battle({"action": {"revise_until_slot": False}})
    game.send("alice", "WINNER B1-1-1 defender\nSTRATEGIC A1 TO T02")
    parsed = game.send("cara", "WINNER B1-1-1 defender\nMOVE C3 T22")
    assert [str(p) for p in parsed.problems] == [
        "line 2: action orders are fixed when the action window closes in this campaign "
        "(action.revise_until_slot = false); yours stand as sent"]
    game.resolve(ScriptedDice([]))
    assert lines(game)[-2:] == ["Cara: C3 moves to T03.",
                                "T03 passes to Cara: uncontested capture (no battle, no dice)."]
    assert game.state.squads["C3"].place == "T03"


# -- A29: when capitals are counted ---------------------------------------------------------
def _two_capitals(book: RuleBook, cat: Catalog) -> World:
    """Bob (slot 1) takes alice's empty capital A1 and moves R1 back out; alice (slot 2) walks back
    in. Two capitals win here."""
    st = helpers.state()
    st.sides = [["bob"], ["alice"], ["cara"]]
    st.lands["A3"].owner = "bob"
    helpers.squad(st, cat, "R1", "bob", "A3", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x5", "Stormtrooper x8"])
    world = World(st, helpers.test_map(), cat, book)
    orders = {"bob": ["MOVE R1 A1", "STRATEGIC R1 TO A3"], "alice": ["MOVE S1 A1"]}
    turn.action_phase(world, orders, ScriptedDice([]), {})
    return world


@pytest.mark.clause("SWM-WIN-4")
def test_swm_win_4_a29_capitals_held_only_within_the_phase_do_not_win(cat: Catalog) -> None:
    world = _two_capitals(rules.load({"victory": {"capitals_needed": 2}}), cat)
    st = world.state
    assert st.winners == [] and st.window == "initiative" and st.owner("A1") == "alice"


def test_swm_win_4_a29_capitals_check_immediate_wins_the_moment_they_are_held(cat: Catalog) -> None:
    world = _two_capitals(rules.load({"victory": {"capitals_needed": 2, "capitals_check": "immediate"}}), cat)
    st = world.state
    assert st.winners == ["bob"] and st.window == "over" and st.owner("A1") == "bob"
    assert st.squads["R1"].place == "A1" and st.squads["S1"].place == "A2"     # nothing more is played
    assert st.log[-2:] == ["A1 passes to bob: uncontested capture (no battle, no dice).",
                           "Victory: bob wins the campaign by holding 2 capitals."]


def test_swm_win_4_a29_immediate_counts_after_each_battle_result() -> None:
    game = battle_with({"victory": {"capitals_needed": 3, "capitals_check": "immediate"}})
    game.send("alice", "WINNER B1-2-1 attacker")
    game.send("cara", "WINNER B1-2-1 attacker")
    game.resolve(ScriptedDice([]))
    assert game.state.winners == ["bob", "cara"] and game.state.window == "over"
    assert lines(game)[-2:] == ["Battle B1-2-1: the attacker wins.",
                                "Victory: Bob and Cara win the campaign by holding 3 capitals."]
    assert game.state.squads["A1"].place == "T03"           # the slot's retreats are never played
