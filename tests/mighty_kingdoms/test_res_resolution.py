"""The Resolution phase (MK-RES-1..14, MK-ORD-9): round robin, the table's rows at the moment, razes
and captures. Orders are put in `state.month.orders` as the window leaves them, and resolved."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RulesError
from pbem.rulesets.mighty_kingdoms import armylist, resolution
from pbem.rulesets.mighty_kingdoms.model import CITY, Army, Holding, MKState
from pbem.rulesets.mighty_kingdoms.summer_state import Order
from tests.mighty_kingdoms.helpers_summer import board, book, graph_map

ROW = graph_map([("T1", "T2"), ("T2", "T3"), ("T3", "T4"), ("T1", "T5"), ("T5", "T6"), ("T3", "T6")])


def give(state: MKState, *lines: str) -> None:
    """Orders as "A1 MOVE T2" lines, each player's in his sequence."""
    for line in lines:
        army, verb, *tile = line.split()
        state.month.orders.append(Order(army, verb.lower(), tile[0] if tile else "", army[0].lower(),
                                        start=state.armies[army].tile))


def resolve(state: MKState, gmap: HexMap = ROW, faces: tuple[int, ...] = ()) -> list[str]:
    dice = ScriptedDice(faces)
    lines = resolution.run(state, gmap, book(), dice)
    assert not dice.unused
    return lines


def test_mk_res_1_round_robin_in_player_order_skipping_players_with_nothing_left() -> None:
    state = board("ba", tiles={"T1": "a", "T2": "a", "T3": "b", "T4": "b"},
                  armies={"A1": "T1", "A2": "T1", "A3": "T2", "B1": "T3"})
    give(state, "A1 DEFEND", "A2 DEFEND", "A3 DEFEND", "B1 DEFEND")
    resolve(state)
    assert [o.army for o in state.month.orders] == ["B1", "A1", "A2", "A3"]
    assert all(o.done for o in state.month.orders)


def test_mk_res_2_each_player_resolves_in_his_lists_sequence() -> None:
    state = board("ab", tiles={"T1": "a", "T2": "a", "T3": "b"}, armies={"A1": "T1", "A2": "T2", "B1": "T3"})
    give(state, "A2 DEFEND", "A1 DEFEND", "B1 DEFEND")
    lines = resolve(state)
    assert [line.split(":")[0] for line in lines] == ["(1) Aland A2 DEFEND", "(2) Brisk B1 DEFEND",
                                                      "(3) Aland A1 DEFEND"]


def test_mk_res_3_the_row_that_applies_when_the_order_resolves() -> None:
    """T2 is unexplored when the orders are given; A1 explores it first, so B1's Move into it is
    a Move into a controlled tile; a second Raze of a razed tile does nothing (A32)."""
    state = board("ab", tiles={"T1": "a", "T3": "b"}, settlements={"T1": "village"},
                  armies={"A1": "T1", "A2": "T1", "A3": "T1", "B1": "T3"})
    give(state, "A1 MOVE T2", "A2 RAZE", "A3 RAZE", "B1 MOVE T2")
    lines = resolve(state, faces=(2, 2))
    assert lines[1] == "(2) Brisk B1 MOVE T2: B1 enters T2; enemy army A1 there, so T2 stays Aland's (MK-RES-6)"
    assert lines[3] == "(4) Aland A3 RAZE: nothing left to raze: the settlement there is already gone (A32)"
    assert resolution.target_kind(state, state.month.orders[3]) == "empty"


def test_mk_res_4_move_into_unexplored_explores_and_controls() -> None:
    state = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    give(state, "A1 MOVE T2")
    resolve(state, faces=(6, 4))
    assert (state.tiles["T2"].owner, state.tiles["T2"].settlement, state.armies["A1"].tile) == ("a", CITY, "T2")


