"""Step A.3: challenges, Diplomacy, teams and break-ups, the battle list (COC-CHL, SC-4)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.conquest import challenges
from pbem.rulesets.conquest.challenges import ChallengeEntry as C
from pbem.rulesets.conquest.model import EventPick, Siege

from .helpers import book, graph_map, line, state_of

RULES = book()
TILES = [f"T{i}" for i in range(1, 41)]
GMAP = graph_map({t: "countryside" for t in TILES}, line(*TILES))


def sc4(**lists: list[C]):  # type: ignore[no-untyped-def]
    state = state_of(GMAP, ["andy", "phil", "max", "bob"])
    state.round.events = [EventPick("bob", "diplomacy", "max")]
    return state


def battles(state, lists, choices=None, rules=RULES, dice=None, sea=None, assaults=None):  # type: ignore[no-untyped-def]
    out = challenges.run_challenges(state, rules, lists, sea or {}, assaults or {}, choices or {},
                                    dice or ScriptedDice([]))
    return [(b.id, b.kind, b.attackers, b.defenders) for b in out]


@pytest.mark.clause("COC-CHL-1", "COC-CHL-2", "COC-CHL-3", "COC-CHL-4", "COC-CHL-5", "COC-CHL-8", "COC-CHL-9",
                    "COC-CHL-10", "COC-CHL-11", "COC-CHL-14", "COC-CHL-17", "COC-EVT-16")
def test_sc4_diplomacy_team_forming_and_break_up() -> None:
    state = sc4()
    lists = {"andy": [C("bob")], "phil": [C("bob")], "max": [C("bob"), C("phil")], "bob": [C("andy")]}
    assert battles(state, lists) == [("B1", "land", ["andy"], ["bob"]), ("B2", "land", ["max"], ["phil"])]
    made = [(c.challenger, c.target, c.broke_team) for c in state.round.challenges]
    assert made == [("andy", "bob", False), ("phil", "bob", False), ("max", "phil", True)]


@pytest.mark.clause("COC-CHL-6", "COC-CHL-7", "COC-CHL-16")
def test_sc4_variant_no_break_leaves_max_without_challenge_and_bob_fights_the_team() -> None:
    state = sc4()
    lists = {"andy": [C("bob")], "phil": [C("bob")], "max": [C("bob"), C("phil", no_break=True)], "bob": [C("andy")]}
    assert battles(state, lists) == [("B1", "team", ["andy", "phil"], ["bob"])]
    assert state.round.missed_challenges == []      # max sent a list; none of it was legal (COC-CHL-15)


@pytest.mark.clause("COC-CHL-6", "COC-CHL-18")
def test_individual_choice_gives_one_battle_per_challenger() -> None:
    state = state_of(GMAP, ["a", "b", "c", "d"])
    lists = {"a": [C("d")], "b": [C("d")], "c": [C("d")]}
    assert battles(state, lists, {"d": "individual"}) == [
        ("B1", "land", ["a"], ["d"]), ("B2", "land", ["b"], ["d"]), ("B3", "land", ["c"], ["d"])]
    state = state_of(GMAP, ["a", "b", "c", "d"])
    assert battles(state, lists) == [("B1", "team", ["a", "b", "c"], ["d"])]


@pytest.mark.clause("COC-CHL-12", "COC-CHL-13")
def test_lone_challenger_challenged_fights_both_by_default() -> None:
    state = state_of(GMAP, ["a", "b", "c"])
    lists = {"a": [C("c")], "b": [C("a")], "c": [C("b")]}
    assert battles(state, lists) == [("B1", "land", ["a"], ["c"]), ("B2", "land", ["b"], ["a"])]


@pytest.mark.clause("COC-CHL-13")
def test_lone_challenger_redirect_and_forbidden_options() -> None:
    lists = {"a": [C("c")], "b": [C("a"), C("c")]}
    state = state_of(GMAP, ["a", "b", "c"])
    assert battles(state, lists, rules=book(challenge={"lone_challenger_challenged": "redirect"})) == [
        ("B1", "land", ["b"], ["a"])]
    state = state_of(GMAP, ["a", "b", "c"])
    assert battles(state, lists, rules=book(challenge={"lone_challenger_challenged": "forbidden"})) == [
        ("B1", "team", ["a", "b"], ["c"])]


@pytest.mark.clause("COC-CHL-12")
def test_broken_away_member_counts_as_challenged_and_can_be_joined() -> None:
    state = state_of(GMAP, ["a", "b", "c", "d", "e"])
    lists = {"a": [C("e")], "b": [C("e")], "c": [C("b")], "d": [C("b")]}
    assert battles(state, lists) == [("B1", "land", ["a"], ["e"]), ("B2", "team", ["c", "d"], ["b"])]


@pytest.mark.clause("COC-CHL-14")
def test_only_if_unchallenged_and_no_join_limits() -> None:
    state = state_of(GMAP, ["a", "b", "c", "d"])
    lists = {"a": [C("d")], "b": [C("d", only_if_unchallenged=True), C("c")], "c": [C("d", no_join=True)]}
    assert battles(state, lists) == [("B1", "land", ["a"], ["d"]), ("B2", "land", ["b"], ["c"])]


@pytest.mark.clause("COC-CHL-15")
def test_silent_players_issue_no_challenge_or_a_random_one() -> None:
    state = state_of(GMAP, ["a", "b", "c"])
    assert battles(state, {"a": [C("a")]}) == []
    assert state.round.missed_challenges == ["b", "c"]
    state = state_of(GMAP, ["a", "b", "c"])
    dice = ScriptedDice([2, 1])
    assert battles(state, {}, rules=book(challenge={"fallback": "random"}), dice=dice) == [
        ("B1", "land", ["a"], ["c"]), ("B2", "land", ["b"], ["a"])]
    assert [r.purpose for r in dice.log] == ["Random challenge by a", "Random challenge by b"]


@pytest.mark.clause("COC-CHL-4", "COC-GEN-9")
def test_eliminated_players_cannot_be_challenged() -> None:
    state = state_of(GMAP, ["a", "b", "c"])
    state.empires["c"].eliminated = True
    assert battles(state, {"a": [C("c"), C("b")]}) == [("B1", "land", ["a"], ["b"])]


@pytest.mark.clause("COC-NAV-3", "COC-SIE-9", "COC-SIE-13")
def test_sea_challenges_on_their_own_track_then_siege_assaults() -> None:
    rules = book(naval={"enabled": True, "players": ["a", "b", "c"]}, siege={"enabled": True})
    state = state_of(GMAP, ["a", "b", "c"])
    state.tiles["T5"].owner = "c"
    state.sieges.append(Siege("T5", "c", "b", 1))
    out = battles(state, {"a": [C("b")]}, rules=rules, sea={"a": [C("c")], "b": [C("c")], "c": [C("a")]},
                  assaults={"c": ["T5"], "a": ["T5"]})
    assert out == [("B1", "land", ["a"], ["b"]), ("B2", "sea", ["a", "b"], ["c"]), ("B3", "siege", ["c"], ["b"])]
    assert state.round.assaults == ["T5"] and state.sieges[0].assault_round == 1
