"""Acceptance scenarios SC-1 to SC-9, SC-14 and SC-15: movement, battle and retreat parts."""

from __future__ import annotations

from pbem.kit import tomlio
from pbem.rulesets.daemon_rift.aftermath import Aftermath
from pbem.rulesets.daemon_rift.model import LIST_ACTIVE, LIST_ELIMINATED, BattleResult, PairBattle
from pbem.rulesets.daemon_rift.movement import Movement

from .conftest import GRID_EDGES, build_map, build_state
from .helpers_movement import Turn

RED3 = {"T1": "R", "T2": "R", "T4": "R"}
BLUE3 = {"T6": "B", "T8": "B", "T9": "B"}


def roundtrip(turn: Turn) -> None:
    assert tomlio.from_data(Movement, tomlio.to_data(turn.movement)) == turn.movement
    if turn.aftermath is not None:
        assert tomlio.from_data(Aftermath, tomlio.to_data(turn.aftermath)) == turn.aftermath


# --- SC-1 ---------------------------------------------------------------------------

def sc1() -> Turn:
    state = build_state({"R-1": "T4", "B-1": "T6"}, control={**RED3, **BLUE3},
                        lists={"R-1": {"battles": 0}, "B-1": {"battles": 0}})
    return Turn(state, build_map(), {"R-1": "M T5", "B-1": "M T5"})


def test_sc_1_dr_mov_6_dr_lst_6_unsupported_contest_is_tabletop_battle_with_briefing() -> None:
    turn = sc1()
    (battle,) = turn.movement.battles
    assert (battle.number, battle.territory, battle.kind) == (1, "T5", "tabletop")
    assert (battle.terrain, battle.pieces_min, battle.pieces_max, battle.required) == ("clear", 4, 4, {})
    assert battle.home_faction == "" and battle.concealed
    assert [s.points for s in battle.sides] == [2250, 2250]
    roundtrip(turn)


def test_sc_1_dr_mov_7_dr_mov_12_red_wins_blue_goes_back_pair_count_and_defeat() -> None:
    turn = sc1()
    turn.results(BattleResult(1, "R"))
    facts = turn.finish()
    assert turn.where() == {"R-1": "T5", "B-1": "T6"}
    assert facts.entered == {"R-1": "T5"} and facts.stayed == ["B-1"]
    assert turn.state.battles_fought == [PairBattle(3, ["B", "R"])]
    assert turn.state.factions["R"].defeated == ["B"]
    assert turn.state.lists["R-1"].battles == 1 and turn.state.lists["B-1"].battles == 1
    roundtrip(turn)


def test_sc_1_dr_mov_8_draw_both_go_back_nobody_defeated() -> None:
    turn = sc1()
    turn.results(BattleResult(1, ""))
    turn.finish()
    assert turn.where() == {"R-1": "T4", "B-1": "T6"}
    assert len(turn.state.battles_fought) == 1
    assert turn.state.factions["R"].defeated == [] and turn.state.factions["B"].defeated == []


# --- SC-2 ---------------------------------------------------------------------------

def sc2(b2: str = "T8") -> Turn:
    m = build_map(edges=[*GRID_EDGES, ("T9", "X")])
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": b2},
                        control={"T1": "R", "T2": "R", "T3": "R", "T4": "R", "T5": "R",
                                 "T6": "B", "T7": "B", "T8": "B", "T9": "B", "X": "B"})
    return Turn(state, m, {"R-1": "M T6", "R-2": "S R-1 T5-T6", "B-1": "H", "B-2": "H"})


def test_sc_2_dr_mov_5_dr_sup_1_two_against_one_no_battle_tier_one_retreat() -> None:
    turn = sc2()
    assert turn.movement.battles == []
    contest = turn.contest("T6")
    assert contest.outcome == "occupied" and contest.winner == "R-1"
    after = turn.results()
    (retreat,) = after.retreats
    assert (retreat.token, retreat.tier, retreat.options, retreat.choice, retreat.how) == (
        "B-1", 1, ["T9"], "T9", "single"
    )
    facts = turn.finish()
    assert facts.retreated == {"B-1": "T9"} and facts.entered == {"R-1": "T6"}
    assert turn.state.battles_fought == [] and turn.state.factions["R"].defeated == []
    roundtrip(turn)


