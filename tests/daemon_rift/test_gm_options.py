"""The rule options that hand a decision to the GM or open a further battle window.

`movement.multiway_tie = "gm"` (DR-MOV-10), `retreat.collision = "gm"` (DR-RET-10),
`rolloff.loser_without_retreat = "gm_places"` (DR-ROL-11) stop the resolution with a
question (GMDecisionNeeded) and finish it from the answer; `battle.dependent_contest =
"second_window"` (DR-MOV-27) fights a dependent contest in a further battle window.
"""

from __future__ import annotations

import pytest

from pbem.kit.dice import ReplayDice, ScriptedDice
from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.daemon_rift.aftermath import (
    SecondWindowNeeded,
    finish_turn_moves,
    step_b,
)
from pbem.rulesets.daemon_rift.model import BattleResult
from pbem.rulesets.daemon_rift.movement import (
    ROLLOFF,
    TABLETOP,
    dependent_battle,
    step_a,
)
from tests.daemon_rift.conftest import build_map, build_state, rules_with
from tests.daemon_rift.helpers_movement import effective, submitted_for

GM_TIE = rules_with(movement={"multiway_tie": "gm"})
THREE_INTO_T5 = {"R-1": "M T5", "B-1": "M T5", "G-1": "M T5"}


def _step_a(tokens: dict[str, str], orders: dict[str, str], rules, decisions=None, dice=()):  # type: ignore[no-untyped-def]
    state, gmap = build_state(tokens), build_map()
    eff = effective(state, orders)
    submitted = submitted_for(state, eff)
    moved = step_a(state, gmap, rules, eff, submitted, ScriptedDice(dice), decisions)
    return state, gmap, eff, submitted, moved


# --- movement.multiway_tie = "gm" ---------------------------------------------------------

def test_dr_mov_10_gm_option_asks_the_gm_with_every_tied_token() -> None:
    with pytest.raises(GMDecisionNeeded) as asked:
        _step_a({"R-1": "T4", "B-1": "T6", "G-1": "T8"}, THREE_INTO_T5, GM_TIE)
    assert asked.value.key == "tie-T5"
    assert asked.value.options == ["R-1", "B-1", "G-1", "standoff"]
    assert "3 sides tie at T5" in asked.value.question


def test_dr_mov_10_gm_names_the_winner_who_enters_and_the_others_fail() -> None:
    _state, _gmap, _, _, moved = _step_a({"R-1": "T4", "B-1": "T6", "G-1": "T8"}, THREE_INTO_T5, GM_TIE,
                                       decisions={"tie-T5": "B-1"})
    contest = next(c for c in moved.contests if c.territory == "T5")
    assert (contest.outcome, contest.winner) == ("occupied", "B-1")
    assert moved.fates == {"R-1": "failed", "B-1": "entered", "G-1": "failed"}
    assert "T5" not in moved.standoffs and moved.battles == []


def test_dr_mov_10_gm_winner_entrant_dislodges_the_defender() -> None:
    tokens = {"R-1": "T5", "B-1": "T6", "G-1": "T8"}
    orders = {"B-1": "M T5", "G-1": "M T5"}
    _, _, _, _, moved = _step_a(tokens, orders, GM_TIE, decisions={"tie-T5": "G-1"})
    assert moved.fates["R-1"] == "dislodged" and moved.fates["G-1"] == "entered"
    _, _, _, _, moved = _step_a(tokens, orders, GM_TIE, decisions={"tie-T5": "R-1"})
    assert moved.fates == {"R-1": "stays", "B-1": "failed", "G-1": "failed"}


def test_dr_mov_10_gm_standoff_answer_is_a_standoff() -> None:
    _, _, _, _, moved = _step_a({"R-1": "T4", "B-1": "T6", "G-1": "T8"}, THREE_INTO_T5, GM_TIE,
                                decisions={"tie-T5": "standoff"})
    assert "T5" in moved.standoffs and set(moved.fates.values()) == {"failed"}


# --- retreat.collision = "gm" ------------------------------------------------------------

def _collision(rules, decisions=None):  # type: ignore[no-untyped-def]
    """SC-14 variant C: B-1 and B-2 both can only retreat to T7."""
    edges = [("S1", "A1"), ("S2", "A2"), ("A1", "T7"), ("A2", "T7"), ("P1", "A1"), ("P2", "A2")]
    gmap = build_map(edges=edges, extra=["T1", "T2", "T4", "T6", "T8", "T9"], special=("S1", "S2"), objective="T7")
    state = build_state({"R-1": "S1", "R-2": "P1", "R-3": "S2", "R-D1": "P2", "B-1": "A1", "B-2": "A2"})
    eff = effective(state, {"R-1": "M A1", "R-2": "S R-1 S1-A1", "R-3": "M A2", "R-D1": "S R-3 S2-A2"})
    submitted = submitted_for(state, eff)
    dice = ScriptedDice()
    moved = step_a(state, gmap, rules, eff, submitted, dice)
    after = step_b(state, gmap, rules, moved, {}, dice, submitted)
    facts = finish_turn_moves(state, gmap, rules, moved, after, {}, decisions)
    return state, facts


