"""Acceptance scenarios 1-4 of the catalog, with their exact numbers and fixed dice.

Each stops at the board after resolution (battle selection and reform are other steps)."""

from __future__ import annotations

from typing import Any

from pbem.kit.dice import ScriptedDice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder
from pbem.rulesets.mighty_kingdoms import resolution, window_orders
from pbem.rulesets.mighty_kingdoms.model import MKState
from tests.mighty_kingdoms.helpers_summer import board, graph_map, numbered, player, view


def payload(state: MKState, gmap: HexMap, pid: str, *lines: str) -> dict[str, Any]:
    parsed = window_orders.parse(view(state, gmap), player(pid), numbered(*lines))
    return parsed.payload


# -- scenario 1 ---------------------------------------------------------------------------------
def scenario_1() -> tuple[MKState, HexMap]:
    gmap = graph_map([("T1", "T5"), ("T1", "T6"), ("T2", "T7"), ("T3", "T9")])
    state = board("cab", tiles={"T1": "a", "T5": "a", "T6": "a", "T2": "b", "T7": "b", "T3": "c", "T9": "c"},
                  armies={"A1": "T1", "A2": "T1", "A3": "T1", "B1": "T2", "C1": "T3", "C2": "T3"})
    return state, gmap


def test_mk_scenario_1_order_allowance_and_defaults() -> None:
    state, gmap = scenario_1()
    v = view(state, gmap)
    parsed_a = window_orders.parse(v, player("a"), numbered("A2 MOVE T5", "A1 DEFEND", "A3 MOVE T6"))
    assert parsed_a.accepted == [(1, "A2 MOVE T5")]
    assert [(p.line_no, type(p)) for p in parsed_a.problems] == [(2, IllegalOrder), (3, IllegalOrder)]
    assert all("over the allowance: N = 1" in p.reason and "A2 MOVE T5" in p.reason for p in parsed_a.problems)
    subs = {"a": parsed_a.payload, "c": window_orders.parse(v, player("c"), numbered("C2 MOVE T9")).payload}
    sections, resolved = window_orders.settle(v, subs, ScriptedDice())
    assert resolved and state.month.allowance == 1
    assert sections[2].lines == ["none: no tile holds armies of two kingdoms"]
    assert [(o.army, o.verb, o.tile, o.default) for o in state.month.orders] == [
        ("C2", "move", "T9", False), ("A2", "move", "T5", False), ("B1", "defend", "", True)]
    assert sections[0].lines[0] == "Order allowance: N = 1, the fewest armies any kingdom has (Brisk has 1) (MK-ORD-2)"
    assert "Brisk: B1 DEFEND (default)" in sections[0].lines
    assert "No order, staying put without a marker (MK-ORD-5): A1, A3, C1" in sections[0].lines
    assert [line.split(":")[0] for line in sections[1].lines] == ["(1) Corvel C2 MOVE T9", "(2) Aland A2 MOVE T5",
                                                                 "(3) Brisk B1 DEFEND (default)"]
    assert [(a.id, a.tile, a.defend) for a in state.armies.values()] == [
        ("A1", "T1", False), ("A2", "T5", False), ("A3", "T1", False), ("B1", "T2", True), ("C1", "T3", False),
        ("C2", "T9", False)]


# -- scenario 2 ---------------------------------------------------------------------------------
def test_mk_scenario_2_race_into_unexplored_tile() -> None:
    gmap = graph_map([("T1", "X"), ("T2", "X"), ("T1", "T2")])
    state = board("ba", tiles={"T1": "a", "T2": "b"}, armies={"A1": "T1", "B1": "T2"})
    v = view(state, gmap)
    subs = {"a": payload(state, gmap, "a", "A1 MOVE X"), "b": payload(state, gmap, "b", "B1 MOVE X")}
    dice = ScriptedDice([3, 5])
    sections, resolved = window_orders.settle(v, subs, dice)
    assert resolved and not dice.unused
    assert sections[2].lines == ["X: Brisk (B1), Aland (A1)"]
    assert [o.army for o in state.month.orders] == ["B1", "A1"]
    assert (state.tiles["X"].owner, state.tiles["X"].settlement) == ("b", "village")
    assert state.month.log[0] == ("(1) Brisk B1 MOVE X: X explored, 2D6 = 3+5 = 8: a village, controlled by Brisk; "
                                  "B1 enters")
    assert state.month.log[1] == "(2) Aland A1 MOVE X: A1 enters X; enemy army B1 there, so X stays Brisk's (MK-RES-6)"
    assert [a.tile for a in state.armies.values()] == ["X", "X"]
    assert dice.log[0].purpose == "exploration of X by B1"


