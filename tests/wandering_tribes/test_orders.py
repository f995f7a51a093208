"""Strategic orders by mail (WT-PBEM-1/2, WT-SET-1): every part of the conditional order read,
every faulty line refused with its reason and a suggestion, nothing refused kept."""

from __future__ import annotations

import pytest

from pbem.rulesets.wandering_tribes.orders import Context, canonical_lines, read
from pbem.rulesets.wandering_tribes.plan import ALWAYS, PASS, STOP_AT
from tests.wandering_tribes.helpers import grid, put, rules, world

EIGHT = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen", "Knights", "Pistoliers"]


def _ctx(mode: str = "together") -> Context:
    book = rules(**{"campaign.mode": mode})
    state = world({"Anna": "empire", "Ben": "empire"})
    put(state, book, "A1", "Anna", "T5", EIGHT)
    put(state, book, "B1", "Ben", "T9", EIGHT)
    return Context(state, book, grid(4, 4), "Anna")


def _read(text: str, mode: str = "together") -> tuple[object, list[str]]:
    lines = [(n, line) for n, line in enumerate(text.strip().splitlines(), 1)]
    reading = read(_ctx(mode), lines)
    return reading, [str(p) for p in reading.problems]


@pytest.mark.clause("WT-PBEM-1", "WT-PBEM-2", "WT-REST-1", "WT-DIV-2", "WT-PBEM-7", "WT-PBEM-8", "WT-PBEM-9",
                    "WT-CMB-8", "WT-ROAD-4", "WT-REC-9")
def test_wt_pbem_1_a_whole_conditional_order_is_read_and_written_back_canonically() -> None:
    reading, problems = _read("""
        REST NO
        DIVIDE A1 INTO A1:m1,m3,m5,m7 A1b:m2,m4,m6,m8
        TRY A1b ALWAYS FIRST E,S ROUTE T6,T7 FORK T7:S,E DEFAULT N,E CAMPFIRE STOP-AT:T7
        TRY A1 UNTIL-SUCCESS CAMPFIRE PASS
        RECRUIT ALL towns: 2 Halberdiers, 1 Knights
        RECRUIT A1b plains: 1 Pistoliers
        REMOVE A1 Crossbowmen, m8
    """)
    assert problems == []
    orders = reading.orders  # type: ignore[attr-defined]
    assert not orders.rest and orders.divisions[0].parts[1] == ("A1b", ["m2", "m4", "m6", "m8"])
    first = orders.attempts[0]
    assert (first.mode, first.first, first.route, first.forks, first.default, first.campfire, first.stop_at) == (
        ALWAYS, ["E", "S"], ["T6", "T7"], {"T7": ["S", "E"]}, ["N", "E"], STOP_AT, ["T7"])
    assert orders.attempts[1].campfire == PASS
    assert orders.picks("A1", "towns") == [("Halberdiers", 2), ("Knights", 1)]
    assert orders.picks("A1b", "plains") == [("Pistoliers", 1)]
    assert orders.removals(["A1"]) == ["Crossbowmen", "m8"]
    assert canonical_lines(orders)[2] == ("TRY A1b ALWAYS FIRST E,S ROUTE T6,T7 FORK T7:S,E DEFAULT N,E "
                                          "CAMPFIRE STOP-AT:T7")


@pytest.mark.clause("WT-PBEM-2", "WT-DIV-5", "WT-NAT-7")
def test_wt_pbem_2_faulty_lines_are_refused_with_reasons_and_suggestions() -> None:
    reading, problems = _read("""
        TRY B1 ALWAYS
        TRY A2 ALWAYS
        TRI A1 ALWAYS
        RECRUIT A1 desert: 1 Halberdiers
        RECRUIT A1 towns: 1 Halberdier
        DIVIDE A1 INTO A1:m1,m2 A1c:m3,m4,m5,m6,m7,m8
        TRY A1 ALWAYS ROUTE T8
        VOLUNTEER YES
        REMOVE A1 Crosbowmen
        TRY A1 ALWAYS FIRST X
    """)
    assert problems[0].startswith("line 1: B1 is Ben's stack, not yours")
    assert problems[1] == "line 2: A2 is not one of your stacks (A1)"
    assert "(did you mean TRY?)" in problems[2]
    assert "cannot be recruited in desert" in problems[3]
    assert "(did you mean Halberdiers?)" in problems[4]
    assert "2 markers" in problems[5] and "no character" in problems[5]
    assert "T8 is not next to T5" in problems[6]
    assert "VOLUNTEER is for mode one_on_one" in problems[7]
    assert "(did you mean Crossbowmen?)" in problems[8]
    assert "directions are N, E, S, W" in problems[9]
    assert reading.orders.attempts == [] and reading.orders.recruit == {}  # type: ignore[attr-defined]


@pytest.mark.clause("WT-PBEM-13")
def test_wt_pbem_13_volunteer_is_read_in_mode_one_on_one() -> None:
    reading, problems = _read("VOLUNTEER YES", mode="one_on_one")
    assert problems == [] and reading.orders.volunteer is True  # type: ignore[attr-defined]
