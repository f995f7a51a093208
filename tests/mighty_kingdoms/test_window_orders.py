"""Window O as the engine sees it: HELP, the call for orders, the per-cycle mode (A5) and reports."""

from __future__ import annotations

from typing import Any

from pbem.kit.dice import ScriptedDice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder
from pbem.kit.texts import render
from pbem.rulesets.base import Report
from pbem.rulesets.mighty_kingdoms import window_orders
from pbem.rulesets.mighty_kingdoms.chronicle import Section, report
from pbem.rulesets.mighty_kingdoms.model import ORDERS, MKState
from tests.mighty_kingdoms.helpers_summer import board, book, graph_map, numbered, player, view

PER_CYCLE = book(orders={"window_mode": "per_cycle"})


def two() -> tuple[MKState, HexMap]:
    gmap = graph_map([("T1", "T2"), ("T1", "T3"), ("T3", "T4"), ("T2", "W")])
    state = board("ab", tiles={"T1": "a", "T2": "a", "T4": "b"}, settlements={"T1": "city"}, towers=["W"],
                  armies={"A1": "T1", "A2": "T2", "B1": "T4", "B2": "T4"})
    return state, gmap


def shown(rep: Report) -> str:
    return render("mighty_kingdoms", rep.kind, {"campaign": {"title": "Mighty Test", "name": "mk"}, "rolls": [],
                                                **rep.context})


def test_mk_ord_help_names_the_players_armies_and_their_reach_with_his_own_army_as_example() -> None:
    state, gmap = two()
    text = window_orders.help_text(view(state, gmap), player("a"))
    assert text.splitlines() == [
        "One order per line, best first: A1 MOVE T2, A1 DEFEND or A1 RAZE. This month N = 2: the first 2 legal orders "
        "naming different armies are used, in your list's sequence, which is also the order they resolve in.",
        "- A1 in T1: MOVE to T2, T3; DEFEND; RAZE the city",
        "- A2 in T2: MOVE to T1; DEFEND; no RAZE (no settlement)",
        "Left out, your lowest army ids DEFEND. Standing preferences (BATTLE, SLAUGHTER, RETREAT, WINMOVE, REFORM) "
        "may be sent in this window too."]
    state.armies.pop("A1"), state.armies.pop("A2")
    assert window_orders.help_text(view(state, gmap), player("a")) == ("You have no army this month, so you send no "
                                                                        "orders.")
    assert window_orders.owing(view(state, gmap)) == ["b"]


def test_mk_ord_call_for_orders_in_the_report() -> None:
    state, gmap = two()
    text = shown(report(view(state, gmap), "Year 1, month 1: orders", [Section("Reform", ["all stood up"])], "r"))
    assert "## Orders for Year 1, month 1" in text
    assert "The order allowance is **N = 2**" in text
    assert "| A1 | Aland | T1 | T2, T3 | city |" in text
    assert "| B1 | Brisk | T4 | T3 | - |" in text


def cycle_one(state: MKState, gmap: HexMap) -> dict[str, Any]:
    v = view(state, gmap, PER_CYCLE)
    parsed = window_orders.parse(v, player("a"), numbered("A1 MOVE T3", "A2 DEFEND"))
    assert parsed.accepted == [(1, "A1 MOVE T3")]
    over = parsed.problems[0]
    assert isinstance(over, IllegalOrder) and over.reason == ("over the allowance: one order per cycle, and A1 MOVE T3 "
                                                              "is this cycle's (orders.window_mode)")
    return parsed.payload


def test_mk_ord_4_per_cycle_window_one_order_each_earlier_cycles_published() -> None:
    state, gmap = two()
    outcome = window_orders.resolve(view(state, gmap, PER_CYCLE), {"a": cycle_one(state, gmap)}, ScriptedDice())
    assert (state.calendar.window, state.month.cycle, outcome.turn_finished) == (ORDERS, 1, False)
    assert [(o.army, o.verb, o.default) for o in state.month.orders] == [("A1", "move", False), ("B1", "defend", True)]
    assert state.armies["A1"].tile == "T1"                    # nothing resolves before the last cycle
    rep = outcome.reports[0]
    assert rep.subject == "Year 1, month 1: orders, cycle 1" and rep.key == "orders-cycle-1"
    text = shown(rep)
    assert "## Order cycle 1 of 2" in text and "- Aland: A1 MOVE T3" in text
    assert "## Orders for Year 1, month 1, cycle 2 of 2" in text
    assert "- Brisk: `B1 DEFEND` (default)" in text

    v = view(state, gmap, PER_CYCLE)
    again = window_orders.parse(v, player("a"), numbered("A1 DEFEND", "A2 MOVE T1"))
    assert again.accepted == [(2, "A2 MOVE T1")]
    assert again.problems[0].reason.startswith("A1 already has an order this month (A1 MOVE T3, an earlier cycle)")
    assert window_orders.missing(v, player("b"), {}) == ["1 more order (left out, B2 DEFEND by default)"]
    sections, resolved = window_orders.settle(v, {"a": again.payload}, ScriptedDice([3, 4]))
    assert resolved and sections[0].title == "Order cycle 2 of 2"
    assert [line.split(":")[0] for line in sections[1].lines] == [
        "(1) Aland A1 MOVE T3", "(2) Brisk B1 DEFEND (default)", "(3) Aland A2 MOVE T1",
        "(4) Brisk B2 DEFEND (default)"]
    assert (state.owner("T3"), state.tiles["T3"].settlement) == ("a", "village")


def test_mk_ord_resolution_report_lists_every_order_and_roll() -> None:
    state, gmap = two()
    subs = {"a": window_orders.parse(view(state, gmap), player("a"), numbered("A1 MOVE T3")).payload}
    sections, _ = window_orders.settle(view(state, gmap), subs, ScriptedDice([5, 5]))
    state.calendar.window = "battle"
    text = shown(report(view(state, gmap), "Year 1, month 1: orders and resolution", sections, "orders"))
    assert "- Aland: A1 MOVE T3, A2 DEFEND (default)" in text
    assert "- (1) Aland A1 MOVE T3: T3 explored, 2D6 = 5+5 = 10: a city, controlled by Aland; A1 enters" in text
    assert "## Orders for" not in text


def test_mk_pbm_5_standing_entries_on_file_are_written_back_after_the_orders() -> None:
    state, gmap = two()
    payload = {"orders": [{"army": "A1", "verb": "move", "tile": "T3"}],
               "standing": [{"verb": "BATTLE", "choices": ["T3 Brisk", "* *"]},
                            {"verb": "RETREAT", "army": "A1", "tiles": ["T2", "T1"]},
                            {"verb": "REFORM", "unit": "A1.U2", "choices": {"2": "brutal", "scar0": "me"}}]}
    assert window_orders.canonical(view(state, gmap), player("a"), payload) == [
        "A1 MOVE T3", "BATTLE T3 Brisk, * *", "RETREAT A1 T2, T1", "REFORM A1.U2 2=brutal scar0=me"]
