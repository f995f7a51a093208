"""DR-BAT-1..8, DR-ROL, DR-HOME and DR-TER: the battle list, roll-offs, home side, terrain."""

from __future__ import annotations

import pytest

from pbem.rulesets.daemon_rift.model import PairBattle
from pbem.rulesets.daemon_rift.movement import convert_to_rolloff, lock_status

from .conftest import build_map, build_state, rules_with
from .helpers_movement import Turn


def one_battle(tokens: dict[str, str], orders: dict[str, str], **kw: object) -> Turn:
    state = build_state(tokens, control=kw.pop("control", None), lists=kw.pop("lists", None))  # type: ignore[arg-type]
    state.battles_fought = list(kw.pop("fought", []))  # type: ignore[call-overload]
    state.turn = int(kw.pop("turn", 3))  # type: ignore[call-overload]
    return Turn(state, kw.pop("gmap", None) or build_map(), orders, **kw)  # type: ignore[arg-type]


LOCKED = [PairBattle(1, ["B", "R"]), PairBattle(2, ["B", "R"])]


# --- DR-BAT ---------------------------------------------------------------------------

def test_dr_bat_1_g_5_battles_and_rolloffs_numbered_together_by_territory() -> None:
    turn = one_battle({"R-1": "T5", "B-1": "T6", "R-2": "T1", "B-D1": "T2"}, {"R-1": "M T6", "R-2": "M T2"}, dice=[4])
    assert [(b.number, b.territory, b.kind) for b in turn.movement.battles] == [
        (1, "T2", "rolloff"), (2, "T6", "tabletop")
    ]
    assert [b.number for b in turn.movement.pending] == [2]


def test_dr_bat_2_strength_one_principals_fight() -> None:
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"})
    assert [s.champion for s in turn.movement.battles[0].sides] == ["R-1", "B-1"]


