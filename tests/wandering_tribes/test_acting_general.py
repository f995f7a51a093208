"""WT-BAT-17: a stack without General fights under its character with the highest command value;
the owner settles a tie in his battle report (GENERAL <battle> <marker>), a choice outside the tie
is refused in the ack, without one the lowest marker id acts, and the choice is kept and used."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.wandering_tribes.battle_orders import read, settle
from pbem.rulesets.wandering_tribes.battle_results import Report, generals_lost, resolve
from pbem.rulesets.wandering_tribes.battle_setup import LOCKED, Battle
from pbem.rulesets.wandering_tribes.briefing import briefing
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap
from tests.wandering_tribes.helpers import grid, lock, put, rules, world

FULL = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"]


def _pair() -> tuple[SquareMap, Rules, State, Battle]:
    """Anna's A1 has a General (m1..m6); Ben's B1 has none: Wizard m7, Heroes m8 and m9 (tied), m10."""
    gmap, book = grid(3, 3), rules()
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", FULL)
    put(state, book, "B1", "Ben", "T5", ["Wizard", "Hero", "Hero", "Halberdiers"])
    lock(state, "A1", "B1")
    return gmap, book, state, Battle(1, LOCKED, "T5", "A1", "B1")


def _lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text.strip().splitlines(), 1)]


@pytest.mark.clause("WT-BAT-17")
def test_wt_bat_17_the_owner_names_his_acting_general_among_the_tied_characters() -> None:
    _gmap, book, state, battle = _pair()
    reading = read(state, book, [battle], "Ben", _lines("RESULT 1 DRAW\nGENERAL 1 m9"))
    assert reading.problems == [] and reading.reports[1].general == {"Ben": "m9"}
    short = read(state, book, [battle], "Ben", _lines("RESULT 1 DRAW\nGENERAL M8"))     # battle number optional
    assert short.problems == [] and short.reports[1].general == {"Ben": "m8"}


@pytest.mark.clause("WT-BAT-17")
def test_wt_bat_17_a_choice_outside_the_tie_is_refused_with_its_own_ack_line() -> None:
    _gmap, book, state, battle = _pair()
    wizard = read(state, book, [battle], "Ben", _lines("RESULT 1 DRAW\nGENERAL 1 m7"))
    assert [str(p) for p in wizard.problems] == [
        "line 2: m7 cannot act as General of B1: choose one of the characters tied for the highest "
        "command value (m8, m9) (WT-BAT-17)"]
    assert wizard.reports[1].general == {}
    unit = read(state, book, [battle], "Ben", _lines("RESULT 1 DRAW\nGENERAL 1 m10"))
    assert "m10 cannot act as General of B1" in str(unit.problems[0])
    has_general = read(state, book, [battle], "Anna", _lines("RESULT 1 DRAW\nGENERAL 1 m2"))
    assert "A1 has a General marker" in str(has_general.problems[0]) and has_general.reports[1].general == {}


@pytest.mark.clause("WT-BAT-17")
def test_wt_bat_17_the_briefing_says_the_choice_exists_and_how_to_write_it() -> None:
    gmap, book, state, battle = _pair()
    text = "\n".join(briefing(state, book, gmap, battle, "Friday 22:00"))
    assert "m8 and m9 tie for the highest command value: Ben names the acting General among them" in text
    assert "without it m8, the lowest marker id, acts" in text
    assert "GENERAL 1 <m8 or m9>" in text


@pytest.mark.clause("WT-BAT-17")
def test_wt_bat_17_the_choice_is_kept_through_settling_and_named_in_the_battle_log() -> None:
    gmap, book, state, battle = _pair()
    anna, ben = Report("Anna"), Report("Anna", general={"Ben": "m9"})
    merged, _ = settle(book, {"Anna": anna, "Ben": ben})
    assert merged is not None and merged.general == {"Ben": "m9"}
    _, log = resolve(state, book, gmap, battle, merged, ScriptedDice([1]))
    assert "B1 of Ben fought under m9 as acting General (his choice, WT-BAT-17)" in log
    _, log = resolve(state, book, gmap, battle, Report("Anna"), ScriptedDice([1]))
    assert "B1 of Ben fought under m8 as acting General (the lowest marker id, WT-BAT-17)" in log


@pytest.mark.clause("WT-BAT-17")
def test_wt_bat_17_a_winner_whose_acting_general_was_lost_goes_to_the_gm() -> None:
    _gmap, book, state, battle = _pair()
    chose_m9 = {"Ben": "m9"}
    assert "acting General m9 was lost" in generals_lost(state, book, battle, Report("Ben", lost={"Ben": ["m9"]},
                                                                                     general=chose_m9))
    assert generals_lost(state, book, battle, Report("Ben", lost={"Ben": ["m8"]}, general=chose_m9)) == ""
    assert "acting General m8 was lost" in generals_lost(state, book, battle, Report("Ben", lost={"Ben": ["m8"]}))
