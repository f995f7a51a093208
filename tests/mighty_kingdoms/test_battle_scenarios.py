"""The catalog's acceptance scenarios 5, 6 and 13 (the capture part), with their exact numbers."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.mighty_kingdoms import battle_results, battles, reform, steps, window_battle
from pbem.rulesets.mighty_kingdoms.battle_state import BattleReport
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import BATTLE, ORDERS, Holding, MKState, MKView
from tests.mighty_kingdoms.helpers_battle import army, board, lines, player, state_of, texts, view_of


@pytest.fixture
def reformed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Reform has its own tests (test_reform.py); here it only records that the battle phase handed over to it."""
    calls: list[str] = []

    def fake(view: MKView, dice: Any, sections: list[Section]) -> None:
        calls.append(view.state.calendar.window)
    monkeypatch.setattr(reform, "run", fake)
    return calls


def opened(view: MKView) -> bool:
    """The month goes on after the Orders window: True when window B opened."""
    return steps.month_goes_on(view, ScriptedDice([]), []) == BATTLE


def report(view: MKView, **mails: str) -> Any:
    """Window B closed with these players' mails (each parsed as the engine would)."""
    subs = {}
    for pid, text in mails.items():
        parsed = window_battle.parse(view, player(pid), lines(text))
        assert not parsed.problems, parsed.problems
        subs[pid] = parsed.payload
    return window_battle.resolve(view, subs, ScriptedDice([]))


def scenario_5() -> tuple[MKState, MKView]:
    gmap = board([("T", "U"), ("T", "X"), ("U", "X")])
    state = state_of(["b", "a"], {"T": "b", "U": "b", "X": "a"})
    for ident in ("B1", "A1", "A2"):
        army(state, ident, "T")
    army(state, "A3", "U")
    return state, view_of(state, gmap)


def test_mk_bat_7_all_upright_armies_of_each_kingdom_fight_as_one_force(reformed: list[str]) -> None:
    """Both of A's upright armies in T fight together, 1,000 points against B's 500; an on-side
    army does not add its points (MK-BAT-8)."""
    state, view = scenario_5()
    army(state, "A4", "T", upright=False)
    assert opened(view)
    (first,) = state.battle.pending()
    assert first.armies == {"a": ["A1", "A2"], "b": ["B1"]} and first.on_side == {"a": ["A4"], "b": []}
    assert battles.points(state, first, "a") == 1000 and battles.points(state, first, "b") == 500


def test_mk_scenario_5_loss_on_side_retreat_then_slaughter(reformed: list[str]) -> None:
    state, view = scenario_5()
    assert opened(view)                                         # battle 1: B's turn, T against A
    (first,) = state.battle.pending()
    assert (first.tile, first.chooser, first.opponent) == ("T", "b", "a")
    assert battles.points(state, first, "a") == 1000 and battles.points(state, first, "b") == 500
    out = report(view, a="RESULT WIN Red\nMEDALS NONE\nSCARS NONE", b="RESULT WIN Red\nMEDALS NONE\nSCARS NONE")
    assert state.owner("T") == "a"
    assert "B1" not in state.armies                             # battle 2: A picks U against B: slaughter
    slaughter = state.battle.battles[1]
    assert (slaughter.kind, slaughter.tile, slaughter.chooser, slaughter.removed) == ("slaughter", "U", "a", "B1")
    assert first.moves == {"B1": "U"}
    assert state.owner("U") == "b"                              # a slaughter changes no control
    assert [a.tile for a in state.armies.values()] == ["T", "T", "U"]
    assert not battles.contested(state)
    assert reformed == [BATTLE]                                 # the phase ended; Reform ran
    assert state.calendar.window == ORDERS and state.calendar.month == 2
    log = texts(out.reports[0].context["mk"]["sections"])
    assert "B1 moves to U (by default) and is on its side." in log
    assert "Blue makes no win move." not in log and "Red makes no win move." in log


