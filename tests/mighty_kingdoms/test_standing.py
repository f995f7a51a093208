"""Standing preferences (MK-PBM-5): BATTLE, SLAUGHTER, RETREAT, WINMOVE and REFORM lines."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.orders import OrderProblem
from pbem.rulesets.mighty_kingdoms import standing
from pbem.rulesets.mighty_kingdoms.model import MKState, MKView
from tests.mighty_kingdoms.helpers_battle import army, board, player, state_of, view_of


def setting() -> tuple[MKState, MKView]:
    state = state_of(["a", "b"], {"T1": "a", "T2": "b", "T3": "a"})
    army(state, "A1", "T1")
    army(state, "A2", "T3")
    army(state, "B1", "T2")
    army(state, "B2", "T2")
    return state, view_of(state, board([("T1", "T2"), ("T2", "T3")]))


def read(view: MKView, line: str, pid: str = "a") -> dict[str, Any]:
    verb, *words = line.split()
    return standing.parse(view, player(pid), verb.upper(), words)


def refused(view: MKView, line: str) -> str:
    with pytest.raises(OrderProblem) as caught:
        read(view, line)
    return str(caught.value)


def test_mk_pbm_5_each_verb_reads_back_to_its_canonical_line() -> None:
    _, view = setting()
    for line, canonical in (("BATTLE t2 Blue, * *", "BATTLE T2 b, * *"), ("SLAUGHTER b2, B1", "SLAUGHTER B2, B1"),
                            ("RETREAT a1 T3, T1", "RETREAT A1 T3, T1"), ("RETREAT * CLEAR", "RETREAT * CLEAR"),
                            ("WINMOVE A2 T2", "WINMOVE A2 T2"), ("WINMOVE none", "WINMOVE NONE"),
                            ("REFORM A1.U2 2=Brutal scar0=ra", "REFORM A1.U2 2=brutal scar0=ra")):
        assert standing.canonical(read(view, line)) == canonical


def test_mk_pbm_5_preferences_stay_until_replaced_or_cleared() -> None:
    state, view = setting()
    standing.apply(state, "a", {"standing": [read(view, "BATTLE T2 b"), read(view, "RETREAT A1 T3"),
                                             read(view, "REFORM A1.U1 4=vicious 6=ra")]})
    standing.apply(state, "a", {"standing": [read(view, "WINMOVE A2 T2")]})      # a later window's mail
    kept = state.kingdoms["a"].standing
    assert kept.battles == ["T2 b"] and kept.retreats == {"A1": ["T3"]} and kept.win_move == "A2 T2"
    assert kept.reform == {"A1.U1": {"4": "vicious", "6": "ra"}}
    standing.apply(state, "a", {"standing": [read(view, "BATTLE CLEAR"), read(view, "RETREAT A1 CLEAR"),
                                             read(view, "REFORM A1.U1 5=piercing")]})
    assert kept.battles == [] and kept.retreats == {} and kept.reform == {"A1.U1": {"5": "piercing"}}
    assert standing.described(state.kingdoms["a"]) == ["WINMOVE A2 T2", "REFORM A1.U1 5=piercing"]


def test_mk_pbm_5_bad_preferences_are_refused_with_reasons() -> None:
    _, view = setting()
    assert refused(view, "BATTLE T2 Red") == "you cannot choose to fight your own kingdom"
    assert refused(view, "BATTLE T2") == "“T2” needs a tile and a kingdom, like `T5 B` or `* B`"
    assert refused(view, "SLAUGHTER A1") == "A1 is your own army; name an enemy army"
    assert refused(view, "RETREAT B1 T1").startswith("B1 is not your army; yours are A1, A2")
    assert refused(view, "WINMOVE A9 T2") == "there is no army “A9”; yours are A1, A2"
    assert refused(view, "RETREAT A1 T9").startswith("unknown tile “T9”")


def test_mk_pbm_6_reform_choices_are_checked_against_the_medal_and_scar_tables() -> None:
    _, view = setting()
    assert standing.reform_options(view.rules) == {"2": ("brutal", "headstrong"), "4": ("elite", "vicious"),
                                                   "5": ("crushing_strength", "piercing"), "6": ("me", "ra"),
                                                   "scar0": ("me", "ra")}
    assert read(view, "REFORM A1.U2 2=brutal 4=elite 5=piercing 6=ra scar0=me")["choices"] == {
        "2": "brutal", "4": "elite", "5": "piercing", "6": "ra", "scar0": "me"}
    assert refused(view, "REFORM A1.U2 3=nerve").startswith("“3=nerve” is not a reform choice")
    assert refused(view, "REFORM A1.U2 2=elite") == "result 2 offers brutal or headstrong, not “elite”"
    assert refused(view, "REFORM A1.U9 2=brutal") == "A1 has no unit U9; its units are U1, U2"
    assert refused(view, "REFORM B1.U1 2=brutal").startswith("B1 is not your army")


def test_mk_pbm_5_apply_reads_a_list_of_entries_or_a_single_one() -> None:
    state, view = setting()
    standing.apply(state, "a", {"standing": read(view, "WINMOVE A2 T2")})
    assert state.kingdoms["a"].standing.win_move == "A2 T2"
    standing.apply(state, "a", {"orders": []})
    assert state.kingdoms["a"].standing.win_move == "A2 T2"
