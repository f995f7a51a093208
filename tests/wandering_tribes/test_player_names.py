"""Players are shown by their names in what players read (reports, briefings, the ranking), while
the rules' log and the dice purposes keep the ids: a purpose seeds its roll, so it never changes.
A battle report may name a player by id or by that name."""

from __future__ import annotations

from pbem.rulesets.wandering_tribes.battle_orders import read
from pbem.rulesets.wandering_tribes.battle_setup import LOCKED, Battle
from pbem.rulesets.wandering_tribes.texts import named
from tests.wandering_tribes.helpers import lock, put, rules, world

NAMES = {"anna": "Anna Schmidt", "ben": "Ben", "an": "Annette"}


def test_ids_standing_as_words_are_shown_as_names_and_nothing_else_changes() -> None:
    lines = ["order roll, round 1: ben 10, anna 10", "anna is first with 9 (odd); sequence anna, ben",
             "B1 meets anna's A1 in T3", "annabel and banner and an-other stay", "an rests"]
    assert named(NAMES, lines) == ["order roll, round 1: Ben 10, Anna Schmidt 10",
                                   "Anna Schmidt is first with 9 (odd); sequence Anna Schmidt, Ben",
                                   "B1 meets Anna Schmidt's A1 in T3", "annabel and banner and an-other stay",
                                   "Annette rests"]


def test_a_battle_report_names_players_by_id_or_by_their_shown_name() -> None:
    book = rules()
    state = world({"anna": "empire", "ben": "empire"})
    put(state, book, "A1", "anna", "T5", ["General", "Halberdiers", "Halberdiers"])
    put(state, book, "B1", "ben", "T5", ["General", "Halberdiers", "Halberdiers"])
    lock(state, "A1", "B1")
    battle = Battle(1, LOCKED, "T5", "A1", "B1")
    text = "RESULT 1 WINNER Anna Schmidt\nWITHDRAWN ben\nLOST Anna Schmidt m2, m3\nLOST BEN m5"
    reading = read(state, book, [battle], "ben", list(enumerate(text.splitlines(), 1)), NAMES)
    assert reading.problems == []
    report = reading.reports[1]
    assert (report.winner, report.withdrawn, report.lost) == ("anna", ["ben"], {"anna": ["m2", "m3"], "ben": ["m5"]})
    wrong = read(state, book, [battle], "ben", [(1, "RESULT 1 WINNER Zoe")], NAMES)
    assert "Zoe is not a player of the campaign (Anna Schmidt, Ben)" in str(wrong.problems[0])