def test_mk_scenario_5_b1_lies_on_its_side_in_u_before_the_slaughter() -> None:
    state, view = scenario_5()
    assert opened(view)
    (first,) = state.battle.pending()
    battle_results.apply(view, first, BattleReport("a"), Section("x"))
    assert (state.armies["B1"].tile, state.armies["B1"].upright) == ("U", False)
    assert battles.contested(state) == ["U"]                    # U joins the selection (MK-BAT-4, MK-BRS-11)
    assert battles.choose(view, "b") is None                    # B has nothing upright: skipped (MK-BAT-12)
    assert battles.choose(view, "a") == battles.Pick("U", "b")


def scenario_6() -> tuple[MKState, MKView]:
    gmap = board([("T", "Q"), ("T", "R"), ("R", "S")])
    state = state_of(["a", "b", "c"], {"T": "c", "Q": "a", "R": "c", "S": "b"})
    army(state, "C1", "T")
    army(state, "A1", "T")
    army(state, "B1", "T")
    return state, view_of(state, gmap)


def test_mk_scenario_6_draw_in_a_third_party_tile_destroys_the_army_with_nowhere_to_go(reformed: list[str]) -> None:
    state, view = scenario_6()
    assert opened(view)
    (fight,) = state.battle.pending()
    assert (fight.chooser, fight.opponent) == ("a", "b")          # A's turn, an upright opponent: B
    report(view, a="RESULT DRAW\nMEDALS NONE\nSCARS NONE", b="RESULT DRAW\nMEDALS NONE\nSCARS NONE")
    assert state.owner("T") == "c"                                  # neither A nor B controls T
    assert (state.armies["A1"].tile, state.armies["A1"].upright) == ("Q", True)
    assert "B1" not in state.armies                                 # B has no tile next to T
    assert state.armies["C1"].tile == "T" and state.armies["C1"].upright
    assert not battles.contested(state)                             # C's turn: T holds only C1
    assert reformed == [BATTLE]
    assert fight.moves == {"A1": "Q", "B1": ""}


def scenario_13(capital: bool = True, pool: list[dict[str, Any]] | None = None) -> tuple[MKState, MKView]:
    gmap = board([("T", "W"), ("T", "H"), ("W", "V")])
    owners = {"T": "b", "W": "b", "H": "a", "V": "b"}
    state = state_of(["a", "b"], {**owners, **({"H": "a"} if capital else {"H": "b"})}, {"H": "city"})
    state.kingdoms["a"].start_tile = "H"
    army(state, "A1", "T")
    army(state, "B1", "T")
    state.artefacts["Medallion of Life"] = Holding("b", "B1", "U2")
    rules = {"artefacts": {"pool": pool}} if pool is not None else {}
    return state, view_of(state, gmap, **rules)


def capture_mails(view: MKView, result: str, take: str = "") -> None:
    text = f"RESULT {result}\nMEDALS A1.U1\nSCARS B1.U2"
    report(view, a=text + (f"\n{take}" if take else ""), b=text)


def test_mk_scenario_13_capture_goes_to_the_unit_the_winner_allocates(reformed: list[str]) -> None:
    state, view = scenario_13()
    assert opened(view)
    capture_mails(view, "WIN Red", "TAKE Medallion of Life A1.U2")
    assert state.artefacts["Medallion of Life"] == Holding("a", "A1", "U2")


def test_mk_scenario_13_i_no_appropriate_unit_so_held_at_the_winners_capital(reformed: list[str]) -> None:
    state, view = scenario_13(pool=[{"name": "Medallion of Life", "points": 20, "requires_spell": "lightning_bolt"}])
    assert opened(view)
    capture_mails(view, "WIN Red")
    assert state.artefacts["Medallion of Life"] == Holding("a")


def test_mk_scenario_13_ii_winner_without_capital_loses_it_to_the_pool(reformed: list[str]) -> None:
    state, view = scenario_13(capital=False, pool=[{"name": "Medallion of Life", "points": 20,
                                                    "requires_spell": "lightning_bolt"}])
    assert opened(view)
    capture_mails(view, "WIN Red")
    assert "Medallion of Life" not in state.artefacts


def test_mk_scenario_13_iii_a_draw_moves_nothing(reformed: list[str]) -> None:
    state, view = scenario_13()
    assert opened(view)
    capture_mails(view, "DRAW")
    assert state.artefacts["Medallion of Life"] == Holding("b", "B1", "U2")
