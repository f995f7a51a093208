"""Window O's orders (MK-ORD-1..13, MK-PBM-2): how a player's list is read, checked and filled."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder
from pbem.rulesets.base import Parsed
from pbem.rulesets.mighty_kingdoms import orders, window_orders
from pbem.rulesets.mighty_kingdoms.model import MKState
from tests.mighty_kingdoms.helpers_summer import board, book, graph_map, numbered, player, view


def two_kingdoms() -> tuple[MKState, HexMap]:
    """A holds T1 (a village, A1 A2) and T2; B holds T4 (B1 B2); T3 is unexplored; W is a tower."""
    gmap = graph_map([("T1", "T2"), ("T1", "T3"), ("T2", "T3"), ("T3", "T4"), ("T2", "W"), ("T2", "T5")])
    state = board("ab", tiles={"T1": "a", "T2": "a", "T4": "b", "T5": "a"}, settlements={"T1": "village"},
                  towers=["W"], armies={"A1": "T1", "A2": "T1", "A3": "T2", "B1": "T4", "B2": "T4"})
    return state, gmap


def read(pid: str, *lines: str, state: MKState | None = None, gmap: HexMap | None = None) -> Parsed:
    if state is None or gmap is None:
        state, gmap = two_kingdoms()
    return window_orders.parse(view(state, gmap), player(pid), numbered(*lines))


def test_mk_ord_1_three_order_types_read_and_written_back() -> None:
    parsed = read("a", "a1 move t3", "A2 Defend", "A3 DEFEND")
    assert parsed.accepted == [(1, "A1 MOVE T3"), (2, "A2 DEFEND")]
    assert parsed.payload["orders"] == [{"army": "A1", "verb": "move", "tile": "T3"},
                                        {"army": "A2", "verb": "defend", "tile": ""}]
    raze = read("a", "A1 RAZE")
    assert raze.accepted == [(1, "A1 RAZE")]
    wrong = read("a", "A1 ATTACK T3").problems[0]
    assert isinstance(wrong, InvalidOrder) and "MOVE, DEFEND or RAZE" in wrong.reason
    assert read("a", "A1 MOVS T3").problems[0].suggestion == "A1 MOVE"


def test_mk_ord_2_allowance_is_the_fewest_armies_armyless_left_out() -> None:
    state, _ = two_kingdoms()
    assert orders.allowance(state, book()) == 2
    state.kingdoms["c"] = state.kingdoms["a"].__class__("c", "Corvel")     # a third player without armies
    assert orders.allowance(state, book()) == 2
    assert orders.allowance(state, book(orders={"min_excludes_armyless": False})) == 0


@pytest.mark.parametrize(("counts", "n"), [((3, 1, 2), 1), ((4, 4, 2), 2)])
def test_mk_ord_4_order_cycles_worked_examples(counts: tuple[int, int, int], n: int) -> None:
    armies = {f"{p.upper()}{i}": "T1" for p, c in zip("abc", counts, strict=True) for i in range(1, c + 1)}
    state = board("abc", tiles={"T1": "a"}, armies=armies)
    assert orders.allowance(state, book()) == n


def test_mk_ord_3_at_most_n_orders_and_one_per_army() -> None:
    parsed = read("a", "A1 DEFEND", "A1 MOVE T3", "A2 DEFEND", "A3 DEFEND")
    assert parsed.accepted == [(1, "A1 DEFEND"), (3, "A2 DEFEND")]
    twice, over = parsed.problems
    assert (twice.line_no, isinstance(twice, IllegalOrder)) == (2, True)
    assert twice.reason.startswith("A1 already has an order on line 1 (A1 DEFEND); an army takes one order a month")
    assert over.line_no == 4 and over.reason.startswith("over the allowance: N = 2 this month")


def test_mk_ord_5_army_without_order_stays_without_marker() -> None:
    state, gmap = two_kingdoms()
    subs = {"a": read("a", "A1 MOVE T3", "A3 MOVE T5", state=state, gmap=gmap).payload,
            "b": read("b", "B1 DEFEND", "B2 DEFEND", state=state, gmap=gmap).payload}
    sections, _ = window_orders.settle(view(state, gmap), subs, ScriptedDice([3, 3]))
    assert (state.armies["A2"].tile, state.armies["A2"].defend) == ("T1", False)
    assert not any(o.army == "A2" for o in state.month.orders)
    assert sections[0].lines[-1] == "No order, staying put without a marker (MK-ORD-5): A2"


def test_mk_ord_6_move_to_an_adjacent_tile_of_any_kind() -> None:
    parsed = read("a", "A3 MOVE T3", "A1 MOVE T2")       # unexplored, then own
    assert [text for _, text in parsed.accepted] == ["A3 MOVE T3", "A1 MOVE T2"]
    state, gmap = two_kingdoms()
    state.armies["A1"].tile = "T3"
    state.tiles["T3"] = state.tiles["T1"].__class__(owner="a")
    enemy = read("a", "A1 MOVE T4", state=state, gmap=gmap)     # an enemy tile with enemy armies
    assert enemy.accepted == [(1, "A1 MOVE T4")]


def test_mk_ord_7_no_move_into_a_known_wizards_tower() -> None:
    problem = read("a", "A3 MOVE W").problems[0]
    assert isinstance(problem, IllegalOrder)
    assert problem.reason == ("W is a wizard's tower, which no army may enter (MK-ORD-7); A3 can move to T1, T3, "
                              "T5")


def test_mk_ord_8_a_move_covers_one_tile() -> None:
    problem = read("a", "A1 MOVE T4").problems[0]
    assert isinstance(problem, IllegalOrder)
    assert problem.reason == ("T4 is not next to T1, where A1 stands; a Move covers one tile (MK-ORD-6, MK-ORD-8): "
                              "A1 can move to T2, T3")


def test_mk_ord_10_defend_for_any_army_sets_a_marker() -> None:
    state, gmap = two_kingdoms()
    subs = {"a": read("a", "A1 DEFEND", "A3 DEFEND", state=state, gmap=gmap).payload}
    window_orders.settle(view(state, gmap), subs, ScriptedDice())
    assert [a.id for a in state.armies.values() if a.defend] == ["A1", "A3", "B1", "B2"]


def test_mk_ord_11_raze_needs_a_settlement_at_the_start_and_turns_it_upside_down() -> None:
    problem = read("a", "A3 RAZE").problems[0]
    assert isinstance(problem, IllegalOrder)
    assert problem.reason.startswith("A3 stands on T2, which holds no settlement; RAZE needs a village, city or")
    state, gmap = two_kingdoms()
    state.armies["B1"].tile = "T1"            # an enemy in the tile: the Raze fails, the village stays upside down
    subs = {"a": read("a", "A1 RAZE", state=state, gmap=gmap).payload}
    window_orders.settle(view(state, gmap), subs, ScriptedDice())
    assert (state.tiles["T1"].settlement, state.tiles["T1"].razed) == ("village", True)


def test_mk_ord_12_orders_are_published_only_in_the_resolution_report() -> None:
    state, gmap = two_kingdoms()
    parsed = read("b", "B1 MOVE T3", state=state, gmap=gmap)
    assert window_orders.canonical(view(state, gmap), player("b"), parsed.payload) == ["B1 MOVE T3"]
    assert state.month.orders == []            # nothing on the board until the window closes
    subs = {"a": read("a", "A2 DEFEND", state=state, gmap=gmap).payload, "b": parsed.payload}
    sections, _ = window_orders.settle(view(state, gmap), subs, ScriptedDice([2, 3]))
    assert "Aland: A2 DEFEND, A1 DEFEND (default)" in sections[0].lines
    assert "Brisk: B1 MOVE T3, B2 DEFEND (default)" in sections[0].lines


def test_mk_ord_13_illegal_entries_are_refused_with_a_reason_and_skipped() -> None:
    parsed = read("a", "A1 MOVE T4", "B1 DEFEND", "A3 RAZE", "A9 DEFEND", "A1 MOVE T9", "A2 DEFEND", "A1 DEFEND")
    assert parsed.accepted == [(6, "A2 DEFEND"), (7, "A1 DEFEND")]
    reasons = {p.line_no: p for p in parsed.problems}
    assert isinstance(reasons[1], IllegalOrder) and "not next to T1" in reasons[1].reason
    assert reasons[2].reason == "B1 is Brisk's army, not yours; your armies are A1, A2, A3"
    assert isinstance(reasons[3], IllegalOrder) and "holds no settlement" in reasons[3].reason
    assert isinstance(reasons[4], InvalidOrder) and reasons[4].reason.startswith("unknown army \u201cA9\u201d")
    assert reasons[4].suggestion in ("A1", "A2", "A3")
    assert isinstance(reasons[5], InvalidOrder)
    assert reasons[5].reason == "unknown tile \u201cT9\u201d; A1 can move to T2, T3"
    assert reasons[5].suggestion in ("T2", "T3")


def test_mk_ord_13_lines_that_are_no_orders() -> None:
    parsed = read("a", "MOVE A1 T3", "Cheers, Anna")
    first, second = parsed.problems
    assert isinstance(first, InvalidOrder) and first.suggestion == "A1 MOVE"
    assert "an order starts with the army" in first.reason
    assert isinstance(second, NotAnOrder)


def test_mk_pbm_2_defaults_defend_for_the_lowest_ids_and_fill_a_short_list() -> None:
    state, gmap = two_kingdoms()
    subs = {"a": read("a", "A3 MOVE T5", state=state, gmap=gmap).payload}     # one of two; B sends nothing
    window_orders.settle(view(state, gmap), subs, ScriptedDice())
    assert [(o.army, o.verb, o.default) for o in state.month.orders] == [
        ("A3", "move", False), ("B1", "defend", True), ("A1", "defend", True), ("B2", "defend", True)]


def test_mk_pbm_2_the_ack_says_what_a_short_list_defaults_to() -> None:
    state, gmap = two_kingdoms()
    parsed = read("a", "A3 MOVE T5", state=state, gmap=gmap)
    assert window_orders.missing(view(state, gmap), player("a"), parsed.payload) == [
        "1 more order (left out, A1 DEFEND by default)"]
    full = read("a", "A3 MOVE T5", "A2 DEFEND", state=state, gmap=gmap)
    assert window_orders.missing(view(state, gmap), player("a"), full.payload) == []


def test_mk_pbm_2_missing_default_none_leaves_a_short_list_short() -> None:
    state, gmap = two_kingdoms()
    rules = book(orders={"missing_default": "none"})
    subs = {"a": read("a", "A3 MOVE T5", state=state, gmap=gmap).payload}
    window_orders.settle(view(state, gmap, rules), subs, ScriptedDice())
    assert [o.army for o in state.month.orders] == ["A3"]
    assert window_orders.missing(view(state, gmap, rules), player("b"), {}) == []


def test_mk_ord_13_lines_of_other_windows_are_refused_with_their_window() -> None:
    parsed = read("a", "A1 DEFEND", "BUILD village T2", "RESULT WIN Aland")
    build, result = parsed.problems
    assert isinstance(build, InvalidOrder) and not isinstance(build, NotAnOrder)
    assert build.reason == ("BUILD is not read in the orders window: it belongs to the winter purchases window; "
                            "orders now read A1 MOVE T5, A1 DEFEND or A1 RAZE")
    assert result.reason.startswith("RESULT is not read in the orders window: it belongs to the battle window")


def test_mk_ord_2_literal_reading_with_an_armyless_player_allows_no_order() -> None:
    state, gmap = two_kingdoms()
    state.kingdoms["c"] = state.kingdoms["a"].__class__("c", "Corvel")
    for mode in ("simultaneous", "per_cycle"):
        rules = book(orders={"min_excludes_armyless": False, "window_mode": mode})
        parsed = window_orders.parse(view(state, gmap, rules), player("a"), numbered("A1 DEFEND"))
        assert parsed.problems[0].reason == "over the allowance: no army may be ordered this month (N = 0, MK-ORD-2)"
