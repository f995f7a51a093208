"""Exploration (MK-EXP-1..9): the 2D6 table, towers and their cap, cancellations, terrain."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.mighty_kingdoms import exploration, resolution, window_orders
from pbem.rulesets.mighty_kingdoms.model import MKState
from pbem.rulesets.mighty_kingdoms.summer_state import Order
from tests.mighty_kingdoms.helpers_summer import board, book, graph_map, numbered, player, view

GMAP = graph_map([("T1", "X"), ("T1", "Y"), ("T1", "W1"), ("T3", "X"), ("T3", "Z"), ("T1", "S")],
                 terrain={"S": "swamp"})


def explore(state: MKState, army: str, tile: str, faces: tuple[int, int], **rules: dict[str, object]) -> str:
    order = Order(army, "move", tile, state.armies[army].owner, start=state.armies[army].tile)
    state.month.orders.append(order)
    dice = ScriptedDice(faces)
    line = resolution.run(state, GMAP, book(**rules), dice)[0]
    assert not dice.unused and dice.log[0].purpose == f"exploration of {tile} by {army}"
    return line


@pytest.mark.parametrize(("faces", "result"), [
    ((1, 1), "wizard_tower"), ((1, 2), "empty"), ((3, 3), "empty"), ((3, 4), "village"), ((4, 5), "village"),
    ((5, 5), "city"), ((5, 6), "fortress"), ((6, 6), "fortress")])
def test_mk_exp_1_the_2d6_table(faces: tuple[int, int], result: str) -> None:
    assert exploration.table_result(book(), sum(faces)) == result
    state = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    explore(state, "A1", "X", faces)
    spot = state.tiles["X"]
    placed = "wizard_tower" if spot.tower else spot.settlement or "empty"
    assert placed == result


def test_mk_exp_2_empty_result_is_a_control_marker() -> None:
    state = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    line = explore(state, "A1", "X", (2, 4))
    assert line == "(1) Aland A1 MOVE X: X explored, 2D6 = 2+4 = 6: an empty tile, controlled by Aland; A1 enters"
    assert (state.tiles["X"].owner, state.tiles["X"].settlement) == ("a", "")


def test_mk_exp_3_settlement_result_is_placed_under_the_explorers_control() -> None:
    state = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    explore(state, "A1", "X", (5, 6))
    assert (state.tiles["X"].owner, state.tiles["X"].settlement, state.armies["A1"].tile) == ("a", "fortress", "X")


def test_mk_exp_4_a_third_tower_counts_as_empty() -> None:
    state = board("a", tiles={"T1": "a"}, towers=["W1", "W2"], armies={"A1": "T1"})
    line = explore(state, "A1", "X", (1, 1))
    assert line.endswith("2D6 = 1+1 = 2: an empty tile (2 towers are already on the board), controlled by Aland; "
                         "A1 enters")
    assert (state.tiles["X"].tower, state.tiles["X"].owner, state.towers()) == (False, "a", ["W1", "W2"])


def test_mk_exp_5_a_tower_is_never_controlled_and_sends_the_explorer_back() -> None:
    state = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    line = explore(state, "A1", "X", (1, 1))
    assert line.endswith("a wizard's tower; A1 goes back to T1 (MK-EXP-5)")
    assert (state.tiles["X"].tower, state.tiles["X"].owner, state.armies["A1"].tile) == (True, "", "T1")
    assert state.armies_in("X") == []


def test_mk_exp_6_moves_into_a_new_tower_are_cancelled_whoever_gave_them() -> None:
    state = board("ca", tiles={"T1": "a", "T3": "c"}, armies={"A1": "T1", "C1": "T3", "C2": "T3"})
    for army, tile in (("C1", "X"), ("A1", "X"), ("C2", "X")):
        state.month.orders.append(Order(army, "move", tile, army[0].lower(), start=state.armies[army].tile))
    resolution.run(state, GMAP, book(), ScriptedDice([1, 1]))
    assert [(o.army, o.cancelled, o.outcome) for o in state.month.orders[1:]] == [
        ("A1", True, "cancelled: X became a wizard's tower"), ("C2", True, "cancelled: X became a wizard's tower")]
    assert {a.tile for a in state.armies.values()} == {"T1", "T3"}


def test_mk_exp_7_cancelled_orders_leave_the_round_robin() -> None:
    """A [A1 MOVE X, A2 DEFEND, A3 DEFEND], C [C1 MOVE X, C2 DEFEND]: C1 is cancelled by A1's tower,
    so C's next turn is C2 at once, and A then resolves the rest of his list alone."""
    state = board("ac", tiles={"T1": "a", "T3": "c"},
                  armies={"A1": "T1", "A2": "T1", "A3": "T1", "C1": "T3", "C2": "T3"})
    for army, verb, tile in (("A1", "move", "X"), ("A2", "defend", ""), ("A3", "defend", ""),
                             ("C1", "move", "X"), ("C2", "defend", "")):
        state.month.orders.append(Order(army, verb, tile, army[0].lower(), start=state.armies[army].tile))
    lines = resolution.run(state, GMAP, book(), ScriptedDice([1, 1]))
    assert [line.split(":")[0] for line in lines] == [
        "(1) Aland A1 MOVE X", "(2) Corvel C2 DEFEND", "(3) Aland A2 DEFEND", "(4) Aland A3 DEFEND"]
    assert [o.army for o in state.month.orders] == ["A1", "C1", "C2", "A2", "A3"]


def test_mk_exp_8_a_tower_is_permanent_no_move_enters_it_later() -> None:
    state = board("a", tiles={"T1": "a"}, towers=["W1"], armies={"A1": "T1"})
    parsed = window_orders.parse(view(state, GMAP), player("a"), numbered("A1 MOVE W1", "A1 MOVE X"))
    assert parsed.accepted == [(2, "A1 MOVE X")]
    window_orders.settle(view(state, GMAP), {"a": parsed.payload}, ScriptedDice([4, 4]))
    assert state.tiles["W1"].tower and not state.tiles["W1"].owner and not state.tiles["W1"].settlement


def test_mk_exp_9_results_are_placed_whatever_the_terrain() -> None:
    state = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    explore(state, "A1", "S", (4, 4))
    assert state.tiles["S"].settlement == "village"
    other = board("a", tiles={"T1": "a"}, armies={"A1": "T1"})
    line = explore(other, "A1", "S", (4, 4), exploration={"on_unbuildable_terrain": "empty"})
    assert (other.tiles["S"].owner, other.tiles["S"].settlement) == ("a", "")
    assert "an empty tile (a village cannot stand on swamp)" in line