def test_mk_res_5_move_into_controlled_tile_without_enemy_takes_it() -> None:
    state = board("ab", tiles={"T1": "a", "T2": "b"}, settlements={"T2": "fortress"}, armies={"A1": "T1"})
    give(state, "A1 MOVE T2")
    assert resolve(state) == ["(1) Aland A1 MOVE T2: A1 enters T2 with no enemy army there: T2 and its fortress pass "
                              "from Brisk to Aland"]
    assert state.tiles["T2"].owner == "a"
    own = board("a", tiles={"T1": "a", "T2": "a"}, armies={"A1": "T1"})
    give(own, "A1 MOVE T2")
    assert resolve(own) == ["(1) Aland A1 MOVE T2: A1 enters T2, its own kingdom's tile"]


def test_mk_res_5_capital_taken_by_a_move_falls() -> None:
    """What MK-ART-9 then does with artefacts held there is `artefacts.capital_taken`'s (tested with it)."""
    state = board("ab", tiles={"T1": "a", "T2": "b"}, settlements={"T2": CITY}, armies={"A1": "T1"},
                  starts={"b": "T2"})
    assert state.capital_of("b") == "T2"
    give(state, "A1 MOVE T2")
    assert resolve(state) == ["(1) Aland A1 MOVE T2: A1 enters T2 with no enemy army there: T2 and its city pass "
                              "from Brisk to Aland; Brisk's capital falls (MK-GEN-9)"]
    assert state.capital_of("b") == "" and state.owner("T2") == "a"


def test_mk_res_5_capital_taken_by_a_move_hands_over_what_is_held_there() -> None:
    """MK-ART-9 with A32: an artefact held at the fallen capital goes to the first unit of the taking army."""
    state = board("ab", tiles={"T1": "a", "T2": "b"}, settlements={"T2": CITY}, starts={"b": "T2"})
    roster, problems = armylist.read("A1", "A1", [(1, "Spearmen | Inf | 5 4+ - 4+ 12 13/15 | | 100")])
    assert not problems
    state.armies["A1"] = Army("A1", "a", "T1", roster=roster)
    state.artefacts["Blade of Slashing"] = Holding("b")
    give(state, "A1 MOVE T2")
    line = resolve(state)[0]
    assert "Brisk's capital falls (MK-GEN-9); Blade of Slashing, held at Brisk's capital, is taken by A1" in line
    assert state.artefacts["Blade of Slashing"] == Holding("a", "A1", roster.entries[0].id)


def test_mk_res_6_move_into_tile_with_enemy_army_leaves_control() -> None:
    state = board("ab", tiles={"T1": "a", "T2": "b"}, armies={"A1": "T1", "B1": "T2"})
    give(state, "A1 MOVE T2")
    resolve(state)
    assert (state.armies["A1"].tile, state.owner("T2")) == ("T2", "b")


def test_mk_res_7_enemy_test_counts_armies_on_their_side_and_not_yet_moved() -> None:
    state = board("ab", tiles={"T1": "a", "T2": "b", "T3": "b"}, armies={"A1": "T1", "B1": "T2", "B2": "T3"})
    state.armies["B2"].upright = False
    give(state, "A1 MOVE T2", "B1 MOVE T3")        # A resolves first: B1 has not left T2 yet
    resolve(state)
    assert state.owner("T2") == "b"
    on_side = board("ab", tiles={"T1": "a", "T2": "b"}, armies={"A1": "T1", "B1": "T2"})
    on_side.armies["B1"].upright = False
    give(on_side, "A1 MOVE T2")
    resolve(on_side)
    assert on_side.owner("T2") == "b"


def test_mk_ord_9_army_counts_in_its_start_tile_until_its_move_resolves() -> None:
    """B1 is ordered out of T2 but A resolves first: B1 still counts in T2, so A1 takes nothing."""
    state = board("ab", tiles={"T1": "a", "T2": "b", "T3": "b"}, armies={"A1": "T1", "B1": "T2"})
    give(state, "A1 MOVE T2", "B1 MOVE T3")
    resolve(state)
    assert [(o.army, o.start, o.end) for o in state.month.orders] == [("A1", "T1", "T2"), ("B1", "T2", "T3")]
    assert state.owner("T2") == "b"