def test_sc_2_variant_dr_ret_6_dr_ret_8_no_retreat_destroyed_without_credit() -> None:
    turn = sc2(b2="T9")
    after = turn.results()
    assert after.retreats[0].how == "destroyed" and after.retreats[0].options == []
    facts = turn.finish()
    assert "B-1" not in turn.state.tokens
    assert turn.state.lists["B-1"].status == LIST_ELIMINATED
    assert facts.eliminated[0].cause == "no-retreat" and facts.eliminated[0].credited_to == ""
    assert turn.state.factions["R"].tokens_eliminated == 0


# --- SC-3 ---------------------------------------------------------------------------

def test_sc_3_dr_sup_8_dr_sup_9_mutual_support_defends_at_two() -> None:
    state = build_state({"R-1": "T5", "B-1": "T6", "B-2": "T9"})
    turn = Turn(state, build_map(), {"R-1": "M T6", "B-1": "S B-2", "B-2": "S B-1"})
    contest = turn.contest("T6")
    assert contest.outcome == "held" and [s.strength for s in contest.sides] == [2, 1]
    assert {s.supporter: s.cut for s in turn.movement.supports} == {"B-1": True, "B-2": False}
    turn.finish()
    assert turn.where()["R-1"] == "T5"
    assert turn.movement.attacked == ["T6"] and turn.movement.held == []


def test_sc_3_variant_dr_sup_7_dr_home_5_both_cut_two_battles_home_and_stronghold() -> None:
    state = build_state({"R-1": "T5", "R-2": "T8", "B-1": "T6", "B-2": "T9"})
    turn = Turn(state, build_map(), {"R-1": "M T6", "R-2": "M T9", "B-1": "S B-2", "B-2": "S B-1"})
    b1, b2 = turn.movement.battles
    assert (b1.territory, b2.territory) == ("T6", "T9")
    assert b1.kind == b2.kind == "tabletop"
    assert (b1.home_faction, b1.home_stronghold, [s.points for s in b1.sides]) == ("B", False, [2250, 2250])
    assert (b2.home_faction, b2.home_stronghold) == ("B", True)
    assert {s.faction: s.points for s in b2.sides} == {"R": 2250, "B": 2550}
    turn.results(BattleResult(1, "B"), BattleResult(2, "B"))
    assert len(turn.state.battles_fought) == 2


# --- SC-4 ---------------------------------------------------------------------------

def sc4(orders: dict[str, str], extra: dict[str, str] | None = None) -> Turn:
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6", **(extra or {})},
                        control={"T3": "R", "T5": "R", "T6": "B", "T9": "B", "T2": "R"})
    return Turn(state, build_map(), {"R-1": "M T6", "R-2": "S R-1 T5-T6", **orders})


def test_sc_4_dr_sup_4_dr_sup_10_lone_token_fails_and_retreats() -> None:
    turn = sc4({"B-1": "M T3"})
    assert not turn.movement.supports[0].cut
    assert turn.movement.battles == []
    assert turn.contest("T3").excluded[0].reason.startswith("lone token")
    after = turn.results()
    assert after.retreats[0].options == ["T9"]
    turn.finish()
    assert turn.where() == {"R-1": "T6", "R-2": "T3", "B-1": "T9"}
    assert turn.state.battles_fought == []


def test_sc_4_variant_a_dr_mov_22_swap_won_on_strength() -> None:
    turn = sc4({"B-1": "M T5"})
    swap = next(c for c in turn.movement.contests if c.kind == "swap")
    assert swap.outcome == "swap-won" and swap.winner == "R-1"
    after = turn.results()
    assert "T5" not in after.retreats[0].options and after.retreats[0].choice == "T9"
    turn.finish()
    assert turn.where()["B-1"] == "T9" and turn.where()["R-1"] == "T6"


def test_sc_4_variant_b_dr_sup_3_attack_from_elsewhere_cuts_two_battles() -> None:
    turn = sc4({"B-1": "H", "B-2": "M T3"}, extra={"B-2": "T2"})
    assert turn.movement.supports[0].cut
    assert [(b.number, b.territory) for b in turn.movement.battles] == [(1, "T3"), (2, "T6")]
    assert {s.token for s in turn.movement.battles[0].sides} == {"B-2", "R-2"}