# -- scenario 3 ---------------------------------------------------------------------------------
def scenario_3() -> tuple[MKState, HexMap]:
    gmap = graph_map([("T1", "X"), ("T3", "X"), ("T1", "Y"), ("T1", "W0"), ("T3", "T4")])
    state = board("ac", tiles={"T1": "a", "T3": "c", "T4": "c"}, towers=["W0"],
                  armies={"A1": "T1", "A2": "T1", "C1": "T3", "C2": "T3"})
    return state, gmap


def test_mk_scenario_3_wizards_tower_and_cancellation() -> None:
    state, gmap = scenario_3()
    v = view(state, gmap)
    subs = {"a": payload(state, gmap, "a", "A1 MOVE X", "A2 MOVE X"),
            "c": payload(state, gmap, "c", "C1 MOVE X", "C2 DEFEND")}
    assert len(subs["a"]["orders"]) == 2 and len(subs["c"]["orders"]) == 2
    dice = ScriptedDice([1, 1])
    window_orders.settle(v, subs, dice)
    assert not dice.unused
    assert state.tiles["X"].tower and not state.tiles["X"].owner and len(state.towers()) == 2
    assert [(o.army, o.cancelled) for o in state.month.orders] == [
        ("A1", False), ("A2", True), ("C1", True), ("C2", False)]
    assert state.month.log == [
        "(1) Aland A1 MOVE X: X explored, 2D6 = 1+1 = 2: a wizard's tower; A1 goes back to T1 (MK-EXP-5); "
        "cancelled: A2 MOVE X, C1 MOVE X",
        "(2) Corvel C2 DEFEND: C2 stays in T3 with a defend marker"]
    assert {a.id: a.tile for a in state.armies.values()} == {"A1": "T1", "A2": "T1", "C1": "T3", "C2": "T3"}
    assert state.month.orders[0].end == "T1" and state.month.orders[1].outcome == "cancelled: X became a wizard's tower"

    # next month, a Move into X is refused in the acknowledgement
    state.calendar.month = 2
    later = window_orders.parse(view(state, gmap), player("a"), numbered("A1 MOVE X"))
    assert not later.accepted and isinstance(later.problems[0], IllegalOrder)
    assert "X is a wizard's tower, which no army may enter (MK-ORD-7)" in later.problems[0].reason

    # a later 2 on the exploration of Y is an empty tile: two towers already stand
    later_subs = {"a": payload(state, gmap, "a", "A1 MOVE Y")}
    window_orders.settle(view(state, gmap), later_subs, ScriptedDice([1, 1]))
    assert (state.tiles["Y"].owner, state.tiles["Y"].settlement, state.tiles["Y"].tower) == ("a", "", False)
    assert "2 towers are already on the board" in state.month.log[0]


# -- scenario 4 ---------------------------------------------------------------------------------
def scenario_4(order: str) -> tuple[MKState, HexMap]:
    gmap = graph_map([("V", "W"), ("V", "U")])
    state = board(order, tiles={"V": "a", "U": "a", "W": "b"}, settlements={"V": "village"},
                  armies={"A1": "V", "B1": "W"})
    return state, gmap


def run_4(order: str, a_order: str) -> MKState:
    state, gmap = scenario_4(order)
    subs = {"a": payload(state, gmap, "a", a_order), "b": payload(state, gmap, "b", "B1 MOVE V")}
    window_orders.settle(view(state, gmap), subs, ScriptedDice())
    return state


def test_mk_scenario_4a_raze_fails_when_capture_resolves_first() -> None:
    state = run_4("ba", "A1 RAZE")
    v = state.tiles["V"]
    assert (v.owner, v.settlement, v.razed) == ("a", "village", True)
    assert state.month.log[1] == ("(2) Aland A1 RAZE: the Raze fails: enemy army B1 in V; the village stays upside "
                                  "down until Reform (MK-RES-9)")
    assert sorted(a.owner for a in state.armies_in("V")) == ["a", "b"]      # a battle at V


def test_mk_scenario_4b_raze_succeeds_when_it_resolves_first() -> None:
    state = run_4("ab", "A1 RAZE")
    v = state.tiles["V"]
    assert (v.owner, v.settlement, v.razed) == ("a", "", False)
    assert state.month.log[0] == "(1) Aland A1 RAZE: the village in V is razed; V stays Aland's and is empty"
    assert state.month.log[1] == "(2) Brisk B1 MOVE V: B1 enters V; enemy army A1 there, so V stays Aland's (MK-RES-6)"
    assert sorted(a.owner for a in state.armies_in("V")) == ["a", "b"]


def test_mk_scenario_4c_army_leaving_first_lets_the_capture_through() -> None:
    state = run_4("ab", "A1 MOVE U")
    v = state.tiles["V"]
    assert (v.owner, v.settlement) == ("b", "village")
    assert state.month.log[1] == ("(2) Brisk B1 MOVE V: B1 enters V with no enemy army there: V and its village pass "
                                  "from Aland to Brisk")
    assert resolution.target_kind(state, state.month.orders[1]) == "controlled"