def test_dr_ret_10_collision_gm_option_asks_which_token_goes_there() -> None:
    with pytest.raises(GMDecisionNeeded) as asked:
        _collision(rules_with(retreat={"collision": "gm"}))
    assert asked.value.key == "collision-T7" and asked.value.options == ["B-1", "B-2", "none"]


def test_dr_ret_10_collision_gm_keeps_the_named_token_and_destroys_the_other() -> None:
    state, facts = _collision(rules_with(retreat={"collision": "gm"}), {"collision-T7": "B-2"})
    assert state.tokens["B-2"].territory == "T7" and "B-1" not in state.tokens
    assert [(e.token, e.cause) for e in facts.eliminated] == [("B-1", "collision")]
    state, facts = _collision(rules_with(retreat={"collision": "gm"}), {"collision-T7": "none"})
    assert {"B-1", "B-2"}.isdisjoint(state.tokens)


# --- rolloff.loser_without_retreat = "gm_places" -----------------------------------------

def _boxed_rolloff(rules, decisions=None):  # type: ignore[no-untyped-def]
    """B-1 in T6 loses a roll-off to R-1 and has no allowed retreat (every neighbour taken)."""
    tokens = {"R-1": "T5", "R-2": "T3", "R-3": "T1", "B-1": "T6", "B-2": "T9"}
    state, gmap = build_state(tokens, lists={"R-1": {"approved": False}}), build_map()
    eff = effective(state, {"R-1": "M T6"})
    submitted = submitted_for(state, eff)
    dice = ScriptedDice([1])                                      # Blue, favoured on 4+, loses
    moved = step_a(state, gmap, rules, eff, submitted, dice)
    assert moved.battles[0].kind == ROLLOFF and moved.battles[0].winner == "R"
    after = step_b(state, gmap, rules, moved, {}, dice, submitted)
    return state, after, finish_turn_moves(state, gmap, rules, moved, after, {}, decisions)


def test_dr_rol_11_gm_places_option_asks_for_an_empty_territory() -> None:
    rules = rules_with(rolloff={"loser_without_retreat": "gm_places"},
                       lists={"missing_list_battle": "rolloff"})
    with pytest.raises(GMDecisionNeeded) as asked:
        _boxed_rolloff(rules)
    assert asked.value.key == "place-B-1"
    assert "T2" in asked.value.options and "T6" not in asked.value.options and asked.value.options[-1] == "destroy"


def test_dr_rol_11_gm_places_the_loser_or_destroys_it() -> None:
    rules = rules_with(rolloff={"loser_without_retreat": "gm_places"},
                       lists={"missing_list_battle": "rolloff"})
    state, after, _ = _boxed_rolloff(rules, {"place-B-1": "T8"})
    assert after.retreats[0].how == "gm" and state.tokens["B-1"].territory == "T8"
    state, _, facts = _boxed_rolloff(rules, {"place-B-1": "destroy"})
    assert "B-1" not in state.tokens and facts.eliminated[0].cause == "no-retreat"


# --- battle.dependent_contest = "second_window" --------------------------------------------

SECOND = rules_with(battle={"dependent_contest": "second_window"})
SWAP_AND_TWO = {"R-1": "T5", "B-1": "T6", "G-1": "T2", "Y-1": "T4"}
SWAP_ORDERS = {"R-1": "M T6", "B-1": "M T5", "G-1": "M T5", "Y-1": "M T5"}


def test_dr_mov_27_second_window_dependent_battle_between_fresh_tokens() -> None:
    """Red wins the swap, so T5 is left to G-1 and Y-1: a tabletop battle in a further window."""
    state, gmap, eff, submitted, moved = _step_a(SWAP_AND_TWO, SWAP_ORDERS, SECOND, dice=[1, 2])
    first = ScriptedDice([5])
    with pytest.raises(SecondWindowNeeded) as need:
        step_b(state, gmap, SECOND, moved, {1: BattleResult(1, "R", massacred=True)}, first, submitted)
    assert need.value.territory == "T5" and [s.token for s in need.value.tops] == ["G-1", "Y-1"]
    state = build_state(SWAP_AND_TWO)   # Step B's changes are dropped; it runs again later
    battle = dependent_battle(state, gmap, SECOND, eff, submitted, moved, "T5", need.value.tops, ScriptedDice())
    assert (battle.number, battle.kind, battle.follows) == (2, TABLETOP, "T5")
    assert [s.champion for s in battle.sides] == ["G-1", "Y-1"] and battle.terrain == "clear"
    replay = ReplayDice(first.log, ScriptedDice([1]))
    after = step_b(state, gmap, SECOND, moved, {1: BattleResult(1, "R", massacred=True), 2: BattleResult(2, "Y")},
                   replay, submitted)
    assert [o.massacre_die for o in after.outcomes] == [5, 0]           # the first window's die, replayed
    assert after.fates["Y-1"] == "entered" and after.fates["G-1"] == "returned"
    assert replay.fresh.log == []
    dep = after.dependents[0]
    assert (dep.outcome, dep.winner) == ("battle", "Y-1")


