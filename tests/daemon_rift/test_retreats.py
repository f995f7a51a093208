"""DR-RET: who retreats, where to, tiers, choices, collisions and destruction."""

from __future__ import annotations

from pbem.rulesets.daemon_rift.model import LIST_SHELVED, BattleResult

from .conftest import build_map, build_state, rules_with
from .helpers_movement import Turn

RED = {"T1": "R", "T2": "R", "T4": "R", "T5": "R"}


def test_dr_ret_1_dr_ret_2_failed_entrant_whose_start_was_taken_retreats_from_start() -> None:
    state = build_state({"R-1": "T5", "B-1": "T6", "G-1": "T8"}, control=RED)
    turn = Turn(state, build_map(), {"R-1": "M T6", "G-1": "M T5"})
    after = turn.results(BattleResult(1, "B"))
    (r,) = after.retreats
    assert (r.token, r.start, r.tier, r.options, r.beaten_in) == ("R-1", "T5", 1, ["T2", "T4"], "battle")


def test_dr_ret_3_victor_displacer_standoff_and_defensive_exclusions() -> None:
    state = build_state({"R-1": "T5", "B-1": "T6", "G-1": "T8", "G-2": "T2", "B-2": "T3"}, control=RED)
    turn = Turn(state, build_map(), {"R-1": "M T6", "G-1": "M T5", "G-2": "M T1", "B-2": "M T1"})
    after = turn.results(BattleResult(1, ""), BattleResult(2, "B"))
    r = next(x for x in after.retreats if x.token == "R-1")
    assert r.options == ["T4"] and after.standoffs == ["T1"]
    state = build_state({"R-D1": "T5", "B-1": "T6", "B-2": "T4"}, control={"T5": "R", "T2": "R"})
    turn = Turn(state, build_map(), {"B-1": "M T5", "B-2": "S B-1 T6-T5"})
    after = turn.results()
    assert after.retreats[0].options == ["T2"]


def test_dr_ret_4_dr_ret_5_dr_ret_13_tiers() -> None:
    state = build_state({"R-1": "T5", "B-1": "T6", "B-2": "T9"}, control={"T4": "R", "T8": "B"})
    turn = Turn(state, build_map(), {"B-1": "M T5", "B-2": "M T6"})
    after = turn.results(BattleResult(1, "B"))
    assert (after.retreats[0].tier, after.retreats[0].options) == (1, ["T4"])
    state = build_state({"R-1": "T5", "R-2": "T4", "B-1": "T6", "B-2": "T9"}, control={"T4": "R", "T8": "B"})
    turn = Turn(state, build_map(), {"B-1": "M T5", "B-2": "M T6"}, retreats={"R-1": ["T9", "T8", "T2"]})
    after = turn.results(BattleResult(1, "B"))
    r = after.retreats[0]
    assert (r.tier, r.options, r.choice, r.how) == (2, ["T2", "T8"], "T8", "preference")


def test_dr_ret_6_dr_ret_7_dr_ret_9_single_option_moves_and_retreat_claims_nothing() -> None:
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6"}, control={"T6": "B", "T9": "B"})
    turn = Turn(state, build_map(), {"R-1": "M T6", "R-2": "S R-1 T5-T6"})
    facts = turn.finish()
    assert facts.retreated == {"B-1": "T9"} and "B-1" not in facts.entered and "B-1" not in facts.stayed


def open_retreat(**kw: object) -> Turn:
    state = build_state({"R-1": "T5", "B-1": "T6", "B-2": "T9"}, control={"T8": "B"})
    turn = Turn(state, build_map(), {"B-1": "M T5", "B-2": "M T6"}, **kw)  # type: ignore[arg-type]
    turn.results(BattleResult(1, "B"))
    return turn


def test_dr_ret_9_dr_ret_12_open_choice_window_and_auto_pick_nearest_stronghold() -> None:
    turn = open_retreat()
    assert turn.aftermath is not None
    (r,) = turn.aftermath.open
    assert (r.tier, r.options) == (2, ["T2", "T4", "T8"])
    turn.finish()
    assert turn.where()["R-1"] == "T2"
    turn = open_retreat()
    turn.finish({"R-1": "T4"})
    assert turn.where()["R-1"] == "T4"


def test_dr_ret_9_no_order_disband_option() -> None:
    turn = open_retreat(rules=rules_with(retreat={"no_order": "disband"}))
    facts = turn.finish()
    assert "R-1" not in turn.state.tokens and facts.eliminated[0].cause == "disbanded"


def test_dr_ret_8_dr_ret_11_disband_after_lost_battle_credits_winner() -> None:
    turn = open_retreat()
    facts = turn.finish({"R-1": "disband"})
    assert facts.eliminated[0].credited_to == "B" and turn.state.factions["B"].tokens_eliminated == 1


def test_dr_ret_8_destroyed_list_shelved_option() -> None:
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9"})
    turn = Turn(state, build_map(), {"R-1": "M T6", "R-2": "S R-1 T5-T6"},
                rules=rules_with(retreat={"destroyed_list": "shelved"}))
    turn.finish()
    assert turn.state.lists["B-1"].status == LIST_SHELVED


def test_dr_ret_10_collision_never_dislodges() -> None:
    turn = open_retreat()
    facts = turn.finish({"R-1": "T2"})
    assert facts.retreated == {"R-1": "T2"}