# --- SC-5 ---------------------------------------------------------------------------

def sc5(massacre_die: int) -> Turn:
    state = build_state({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9"},
                        control={"T1": "R", "T2": "R", "T3": "R", "T4": "R", "T5": "R", **BLUE3})
    return Turn(state, build_map(), {"R-1": "M T6 champion R-2", "R-2": "S R-1 T5-T6", "B-1": "H", "B-2": "S B-1"},
                dice=[massacre_die])


def test_sc_5_dr_bat_3_dr_bat_10_dr_bat_12_dr_bat_13_champion_massacred() -> None:
    turn = sc5(2)
    (battle,) = turn.movement.battles
    assert {s.faction: s.champion for s in battle.sides} == {"R": "R-2", "B": "B-1"}
    assert battle.home_faction == "B" and not battle.home_stronghold
    assert [s.points for s in battle.sides] == [2250, 2250]
    after = turn.results(BattleResult(1, "B", massacred=True))
    assert after.outcomes[0].massacre_die == 2 and after.outcomes[0].eliminated == "R-2"
    facts = turn.finish()
    assert "R-2" not in turn.state.tokens and turn.state.lists["R-2"].status == LIST_ELIMINATED
    assert turn.where()["R-1"] == "T5"
    assert turn.state.factions["B"].tokens_eliminated == 1 and turn.state.factions["B"].defeated == ["R"]
    assert facts.eliminated[0].cause == "massacre" and facts.eliminated[0].credited_to == "B"
    roundtrip(turn)


def test_sc_5_variant_dr_bat_17_massacre_die_five_champion_survives() -> None:
    turn = sc5(5)
    turn.results(BattleResult(1, "B", massacred=True))
    turn.finish()
    assert turn.where() == {"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9"}
    assert turn.state.lists["R-2"].status == LIST_ACTIVE


# --- SC-6 ---------------------------------------------------------------------------

def sc6(result: BattleResult) -> Turn:
    state = build_state({"R-1": "T4", "R-2": "T5", "R-3": "T2", "B-1": "T6"},
                        control={"T1": "R", "T2": "R", "T4": "R", "T5": "R", "T6": "B", "T8": "B", "T9": "B"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "R-2": "M T6", "R-3": "H", "B-1": "H"})
    assert turn.movement.fates["R-1"] == "entered"
    (battle,) = turn.movement.battles
    assert (battle.territory, battle.home_faction) == ("T6", "B")
    turn.results(result)
    return turn


def test_sc_6_dr_mov_13_dr_ret_4_chain_loser_retreats_to_friendly_tier() -> None:
    turn = sc6(BattleResult(1, "B"))
    (retreat,) = turn.aftermath.retreats if turn.aftermath else []
    assert (retreat.token, retreat.tier, retreat.options) == ("R-2", 1, ["T4"])
    turn.finish()
    assert turn.where() == {"R-1": "T5", "R-2": "T4", "R-3": "T2", "B-1": "T6"}


def test_sc_6_draw_variant_dr_mov_12_retreat_without_victor() -> None:
    turn = sc6(BattleResult(1, ""))
    assert turn.aftermath is not None and turn.aftermath.retreats[0].options == ["T4"]
    turn.finish()
    assert turn.where()["R-2"] == "T4"


def test_sc_6_circular_variant_dr_mov_16_loop_all_succeed() -> None:
    state = build_state({"R-1": "T4", "R-2": "T5", "R-3": "T2", "B-1": "T1"},
                        control={"T1": "R", "T2": "R", "T4": "R", "T5": "R"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "R-2": "M T2", "R-3": "M T1", "B-1": "M T4"})
    facts = turn.finish()
    assert turn.where() == {"R-1": "T5", "R-2": "T2", "R-3": "T1", "B-1": "T4"}
    assert facts.entered["B-1"] == "T4"


# --- SC-7 ---------------------------------------------------------------------------

def sc7(dice: list[int]) -> Turn:
    state = build_state({"R-1": "T5", "B-1": "T6", "G-1": "T2"},
                        control={"T4": "R", "T5": "R", "T6": "B", "T9": "B", "T2": "G"})
    return Turn(state, build_map(terrain={"T6": "woods"}), {"R-1": "M T6", "B-1": "M T5", "G-1": "M T5"}, dice=dice)


def test_sc_7_dr_mov_24_dr_ter_9_swap_battle_numbered_at_lower_id_terrain_die() -> None:
    turn = sc7([5])
    (battle,) = turn.movement.battles
    assert (battle.number, battle.territory, battle.swap_territories) == (1, "T5", ["T5", "T6"])
    assert (battle.terrain_die, battle.terrain, battle.pieces_min, battle.required) == (5, "woods", 6, {"woods": 4})
    assert battle.home_faction == ""
    assert [d.territory for d in turn.movement.dependents] == ["T5"]
    roundtrip(turn)


def test_sc_7_case_a_dr_mov_25_red_wins_third_entrant_takes_vacated() -> None:
    turn = sc7([5])
    after = turn.results(BattleResult(1, "R"))
    assert after.retreats[0].token == "B-1" and after.retreats[0].choice == "T9"
    facts = turn.finish()
    assert turn.where() == {"R-1": "T6", "B-1": "T9", "G-1": "T5"}
    assert facts.entered == {"R-1": "T6", "G-1": "T5"}


def test_sc_7_case_b_dr_mov_27_dr_rol_12_dependent_rolloff_by_faction_order() -> None:
    turn = sc7([5, 3])
    after = turn.results(BattleResult(1, "B"))
    (dep,) = after.dependents
    assert (dep.outcome, dep.favoured, dep.threshold, dep.die, dep.winner) == ("rolloff", "G", 4, 3, "B-1")
    turn.finish()
    assert turn.where() == {"R-1": "T4", "B-1": "T5", "G-1": "T2"}
    assert turn.state.battles_fought == [PairBattle(3, ["B", "R"])]
    assert turn.state.factions["B"].defeated == ["R"] and turn.state.factions["B"].defeated_by_rolloff == ["G"]
    roundtrip(turn)


def test_sc_7_case_c_dr_mov_23_draw_defender_wins_dependent_rolloff() -> None:
    turn = sc7([5, 4])
    after = turn.results(BattleResult(1, ""))
    (dep,) = after.dependents
    assert (dep.favoured, dep.threshold, dep.die, dep.winner) == ("R", 4, 4, "R-1")
    turn.finish()
    assert turn.where() == {"R-1": "T5", "B-1": "T6", "G-1": "T2"}


# --- SC-8 ---------------------------------------------------------------------------

M2_EDGES = [("T1", "T2"), ("T2", "T3"), ("T3", "T4"), ("T5", "T2"), ("T6", "T3"), ("T7", "T3"), ("T6", "T7")]


def m2() -> object:
    return build_map(edges=M2_EDGES, terrain={"T2": "woods", "T3": "hills"}, extra=["T8", "T9"],
                     roads=[("T1", "T2"), ("T2", "T3"), ("T3", "T4")], special=("T5", "T6"), objective="T7")


def sc8(stopped: bool, b1: str = "M T1-T2-T3-T4") -> Turn:
    state = build_state({"B-1": "T1", "G-1": "T5", "R-1": "T6", "R-2": "T7"},
                        lists={"B-1": {"fast": True}, "R-1": {"artillery": True}})
    void = {"R-2": "the supported move was stopped by its artillery die"} if stopped else {}
    return Turn(state, m2(), {"B-1": b1, "G-1": "M T2", "R-1": "M T3", "R-2": "S R-1 T6-T3"},  # type: ignore[arg-type]
                stopped=["R-1"] if stopped else [], void=void)


def test_sc_8_dr_sup_5_artillery_stop_multi_space_destination_only() -> None:
    turn = sc8(stopped=True)
    assert "T3" not in turn.movement.attacked
    facts = turn.finish()
    assert facts.entered == {"B-1": "T4", "G-1": "T2"}
    assert turn.where()["R-1"] == "T6" and "R-1" not in facts.held and "R-2" not in facts.held


def test_sc_8_variant_artillery_four_enters_at_strength_two() -> None:
    turn = sc8(stopped=False)
    assert turn.contest("T3").sides[0].strength == 2
    turn.finish()
    assert turn.where()["R-1"] == "T3" and turn.where()["B-1"] == "T4"


def test_sc_8_intercept_variant_battle_in_woods() -> None:
    turn = sc8(stopped=True, b1="M T1-T2")
    (battle,) = turn.movement.battles
    assert (battle.territory, battle.terrain, battle.pieces_min, battle.required) == ("T2", "woods", 6, {"woods": 4})


# --- SC-9 ---------------------------------------------------------------------------

def sc9_state(turn: int, tokens: dict[str, str], control: dict[str, str], extra: list[PairBattle]) -> object:
    state = build_state(tokens, control=control, turn=turn)
    state.battles_fought = [PairBattle(2, ["B", "R"]), PairBattle(4, ["B", "R"]), PairBattle(5, ["G", "R"]), *extra]
    return state


def test_sc_9_dr_rol_4_dr_rol_15_locked_stronghold_rolloff_red_wins_on_two() -> None:
    state = sc9_state(6, {"R-1": "T6", "B-1": "T9"}, {"T6": "R", "T8": "B", "T9": "B"}, [])
    turn = Turn(state, build_map(), {"R-1": "M T9", "B-1": "H"}, dice=[2])  # type: ignore[arg-type]
    (battle,) = turn.movement.battles
    assert (battle.kind, battle.why, battle.favoured, battle.threshold, battle.die, battle.winner) == (
        "rolloff", "locked: pair count 2", "B", 3, 2, "R")
    after = turn.results()
    assert after.outcomes[0].massacre_die == 0
    assert after.retreats[0].choice == "T8"
    turn.finish()
    assert turn.where() == {"R-1": "T9", "B-1": "T8"}
    assert len(turn.state.battles_fought) == 3
    assert turn.state.factions["R"].defeated_by_rolloff == ["B"]


def test_sc_9_turn_7_dr_home_7_retaking_stronghold_favoured_on_three() -> None:
    state = sc9_state(7, {"R-1": "T9", "B-1": "T8"}, {"T6": "R", "T8": "B", "T9": "R"}, [])
    turn = Turn(state, build_map(), {"B-1": "M T9", "R-1": "H"}, dice=[3])  # type: ignore[arg-type]
    (battle,) = turn.movement.battles
    assert (battle.kind, battle.favoured, battle.threshold, battle.winner) == ("rolloff", "B", 3, "B")
    after = turn.results()
    assert after.retreats[0].token == "R-1" and after.retreats[0].choice == "T6"
    turn.finish()
    assert turn.where() == {"R-1": "T6", "B-1": "T9"}


def test_sc_9_variant_third_faction_unlocks_tabletop_with_stronghold_bonus() -> None:
    state = sc9_state(7, {"R-1": "T9", "B-1": "T8"}, {"T6": "R", "T8": "B", "T9": "R"}, [PairBattle(6, ["B", "G"])])
    turn = Turn(state, build_map(), {"B-1": "M T9", "R-1": "H"})  # type: ignore[arg-type]
    (battle,) = turn.movement.battles
    assert battle.kind == "tabletop"
    assert (battle.home_faction, battle.home_stronghold, battle.side_of("B").points) == ("B", True, 2550)


# --- SC-14 --------------------------------------------------------------------------

def test_sc_14_dr_mov_10_three_way_standoff_blocks_retreats() -> None:
    state = build_state({"R-1": "T4", "B-1": "T6", "G-1": "T8"}, control={"T8": "G"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "B-1": "M T5", "G-1": "M T5"})
    assert turn.contest("T5").outcome == "standoff" and turn.movement.battles == []
    after = turn.results()
    assert after.standoffs == ["T5"]
    turn.finish()
    assert turn.where() == {"R-1": "T4", "B-1": "T6", "G-1": "T8"}


def test_sc_14_variant_a_dr_mov_11_two_entrants_against_defender_standoff() -> None:
    state = build_state({"R-1": "T4", "B-1": "T6", "G-1": "T5"}, control={"T8": "G"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "B-1": "M T5", "G-1": "H"})
    assert turn.contest("T5").outcome == "standoff"
    turn.finish()
    assert turn.where()["G-1"] == "T5"


def test_sc_14_variant_b_dr_ret_3_supported_entrant_dislodges_defender() -> None:
    state = build_state({"R-1": "T4", "R-2": "T2", "B-1": "T6", "G-1": "T5"}, control={"T8": "G"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "R-2": "S R-1 T4-T5", "B-1": "M T5", "G-1": "H"})
    after = turn.results()
    assert after.retreats[0].token == "G-1" and after.retreats[0].options == ["T8"]
    turn.finish()
    assert turn.where() == {"R-1": "T5", "R-2": "T2", "B-1": "T6", "G-1": "T8"}


def test_sc_14_variant_c_dr_ret_10_collision_destroys_both_without_credit() -> None:
    edges = [("S1", "A1"), ("S2", "A2"), ("A1", "T7"), ("A2", "T7"), ("P1", "A1"), ("P2", "A2")]
    gmap = build_map(edges=edges, extra=["T1", "T2", "T4", "T6", "T8", "T9"], special=("S1", "S2"), objective="T7")
    state = build_state({"R-1": "S1", "R-2": "P1", "R-3": "S2", "R-D1": "P2", "B-1": "A1", "B-2": "A2"})
    turn = Turn(state, gmap, {"R-1": "M A1", "R-2": "S R-1 S1-A1", "R-3": "M A2", "R-D1": "S R-3 S2-A2"})
    assert turn.movement.battles == []
    after = turn.results()
    assert [(r.token, r.options) for r in after.retreats] == [("B-1", ["T7"]), ("B-2", ["T7"])]
    facts = turn.finish()
    assert {e.token: (e.cause, e.credited_to) for e in facts.eliminated} == {
        "B-1": ("collision", ""), "B-2": ("collision", "")}
    assert "T7" not in {t.territory for t in turn.state.tokens.values()}


def test_sc_14_variant_d_dr_mov_9_friendly_standoff_no_battle() -> None:
    state = build_state({"R-1": "T4", "R-2": "T2"})
    turn = Turn(state, build_map(), {"R-1": "M T5", "R-2": "M T5"})
    assert turn.contest("T5").outcome == "standoff" and turn.movement.battles == []
    turn.finish()
    assert turn.where() == {"R-1": "T4", "R-2": "T2"}


# --- SC-15 --------------------------------------------------------------------------

def test_sc_15_dr_ter_4_dr_ter_7_dr_home_2_river_hills_briefing() -> None:
    gmap = build_map(terrain={"T8": "hills"}, rivers=[("T7", "T8")])
    state = build_state({"R-1": "T7", "B-1": "T8"}, lists={"R-1": {"artillery": True}})
    turn = Turn(state, gmap, {"R-1": "M T8", "B-1": "H"})
    (battle,) = turn.movement.battles
    assert (battle.terrain, battle.pieces_min, battle.pieces_max) == ("hills", 4, 6)
    assert battle.required == {"hills": 3, "water": 1} and battle.river
    assert (battle.home_faction, battle.home_stronghold) == ("B", False)
    assert [s.points for s in battle.sides] == [2250, 2250] and not battle.concealed


def test_sc_15_variant_dr_ter_8_swamp_stronghold_replacement_list() -> None:
    gmap = build_map(terrain={"T9": "swamp"}, rivers=[("T8", "T9")])
    state = build_state({"R-1": "T8", "B-1": "T9"}, lists={"B-1": {"points": 2200, "replacement": True}})
    state.battles_fought = [PairBattle(1, ["B", "R"]), PairBattle(2, ["B", "R"])]
    turn = Turn(state, gmap, {"R-1": "M T9", "B-1": "H"}, dice=[3])
    (battle,) = turn.movement.battles
    assert (battle.favoured, battle.threshold) == ("B", 3)
    turn = Turn(build_state({"R-1": "T8", "B-1": "T9"}, lists={"B-1": {"points": 2200}}), gmap,
                {"R-1": "M T9", "B-1": "H"})
    (battle,) = turn.movement.battles
    assert battle.required == {"water": 1, "woods": 2} and battle.river
    assert battle.side_of("B").points == 2500 and battle.home_stronghold