def test_dr_mov_26_second_window_token_that_already_fought_rolls_off() -> None:
    """Blue wins the swap and enters T5 against G-1: B-1 fought already, so a roll-off."""
    tokens = {"R-1": "T5", "B-1": "T6", "G-1": "T2"}
    orders = {"R-1": "M T6", "B-1": "M T5", "G-1": "M T5"}
    state, gmap, eff, submitted, moved = _step_a(tokens, orders, SECOND, dice=[1])
    with pytest.raises(SecondWindowNeeded) as need:
        step_b(state, gmap, SECOND, moved, {1: BattleResult(1, "B")}, ScriptedDice(), submitted)
    state = build_state(tokens)
    battle = dependent_battle(state, gmap, SECOND, eff, submitted, moved, "T5", need.value.tops, ScriptedDice([6]))
    assert battle.kind == ROLLOFF and "already fought" in battle.why
    after = step_b(state, gmap, SECOND, moved, {1: BattleResult(1, "B")}, ScriptedDice(), submitted)
    assert after.dependents[0].outcome == "rolloff"


def test_dr_mov_27_second_window_draw_is_a_standoff() -> None:
    state, gmap, eff, submitted, moved = _step_a(SWAP_AND_TWO, SWAP_ORDERS, SECOND, dice=[1, 2])
    with pytest.raises(SecondWindowNeeded) as need:
        step_b(state, gmap, SECOND, moved, {1: BattleResult(1, "R")}, ScriptedDice(), submitted)
    state = build_state(SWAP_AND_TWO)
    dependent_battle(state, gmap, SECOND, eff, submitted, moved, "T5", need.value.tops, ScriptedDice())
    after = step_b(state, gmap, SECOND, moved, {1: BattleResult(1, "R"), 2: BattleResult(2, "")},
                   ScriptedDice(), submitted)
    assert after.dependents[0].outcome == "standoff" and "T5" in after.standoffs
    assert after.fates["G-1"] == "returned" and after.fates["Y-1"] == "returned"


def test_replay_dice_give_back_earlier_rolls_then_fresh_ones() -> None:
    first = ScriptedDice([3, 4, 5])
    first.d6("massacre"), first.roll("losses", 2)
    fresh = ScriptedDice([6])
    replay = ReplayDice(first.log, fresh)
    assert replay.d6("massacre") == 3
    assert replay.d6("something else") == 6                            # diverged: fresh from here on
    assert [r.purpose for r in fresh.log] == ["something else"]
    assert [r.faces for r in replay.log] == [(3,), (6,)]


# --- lists.missing_list_battle = "gm" ------------------------------------------------------

def test_dr_lst_8_missing_list_battle_gm_option_asks_tabletop_or_rolloff() -> None:
    rules = rules_with(lists={"missing_list_battle": "gm"})
    tokens, orders = {"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"}

    def kind(decisions):  # type: ignore[no-untyped-def]
        state, gmap = build_state(tokens, lists={"R-1": {"approved": False}}), build_map()
        eff = effective(state, orders)
        return step_a(state, gmap, rules, eff, submitted_for(state, eff), ScriptedDice([4, 4]), decisions).battles[0]

    with pytest.raises(GMDecisionNeeded) as asked:
        kind({})
    assert asked.value.key == "unlisted-1" and asked.value.options == ["tabletop", "rolloff"]
    assert kind({"unlisted-1": "tabletop"}).kind == TABLETOP
    rolled = kind({"unlisted-1": "rolloff"})
    assert rolled.kind == ROLLOFF and rolled.why == "no approved list"


# --- movement.bounce_to = "previous_step" --------------------------------------------------

def _bounce(rules, extra: dict[str, str] | None = None):  # type: ignore[no-untyped-def]
    """R-1 rides T1-T2-T3 and is beaten on strength at T3 (B-1 holds with B-2's support)."""
    state, gmap = build_state({"R-1": "T1", "B-1": "T3", "B-2": "T6", **(extra or {})}), build_map()
    eff = effective(state, {"R-1": "M T2-T3", "B-2": "S B-1"})
    submitted = submitted_for(state, eff)
    dice = ScriptedDice()
    moved = step_a(state, gmap, rules, eff, submitted, dice)
    after = step_b(state, gmap, rules, moved, {}, dice, submitted)
    finish_turn_moves(state, gmap, rules, moved, after, {})
    return state


def test_dr_spd_10_failed_multi_space_move_goes_back_to_its_start_by_default() -> None:
    assert _bounce(rules_with()).tokens["R-1"].territory == "T1"


def test_dr_spd_10_bounce_to_previous_step_option() -> None:
    rules = rules_with(movement={"bounce_to": "previous_step"})
    assert _bounce(rules).tokens["R-1"].territory == "T2"
    blocked = _bounce(rules, {"R-2": "T2"})                       # R-2 holds the previous step
    assert blocked.tokens["R-1"].territory == "T1"