def test_mk_res_8_raze_without_enemy_removes_the_settlement() -> None:
    state = board("a", tiles={"T1": "a"}, settlements={"T1": "village"}, armies={"A1": "T1"})
    give(state, "A1 RAZE")
    resolve(state)
    assert (state.owner("T1"), state.tiles["T1"].settlement, state.tiles["T1"].razed) == ("a", "", False)


def test_mk_res_9_raze_with_enemy_fails_and_stays_upside_down() -> None:
    state = board("ab", tiles={"T1": "a"}, settlements={"T1": "city"}, armies={"A1": "T1", "B1": "T1"})
    give(state, "A1 RAZE")
    assert resolve(state) == ["(1) Aland A1 RAZE: the Raze fails: enemy army B1 in T1; the city stays upside down "
                              "until Reform (MK-RES-9)"]
    assert (state.tiles["T1"].settlement, state.tiles["T1"].razed) == ("city", True)


def test_mk_res_10_raze_takes_any_settlement_in_the_armys_tile() -> None:
    state = board("ab", tiles={"T2": "b"}, settlements={"T2": "village"}, armies={"A1": "T2"})
    give(state, "A1 RAZE")
    assert resolve(state) == ["(1) Aland A1 RAZE: the village in T2 is razed; T2 stays Brisk's and is empty"]


def test_mk_res_11_defend_stays_with_no_other_effect() -> None:
    state = board("ab", tiles={"T1": "a", "T2": "b"}, armies={"A1": "T1", "B1": "T2"})
    give(state, "A1 DEFEND", "B1 MOVE T1")
    resolve(state)
    assert (state.armies["A1"].tile, state.armies["A1"].defend, state.owner("T1")) == ("T1", True, "a")
    assert state.armies["B1"].tile == "T1"


def test_mk_res_12_two_moves_into_the_same_unexplored_tile() -> None:
    state = board("ab", tiles={"T1": "a", "T3": "b"}, armies={"A1": "T1", "B1": "T3"})
    give(state, "A1 MOVE T2", "B1 MOVE T2")
    resolve(state, faces=(1, 3))
    assert (state.owner("T2"), state.tiles["T2"].settlement) == ("a", "")
    assert [a.tile for a in state.armies.values()] == ["T2", "T2"]


def test_mk_res_13_enemy_that_left_first_lets_the_move_take_the_tile() -> None:
    state = board("ba", tiles={"T1": "a", "T2": "b", "T3": "b"}, armies={"A1": "T1", "B1": "T2"})
    give(state, "A1 MOVE T2", "B1 MOVE T3")
    resolve(state)
    assert state.owner("T2") == "a"


def test_mk_res_14_razing_a_capital_removes_capital_status() -> None:
    state = board("a", tiles={"T1": "a"}, settlements={"T1": CITY}, armies={"A1": "T1"}, starts={"a": "T1"})
    assert state.capital_of("a") == "T1"
    give(state, "A1 RAZE")
    assert resolve(state) == ["(1) Aland A1 RAZE: the city in T1 is razed; T1 stays Aland's and is empty; Aland has no "
                              "capital until a city stands in T1 again (MK-RES-14)"]
    assert state.capital_of("a") == ""
    state.tiles["T1"].settlement = CITY           # a city built there again (MK-GEN-10)
    assert state.capital_of("a") == "T1"


def test_mk_res_3_a_rule_book_with_an_unknown_row_effect_is_refused() -> None:
    with pytest.raises(RulesError) as refused:
        book(resolution={"table": [{"order": "move", "target": "unexplored", "effect": "teleport"}]},
             exploration={"table": [{"min": 2, "max": 6, "result": "castle"}]})
    assert refused.value.problems == [
        "rules: resolution.table: unknown effect 'teleport'; effects are enter_explore_control, "
        "enter_control_if_no_enemy_army, remove_if_no_enemy_army, stay",
        "rules: exploration.table: unknown result 'castle'; results are wizard_tower, empty, village, city, fortress",
        "rules: exploration.table has no row for 7, 8, 9, 10, 11, 12; every total of the exploration dice needs one"]
