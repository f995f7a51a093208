"""The battle-report window and what the reports do (WT-PBEM-11, WT-RES-1..7, 15, WT-BAT-11, 17, 18)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.wandering_tribes.battle_orders import read, settle
from pbem.rulesets.wandering_tribes.battle_results import Report, resolve
from pbem.rulesets.wandering_tribes.battle_setup import LOCKED, Battle, setup
from pbem.rulesets.wandering_tribes.briefing import briefing
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap
from tests.wandering_tribes.helpers import grid, lock, put, rules, world

FULL = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"]


def _pair() -> tuple[SquareMap, Rules, State, Battle]:
    gmap, book = grid(3, 3, terrain={"T5": "woods"}), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", FULL)
    put(state, book, "B1", "Ben", "T5", FULL)
    lock(state, "A1", "B1")
    return gmap, book, state, Battle(1, LOCKED, "T5", "A1", "B1")


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text.strip().splitlines(), 1)]


@pytest.mark.clause("WT-PBEM-11", "WT-RES-1")
def test_wt_pbem_11_a_battle_report_with_result_losses_and_conditional_orders_is_read() -> None:
    _gmap, book, state, battle = _pair()
    reading = read(state, book, [battle], "Anna", _lines("""
        RESULT 1 WINNER Anna
        WITHDRAWN Ben
        LOST Ben m9, m10
        LOST Anna m5
        IFWIN RECRUIT 1 Halberdiers
        IFLOSE 1 RETREAT S, E
    """))
    assert reading.problems == []
    report = reading.reports[1]
    assert (report.winner, report.withdrawn, report.lost) == ("Anna", ["Ben"], {"Ben": ["m9", "m10"], "Anna": ["m5"]})
    assert report.ifwin == {"Anna": [("Halberdiers", 1)]} and report.iflose == {"Anna": ["S", "E"]}


@pytest.mark.clause("WT-RES-3", "WT-RES-4")
def test_wt_res_4_a_withdrawn_winner_or_a_foreign_marker_is_refused_in_the_ack() -> None:
    _gmap, book, state, battle = _pair()
    text_in = "RESULT 1 WINNER Ben\nWITHDRAWN Ben\nLOST Ben m1\nRESULT 7 DRAW"
    reading = read(state, book, [battle], "Ben", _lines(text_in))
    text = " | ".join(str(p) for p in reading.problems)
    assert "not one of your battles" in text and "withdrew can never win" in text and "m1 is not a marker" in text


@pytest.mark.clause("WT-RES-2")
def test_wt_res_2_agreeing_reports_stand_disagreeing_ones_go_to_the_gm_and_a_single_one_stands() -> None:
    book = rules()
    anna = Report("Anna", lost={"Ben": ["m9"]}, ifwin={"Anna": [("Halberdiers", 1)]})
    ben = Report("Anna", lost={"Ben": ["m9"]}, iflose={"Ben": ["S"]})
    merged, why = settle(book, {"Anna": anna, "Ben": ben})
    assert merged is not None and not why and merged.ifwin == anna.ifwin and merged.iflose == ben.iflose
    assert settle(book, {"Anna": anna, "Ben": Report("Ben")})[0] is None
    assert settle(book, {"Anna": anna})[0] is not None
    assert settle(rules(**{"battle_report.single_report": "gm"}), {"Anna": anna})[0] is None
    assert settle(book, {})[1].startswith("nobody reported")


@pytest.mark.clause("WT-RES-5", "WT-RES-6", "WT-RES-7")
def test_wt_res_6_destroyed_units_and_killed_characters_leave_and_the_rest_are_whole() -> None:
    gmap, book, state, battle = _pair()
    before = {m.id: m for m in state.stacks["B1"].markers}
    report = Report("Anna", lost={"Ben": ["m8", "m9"]}, iflose={"Ben": ["S"]})
    after, _ = resolve(state, book, gmap, battle, report, ScriptedDice())
    kept = after.stacks["B1"].markers
    assert [m.id for m in kept] == ["m7", "m10", "m11", "m12"] and all(m == before[m.id] for m in kept)
    keep_chars = rules(**{"battle.character_killed_removes_marker": False})
    after2, _ = resolve(state, keep_chars, gmap, battle, report, ScriptedDice())
    assert [m.id for m in after2.stacks["B1"].markers] == ["m7", "m8", "m10", "m11", "m12"]


@pytest.mark.clause("WT-RES-15")
def test_wt_res_15_an_earlier_battles_retreat_fills_the_tile_a_later_loser_wanted() -> None:
    gmap, book = grid(3, 3), rules()
    state = world({"Anna": "empire", "Ben": "empire", "Cara": "empire", "Dan": "empire"})
    for sid, owner, tile in (("A1", "Anna", "T4"), ("B1", "Ben", "T4"), ("C1", "Cara", "T6"), ("D1", "Dan", "T6")):
        put(state, book, sid, owner, tile, FULL)
    lock(state, "A1", "B1")
    lock(state, "C1", "D1")
    battles, _ = setup(state, book, gmap, ScriptedDice())
    assert [b.tile for b in battles] == ["T4", "T6"]
    state, _ = resolve(state, book, gmap, battles[0], Report("Anna", iflose={"Ben": ["E"]}), ScriptedDice())
    state, _ = resolve(state, book, gmap, battles[1], Report("Cara", iflose={"Dan": ["W", "N"]}), ScriptedDice())
    assert state.stacks["B1"].tile == "T5" and state.stacks["D1"].tile == "T3"


@pytest.mark.clause("WT-BAT-11", "WT-BAT-17", "WT-BAT-18")
def test_wt_bat_17_the_briefing_lists_every_marker_names_the_acting_general_and_the_victory_rule() -> None:
    gmap, book = grid(3, 3, terrain={"T5": "woods"}), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", FULL)
    put(state, book, "B1", "Ben", "T5", ["Wizard", "Hero", "Hero", "Halberdiers"])
    lock(state, "A1", "B1")
    text = "\n".join(briefing(state, book, gmap, Battle(1, LOCKED, "T5", "A1", "B1"), "Friday 22:00"))
    for marker in state.stacks["A1"].markers + state.stacks["B1"].markers:
        assert f"{marker.id} {marker.type} ({marker.points} pts)" in text
    assert "No General marker: m8 acts as General" in text          # the first of two Heroes (command 8)
    assert "A1 (Anna, Empire), 405 pts" in text and "an army that withdrew can never win" in text
    assert "terrain woods" in text and "Report by Friday 22:00" in text
