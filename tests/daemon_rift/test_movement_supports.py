"""DR-SUP: support strength, cuts by attack and by dislodgement, the lone-token rule."""

from __future__ import annotations

from .conftest import build_map, build_state, rules_with
from .helpers_movement import Turn


def run(tokens: dict[str, str], orders: dict[str, str], **kw: object) -> Turn:
    return Turn(build_state(tokens), build_map(), orders, **kw)  # type: ignore[arg-type]


def cut_of(turn: Turn) -> dict[str, bool]:
    return {s.supporter: s.cut for s in turn.movement.supports}


def test_dr_sup_1_supporter_adds_one_and_stays_put() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "B-1": "T5"}, {"R-1": "M T5", "R-2": "S R-1 T4-T5"})
    facts = turn.finish()
    assert facts.entered == {"R-1": "T5"} and "R-2" in facts.stayed and turn.where()["R-2"] == "T2"


def test_dr_sup_2_foreign_support_void_by_default_and_never_dislodges_own() -> None:
    turn = run({"R-1": "T4", "B-2": "T2", "G-1": "T5"}, {"R-1": "M T5", "B-2": "S R-1 T4-T5"})
    assert not turn.movement.supports[0].valid and turn.contest("T5").outcome == "battle"
    rules = rules_with(support={"allow_foreign": True})
    turn = run({"R-1": "T4", "B-2": "T2", "B-1": "T5"}, {"R-1": "M T5", "B-2": "S R-1 T4-T5"}, rules=rules)
    assert turn.contest("T5").outcome == "battle"
    turn = run({"R-1": "T4", "B-2": "T2", "G-1": "T5"}, {"R-1": "M T5", "B-2": "S R-1 T4-T5"}, rules=rules)
    assert turn.contest("T5").outcome == "occupied"


def test_dr_sup_3_any_foreign_attack_cuts_whatever_its_outcome() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "R-3": "T1", "B-1": "T5", "B-2": "T3"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "R-3": "S R-2", "B-2": "M T2"})
    assert cut_of(turn)["R-2"] and turn.contest("T2").outcome == "held"


def test_dr_sup_4_attack_from_the_supported_destination_does_not_cut() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "B-1": "T5"}, {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T2"})
    assert not cut_of(turn)["R-2"] and turn.contest("T5").outcome == "occupied"


def test_dr_sup_5_own_moves_stopped_moves_pass_through_and_invalid_do_not_cut_defensive_does() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "R-3": "T1", "B-1": "T5"}, {"R-1": "M T5", "R-2": "S R-1 T4-T5",
                                                                     "R-3": "M T2"})
    assert not cut_of(turn)["R-2"]
    turn = run({"R-1": "T4", "R-2": "T2", "B-2": "T3", "B-1": "T5"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-2": "M T2"}, stopped=["B-2"])
    assert not cut_of(turn)["R-2"]
    state = build_state({"R-1": "T4", "R-2": "T2", "B-2": "T3", "B-1": "T5"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "R-2": "S R-1 T4-T5"})
    assert not cut_of(turn)["R-2"]
    turn = run({"R-1": "T4", "R-2": "T2", "B-D1": "T3", "B-1": "T5"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-D1": "M T2"}, dice=[4])
    assert cut_of(turn)["R-2"]


def test_dr_sup_5_multi_space_pass_through_does_not_cut() -> None:
    gmap = build_map(roads=[("T3", "T2"), ("T2", "T1")])
    state = build_state({"R-1": "T4", "R-2": "T2", "B-2": "T3", "B-1": "T5"})
    turn = Turn(state, gmap, {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-2": "M T2-T1"})
    assert not cut_of(turn)["R-2"]


def test_dr_sup_6_supporter_dislodged_on_strength_loses_support() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "B-1": "T5", "B-2": "T3", "B-3": "T1"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-2": "M T2", "B-3": "S B-2 T3-T2"})
    assert cut_of(turn)["R-2"] and turn.contest("T5").outcome == "battle"


def test_dr_sup_6_dislodged_by_move_from_supported_destination_still_cuts() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "B-1": "T5", "B-3": "T1", "B-4": "T6"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T2", "B-3": "S B-1 T5-T2"})
    assert turn.movement.supports[0].reason == "cut by dislodgement"
    assert turn.contest("T2").outcome == "occupied"


def test_dr_sup_7_cut_supporter_defends_with_its_hold_supports() -> None:
    turn = run({"R-1": "T4", "R-2": "T2", "R-3": "T1", "B-1": "T5", "B-2": "T3"},
               {"R-1": "M T5", "R-2": "S R-1 T4-T5", "R-3": "S R-2", "B-2": "M T2"})
    assert turn.contest("T2").sides[0].strength == 2


def test_dr_sup_8_dr_sup_9_mutual_support_cut_on_one_side_only() -> None:
    turn = run({"R-1": "T5", "B-1": "T6", "B-2": "T9"}, {"R-1": "M T6", "B-1": "S B-2", "B-2": "S B-1"})
    assert cut_of(turn) == {"B-1": True, "B-2": False}
    turn = run({"R-1": "T5", "R-2": "T8", "B-1": "T6", "B-2": "T9"},
               {"R-1": "M T6", "R-2": "M T9", "B-1": "S B-2", "B-2": "S B-1"})
    assert cut_of(turn) == {"B-1": True, "B-2": True} and len(turn.movement.battles) == 2


def test_dr_sup_10_dr_sup_11_lone_token_variant_second_attacker_cuts_standoff_at_supporter() -> None:
    turn = run({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T2"},
               {"R-1": "M T6", "R-2": "S R-1 T5-T6", "B-1": "M T3", "B-2": "M T3"})
    assert cut_of(turn)["R-2"]
    assert turn.contest("T6").outcome == "occupied" and turn.contest("T3").outcome == "standoff"
    after = turn.results()
    assert after.fates["B-1"] == "retreat" and after.fates["B-2"] == "returned"


def test_dr_sup_10_lone_token_swap_with_supported_mover_loses_on_strength() -> None:
    turn = run({"R-1": "T5", "R-2": "T3", "B-1": "T6"}, {"R-1": "M T6", "R-2": "S R-1 T5-T6", "B-1": "M T5"})
    assert turn.movement.battles == [] and turn.movement.fates["B-1"] == "dislodged"


def test_dr_sup_12_defensive_token_supports_outside_empire() -> None:
    state = build_state({"B-D1": "T6", "B-2": "T8", "R-1": "T5"}, control={"T6": "B"})
    turn = Turn(state, build_map(), {"B-D1": "S B-2 T8-T5", "B-2": "M T5", "R-1": "H"})
    assert turn.contest("T5").outcome == "occupied"


def test_dr_sup_13_supporter_is_not_a_hold_for_repairs() -> None:
    turn = run({"R-1": "T4", "R-2": "T2"}, {"R-1": "H", "R-2": "S R-1"})
    facts = turn.finish()
    assert facts.held == ["R-1"] and facts.default_held == []