def test_dr_bat_3_g_6_default_champion_is_principal_even_a_supporting_defender() -> None:
    turn = one_battle({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9", "B-3": "T8"},
                      {"R-1": "M T6", "R-2": "S R-1 T5-T6", "B-1": "S B-2", "B-2": "S B-1", "B-3": "S B-1"})
    battle = turn.movement.battles[0]
    assert battle.side_of("R").champion == "R-1" and battle.side_of("B").champion == "B-1"


def test_dr_bat_3_dr_bat_4_unapproved_principal_first_eligible_supporter_and_named_ineligible() -> None:
    turn = one_battle({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-2": "T9"},
                      {"R-1": "M T6 champion B-2", "R-2": "S R-1 T5-T6", "B-2": "S B-1"},
                      lists={"R-1": {"approved": False}})
    battle = turn.movement.battles[0]
    assert battle.side_of("R").champion == "R-2" and battle.kind == "tabletop"


def test_dr_bat_4_dr_rol_6_defensive_champion_on_purpose_makes_rolloff() -> None:
    turn = one_battle({"R-1": "T5", "R-2": "T3", "B-1": "T6", "B-D1": "T9"},
                      {"R-1": "M T6", "R-2": "S R-1 T5-T6", "B-1": "H champion B-D1", "B-D1": "S B-1"}, dice=[5])
    battle = turn.movement.battles[0]
    assert (battle.kind, battle.why, battle.side_of("B").champion) == ("rolloff", "defensive token", "B-D1")
    assert (battle.favoured, battle.threshold, battle.winner) == ("B", 4, "B")


def test_dr_rol_6_dr_lst_8_no_approved_list_rolls_off() -> None:
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"}, lists={"B-1": {"approved": False}}, dice=[1])
    assert turn.movement.battles[0].why == "no approved list" and turn.movement.battles[0].winner == "R"


def test_dr_bat_5_dr_bat_6_dr_home_6_stronghold_bonus_goes_to_champion_elsewhere() -> None:
    gmap = build_map(edges=[("T6", "T9"), ("T8", "T9"), ("T3", "T9"), ("T3", "T6")], extra=["T1", "T2", "T4", "T5"],
                     terrain={"T9": "mountain"})
    turn = one_battle({"R-1": "T6", "R-2": "T3", "B-1": "T9", "B-2": "T8"},
                      {"R-1": "M T9", "R-2": "S R-1 T6-T9", "B-1": "H champion B-2", "B-2": "S B-1"},
                      gmap=gmap, lists={"B-2": {"points": 2200}})
    battle = turn.movement.battles[0]
    assert battle.side_of("B").champion == "B-2" and battle.side_of("B").points == 2500
    assert (battle.terrain, battle.pieces_min, battle.required) == ("mountain", 6, {"hills": 4, "multi_level_hills": 2})


def test_dr_bat_8_dr_rol_9_unreported_battle_rolled_off_when_configured() -> None:
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"}, rules=rules_with(battle={"unreported": "rolloff"}),
                      dice=[6])
    after = turn.results()
    assert turn.movement.battles[0].kind == "rolloff" and after.outcomes[0].winner == "B"
    assert turn.state.battles_fought == []


# --- DR-ROL -----------------------------------------------------------------------------

@pytest.mark.parametrize("tokens, orders, control, favoured, threshold", [
    ({"R-1": "T6", "B-1": "T9"}, {"R-1": "M T9"}, {}, "B", 3),            # stronghold defender
    ({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"}, {}, "B", 4),            # defender
    ({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"}, {"T5": "R"}, "R", 4),   # controller
    ({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"}, {}, "B", 4),            # faction order
])
def test_dr_rol_1_dr_rol_2_dr_rol_15_favoured_side_and_threshold(tokens: dict[str, str], orders: dict[str, str],
                                                                 control: dict[str, str], favoured: str,
                                                                 threshold: int) -> None:
    turn = one_battle(tokens, orders, control=control, fought=LOCKED, dice=[3])
    battle = turn.movement.battles[0]
    assert (battle.favoured, battle.threshold) == (favoured, threshold)
    assert battle.winner == (favoured if 3 >= threshold else ({"R", "B"} - {favoured}).pop())


def test_g_1_dr_rol_2_swap_into_own_captured_stronghold_favoured_on_three() -> None:
    turn = one_battle({"R-1": "T9", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T9"}, fought=LOCKED, dice=[3])
    battle = turn.movement.battles[0]
    assert (battle.favoured, battle.threshold, battle.winner, battle.terrain_die) == ("B", 3, "B", 0)


def test_dr_rol_3_dr_rol_4_dr_rol_5_dr_rol_14_lock_sequence() -> None:
    state = build_state({"R-1": "T1"})
    rules = rules_with()
    state.battles_fought = [PairBattle(2, ["B", "R"]), PairBattle(4, ["B", "R"]), PairBattle(5, ["G", "R"])]
    state.turn = 6
    assert lock_status(state, "R", "B", rules) == (2, True)
    state.battles_fought.append(PairBattle(7, ["B", "G"]))
    state.turn = 8
    assert lock_status(state, "R", "B", rules) == (2, False)
    state.battles_fought.append(PairBattle(8, ["B", "R"]))
    state.turn = 9
    assert lock_status(state, "R", "B", rules) == (3, True)
    assert lock_status(state, "R", "B", rules_with(rolloff={"lock_repeats": False})) == (3, False)
    state.battles_fought += [PairBattle(9, ["G", "R"]), PairBattle(9, ["B", "G"])]
    state.turn = 10
    assert lock_status(state, "R", "B", rules) == (3, False)


def test_g_4_same_turn_battles_do_not_count_as_since() -> None:
    state = build_state({"R-1": "T1"}, turn=5)
    state.battles_fought = [PairBattle(2, ["B", "R"]), PairBattle(4, ["B", "R"]), PairBattle(4, ["G", "R"]),
                            PairBattle(4, ["B", "G"])]
    assert lock_status(state, "R", "B", rules_with()) == (2, True)


def test_dr_rol_8_standing_request_and_window_two_request() -> None:
    fought = [PairBattle(1, ["B", "R"]), PairBattle(2, ["B", "R"]), PairBattle(2, ["G", "R"]),
              PairBattle(2, ["B", "G"]), PairBattle(3, ["B", "R"]), PairBattle(4, ["G", "R"]),
              PairBattle(4, ["B", "G"])]
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"}, fought=fought, turn=5, rolloff={"R": ["B"]},
                      dice=[2])
    assert turn.movement.battles[0].why == "standing request by Red"
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"}, fought=fought, turn=5, dice=[5])
    assert turn.movement.battles[0].kind == "tabletop"
    convert_to_rolloff(turn.state, turn.gmap, turn.rules, turn.movement, 1, turn.dice)
    assert (turn.movement.battles[0].kind, turn.movement.battles[0].winner) == ("rolloff", "B")
    early = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6"})
    with pytest.raises(ValueError):
        convert_to_rolloff(early.state, early.gmap, early.rules, early.movement, 1, early.dice)


# --- DR-HOME ------------------------------------------------------------------------------

def test_dr_home_1_dr_home_2_dr_home_3_dr_home_4_defender_in_original_is_home_side() -> None:
    turn = one_battle({"R-1": "T5", "B-1": "T8"}, {"R-1": "M T8"})
    battle = turn.movement.battles[0]
    assert (battle.home_faction, battle.home_stronghold) == ("B", False)
    assert [s.points for s in battle.sides] == [2250, 2250]


def test_dr_home_1_entrant_into_empty_home_territory_is_home_side() -> None:
    turn = one_battle({"R-1": "T1", "B-1": "T3"}, {"R-1": "M T2", "B-1": "M T2"})
    assert turn.movement.battles[0].home_faction == "R"


def test_dr_home_5_dr_home_7_dr_home_11_stronghold_bonus_defending_and_retaking() -> None:
    turn = one_battle({"R-1": "T6", "B-1": "T9"}, {"R-1": "M T9"}, lists={"B-1": {"points": 2200}})
    battle = turn.movement.battles[0]
    assert (battle.home_faction, battle.home_stronghold, battle.side_of("B").points) == ("B", True, 2500)
    turn = one_battle({"R-1": "T9", "B-1": "T8"}, {"B-1": "M T9"}, control={"T9": "R"})
    battle = turn.movement.battles[0]
    assert (battle.home_faction, battle.side_of("B").points, battle.side_of("R").points) == ("B", 2550, 2250)


def test_dr_home_8_retaking_ordinary_original_gives_nothing_unless_option() -> None:
    turn = one_battle({"R-1": "T8", "B-1": "T9"}, {"B-1": "M T8"}, control={"T8": "R"})
    assert turn.movement.battles[0].home_faction == ""
    turn = one_battle({"R-1": "T8", "B-1": "T9"}, {"B-1": "M T8"}, control={"T8": "R"},
                      rules=rules_with(home={"retake_applies_to": "all_home"}))
    assert turn.movement.battles[0].home_faction == "B"


def test_dr_home_9_dr_home_10_swap_battle_has_no_home_side() -> None:
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T5"}, dice=[4])
    assert turn.movement.battles[0].home_faction == ""


# --- DR-TER -------------------------------------------------------------------------------

@pytest.mark.parametrize("terrain, pieces, required", [
    ("clear", (4, 4), {}),
    ("woods", (6, 6), {"woods": 4}),
    ("hills", (4, 6), {"hills": 3}),
    ("swamp", (4, 6), {"water": 1, "woods": 2}),
    ("mountain", (6, 6), {"hills": 4, "multi_level_hills": 2}),
])
def test_dr_ter_1_dr_ter_2_dr_ter_3_dr_ter_4_dr_ter_5_dr_ter_6_dr_ter_11_terrain_by_type(
        terrain: str, pieces: tuple[int, int], required: dict[str, int]) -> None:
    turn = one_battle(
        {"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"}, gmap=build_map(terrain={"T5": terrain})
    )
    battle = turn.movement.battles[0]
    assert (battle.terrain, (battle.pieces_min, battle.pieces_max), battle.required, battle.river) == (
        terrain, pieces, required, False)


def test_dr_ter_7_dr_ter_8_river_flag_bridged_counts_and_swap_river() -> None:
    gmap = build_map(terrain={"T5": "swamp"}, rivers=[("T4", "T5")], roads=[("T4", "T5")])
    turn = one_battle({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"}, gmap=gmap)
    assert turn.movement.battles[0].river and turn.movement.battles[0].required == {"water": 1, "woods": 2}
    turn = one_battle({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"}, gmap=gmap,
                      rules=rules_with(terrain={"river_counts_bridged": False}))
    assert not turn.movement.battles[0].river
    turn = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T5"}, dice=[2],
                      gmap=build_map(rivers=[("T5", "T6")]))
    assert turn.movement.battles[0].river


def test_dr_ter_9_swap_terrain_die_low_and_high() -> None:
    gmap = build_map(terrain={"T5": "hills", "T6": "woods"})
    low = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T5"}, dice=[3], gmap=gmap)
    high = one_battle({"R-1": "T5", "B-1": "T6"}, {"R-1": "M T6", "B-1": "M T5"}, dice=[4], gmap=gmap)
    assert (low.movement.battles[0].terrain, high.movement.battles[0].terrain) == ("hills", "woods")


def test_dr_ter_10_piece_count_rolled_when_configured() -> None:
    turn = one_battle({"R-1": "T4", "B-1": "T6"}, {"R-1": "M T5", "B-1": "M T5"}, dice=[6],
                      gmap=build_map(terrain={"T5": "hills"}), rules=rules_with(terrain={"roll_piece_count": True}))
    assert turn.movement.battles[0].pieces_rolled == 6
