"""Every option key of rules/conquest.toml: each documented value behaves as documented, bad values are refused."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.hexes import hexmap_from_dict
from pbem.kit.rulebook import RulesError
from pbem.kit.territories import MapError
from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.conquest import challenges, order, tiles
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.challenges import ChallengeEntry as C
from pbem.rulesets.conquest.model import (
    DRAW,
    LOSE,
    MAJOR,
    MASSACRE,
    MINOR,
    EPAward,
    Siege,
)
from pbem.rulesets.conquest.outcomes import ResultRules, SideFacts, classify
from pbem.rulesets.conquest.parse import Reader, parse_campaign
from pbem.rulesets.conquest.spending import Action, run_spending

from .helpers import book, graph_map, line, state_of

TILES = [f"T{i}" for i in range(1, 21)]
GMAP = graph_map({t: "countryside" for t in TILES}, line(*TILES))


# -- the rule book refuses what it cannot play --------------------------------------------

@pytest.mark.parametrize(("override", "wanted"), [
    ({"results": {"surrender": "forfeit"}}, "'results.surrender'"),
    ({"results": {"equal_vp": "attacker"}}, "'results.equal_vp'"),
    ({"results": {"team_general_killed_cap": "loss"}}, "'results.team_general_killed_cap'"),
    ({"battle": {"size_disagreement": "average"}}, "'battle.size_disagreement'"),
    ({"battle": {"unreported_result": "draw"}}, "'battle.unreported_result'"),
    ({"buildings": {"max_per_tile": 2}}, "'buildings.max_per_tile' is 2"),
    ({"siege": {"assaults_per_round": 0}}, "'siege.assaults_per_round' is 0"),
    ({"raid": {"multiplier": 2.5}}, "'raid.multiplier'"),
    ({"size": {"tiebreaks": ["cities", "die", "castles"]}}, "'size.tiebreaks'"),
    ({"size": {"tiebreaks": ["cities", "castles"]}}, "'size.tiebreaks'"),
    ({"campaign": {"phases": ["revenue", "events", "challenge", "battle", "conquest_build"]}}, "'campaign.phases'"),
    ({"terrain": {"types": ["countryside", "sea"]}}, "'terrain.types'"),
    ({"buildings": {"castle": {"allowed_terrain": ["swamp"]}}}, "'buildings.castle.allowed_terrain' names 'swamp'"),
    ({"plunder": {"blocked_by": ["tower"]}}, "'plunder.blocked_by' names 'tower'"),
    ({"events": {"disaster_destroy_on": [7]}}, "'events.disaster_destroy_on'"),
    ({"abstract": {"dice": "2d1"}}, "'abstract.dice'"),
    ({"challenge": {"mandatory": False, "fallback": "random"}}, "'challenge.fallback' = 'random'"),
    ({"buildings": {"castle": {"conquer_extra": 2}}}, "unknown key 'buildings.castle.conquer_extra'"),
    ({"buildings": {"castle": {"guards_gold": 30}}}, "unknown key 'buildings.castle.guards_gold'"),
    ({"buildings": {"city": {"size_weight": 3}}}, "unknown key 'buildings.city.size_weight'"),
    ({"generals_abilities": [{"key": "k", "name": "K", "uses_per_battle": 0, "effect": "e"}]},
     "generals_abilities entry 1"),
])
@pytest.mark.clause("COC-GEN-1")
def test_rules_refuse_values_outside_the_documented_choices(override: dict[str, Any], wanted: str) -> None:
    with pytest.raises(RulesError) as refused:
        rulesmod.load(override)
    assert any(wanted in p for p in refused.value.problems), refused.value.problems


def test_every_documented_choice_loads() -> None:
    for key, allowed in rulesmod.CHOICES.items():
        section, _, name = key.rpartition(".")
        for value in allowed:
            override: dict[str, Any] = {}
            node = override
            for part in section.split("."):
                node = node.setdefault(part, {})
            node[name] = value
            rulesmod.load(override)


# -- challenge.mandatory and naval.sea_challenge_mandatory ----------------------------------

def run(state, rules, lists=None, sea=None, assaults=None, consent=None, dice=()):  # type: ignore[no-untyped-def]
    out = challenges.run_challenges(state, rules, lists or {}, sea or {}, assaults or {}, {}, ScriptedDice(dice),
                                    consent or {})
    return [(b.id, b.kind, b.attackers, b.defenders) for b in out]


@pytest.mark.clause("COC-CHL-1", "COC-CHL-15")
def test_coc_chl_1_mandatory_challenge_logs_a_missed_obligation_optional_does_not() -> None:
    state = state_of(GMAP, ["a", "b", "c"])
    assert run(state, book(), {"a": [C("b")]}) == [("B1", "land", ["a"], ["b"])]
    assert state.round.missed_challenges == ["c"]            # b was challenged; c owed one and sent nothing
    state = state_of(GMAP, ["a", "b", "c"])
    run(state, book(challenge={"mandatory": False}), {"a": [C("b")]})
    assert state.round.missed_challenges == []


@pytest.mark.clause("COC-CHL-15")
def test_coc_chl_15_random_fallback_challenges_for_a_silent_player_when_mandatory() -> None:
    state = state_of(GMAP, ["a", "b", "c"])
    out = run(state, book(challenge={"fallback": "random"}), {"a": [C("b")]}, dice=[1])
    assert out == [("B1", "land", ["a"], ["b"]), ("B2", "land", ["c"], ["a"])]


@pytest.mark.clause("COC-NAV-3")
def test_coc_nav_3_sea_challenges_optional_by_default_mandatory_when_configured() -> None:
    naval = {"enabled": True, "players": ["a", "b", "c"]}
    state = state_of(GMAP, ["a", "b", "c"])
    assert run(state, book(naval=naval), sea={"a": [C("b")]}) == [("B1", "sea", ["a"], ["b"])]
    assert state.round.missed_sea_challenges == []
    state = state_of(GMAP, ["a", "b", "c"])
    run(state, book(naval={**naval, "sea_challenge_mandatory": True}), sea={"a": [C("b")]})
    assert state.round.missed_sea_challenges == ["c"]
    state = state_of(GMAP, ["a", "b", "c"])
    out = run(state, book(naval={**naval, "sea_challenge_mandatory": True}, challenge={"fallback": "random"}),
              lists={"a": [C("b")], "b": [C("c")], "c": [C("a")]}, sea={"a": [C("b")]}, dice=[2])
    assert out[2:] == [("B3", "sea", ["a", "c"], ["b"])]     # c drew b, the second legal sea target, and joins a


# -- siege.assaults_per_round, assault_needs_consent, assault_is_challenge ------------------

def besieged(**siege: Any):  # type: ignore[no-untyped-def]
    rules = book(siege={"enabled": True, **siege})
    state = state_of(GMAP, ["a", "b", "c"])
    state.tiles["T5"].owner, state.tiles["T5"].building = "a", "castle"
    state.sieges.append(Siege("T5", "a", "b", 1))
    return state, rules


@pytest.mark.clause("COC-SIE-9")
def test_coc_sie_9_one_assault_per_siege_and_round_unless_configured() -> None:
    state, rules = besieged()
    assert [b[1] for b in run(state, rules, assaults={"a": ["T5", "T5"]})] == ["siege"]
    state, rules = besieged(assaults_per_round=2)
    assert [b[1:] for b in run(state, rules, assaults={"a": ["T5", "T5", "T5"]})] == [
        ("siege", ["a"], ["b"]), ("siege", ["a"], ["b"])]
    reader = Reader(state, GMAP, rules, "a")
    parsed = parse_campaign(reader, [(1, "ASSAULT T5"), (2, "ASSAULT T5"), (3, "ASSAULT T5")], True)
    assert parsed.payload["assaults"] == ["T5", "T5"]
    assert [p.line_no for p in parsed.problems] == [3] and "siege.assaults_per_round" in parsed.problems[0].reason


@pytest.mark.clause("COC-SIE-9")
def test_coc_sie_9_assault_needs_fresh_consent_only_when_configured() -> None:
    state, rules = besieged(assault_needs_consent=True)
    assert run(state, rules, assaults={"a": ["T5"]}) == []
    assert "did not consent" in state.round.log[-1]
    state, rules = besieged(assault_needs_consent=True)
    parsed = parse_campaign(Reader(state, GMAP, rules, "b"), [(1, "CONSENT A")], True)
    assert parsed.payload == {"assault_consent": ["a"]}
    assert run(state, rules, assaults={"a": ["T5"]}, consent=parsed.payload and {"b": ["a"]}) == [
        ("B1", "siege", ["a"], ["b"])]
    state, rules = besieged()
    refused = parse_campaign(Reader(state, GMAP, rules, "b"), [(1, "CONSENT A")], True)
    assert "assault_needs_consent = false" in refused.problems[0].reason


@pytest.mark.clause("COC-SIE-13")
def test_coc_sie_13_assault_is_no_challenge_by_default_or_the_besiegers_challenge() -> None:
    lists = {"a": [C("c")], "b": [C("c")]}
    state, rules = besieged()
    out = run(state, rules, lists, assaults={"a": ["T5"]})
    assert out == [("B1", "team", ["a", "b"], ["c"]), ("B2", "siege", ["a"], ["b"])]
    state, rules = besieged(assault_is_challenge=True)
    out = run(state, rules, lists, assaults={"a": ["T5"]})
    assert out == [("B1", "siege", ["a"], ["b"])]          # a has challenged by assaulting, b is challenged
    assert state.round.missed_challenges == ["c"]


# -- plunder.requires_win, buildings.max_per_tile, buildings.city.requires ----------------------

def spend(state, rules, orders):  # type: ignore[no-untyped-def]
    return {s.player: s for s in run_spending(state, GMAP, rules, orders, ScriptedDice([]))}


@pytest.mark.clause("COC-SPD-16", "COC-SPD-18")
def test_coc_spd_16_plunder_needs_a_win_unless_configured() -> None:
    def fresh():  # type: ignore[no-untyped-def]
        state = state_of(GMAP, ["a", "b"], {"T1": "a", "T9": "b", "T10": "b"})
        state.round.ep = [EPAward("a", earned=6, available=6)]
        return state
    orders = {"a": [[Action("plunder", "T9")], [Action("plunder", "T10")]]}
    state = fresh()
    out = spend(state, book(), orders)["a"].actions
    assert not out[0].done and "did not win a battle" in out[0].reason
    state = fresh()
    out = spend(state, book(plunder={"requires_win": False}), orders)["a"].actions
    assert [a.done for a in out] == [True, False] and state.tiles["T9"].owner == ""
    assert "plunder.limit_per_win" in out[1].reason
    state = fresh()
    out = spend(state, book(plunder={"requires_win": False, "limit_per_win": 0}), orders)["a"].actions
    assert [a.done for a in out] == [True, True]


@pytest.mark.clause("COC-BLD-1", "COC-BLD-6")
def test_coc_bld_1_one_building_per_tile_and_a_city_needs_the_castle() -> None:
    state = state_of(GMAP, ["a"], {"T1": "a", "T2": "a"}, {"T1": "mine"})
    state.round.ep = [EPAward("a", earned=3, available=3)]
    out = spend(state, book(), {"a": [[Action("build", "T1", "castle")], [Action("build", "T2", "city")]]})
    first, second = out["a"].actions
    assert "a tile holds 1 building" in first.reason and "buildings.max_per_tile" in first.reason
    assert "a city needs a castle" in second.reason


# -- size.tiebreaks and terrain.types -----------------------------------------------------------

@pytest.mark.clause("COC-ORD-4", "COC-ORD-5", "COC-ORD-6")
def test_coc_ord_4_tiebreak_steps_follow_size_tiebreaks() -> None:
    owners = {"T1": "a", "T2": "a", "T3": "a", "T5": "b", "T6": "b"}
    state = state_of(GMAP, ["a", "b"], owners, {"T1": "castle", "T2": "castle", "T5": "city"})
    order.open_round(state, book(), ScriptedDice([]), 1)
    assert [e.size for e in state.round.sizes] == [3, 3]
    assert [e.player for e in state.round.sizes] == ["b", "a"]           # cities first: b has the city
    cities_as_castles = {"cities_count_as_castles_in_tiebreak": False}
    state = state_of(GMAP, ["a", "b"], owners, {"T1": "castle", "T2": "castle", "T5": "city"})
    order.open_round(state, book(size={"tiebreaks": ["castles", "cities", "die"], **cities_as_castles}),
                     ScriptedDice([]), 1)
    assert [e.player for e in state.round.sizes] == ["a", "b"]           # castles first: a has two
    state = state_of(GMAP, ["a", "b"], owners, {"T1": "castle", "T2": "castle", "T5": "city"})
    order.open_round(state, book(size={"tiebreaks": ["die"]}), ScriptedDice([2, 5]), 1)
    assert [e.player for e in state.round.sizes] == ["b", "a"] and state.round.sizes[0].tiebreak == [5]


@pytest.mark.clause("COC-SET-2")
def test_coc_set_2_map_terrains_are_checked_against_terrain_types() -> None:
    gmap = hexmap_from_dict({"tiles": {"T1": {"terrain": "marsh"}, "T2": {"terrain": "glacier"}}})
    problems = tiles.check(gmap, book()["terrain.types"])
    assert problems == [("tile T2: terrain 'glacier' is not one of countryside, wood, river, mountain, shore, marsh, "
                        "sea (terrain.types)")]
    assert any("'marsh'" in p for p in tiles.check(gmap, dry_types()["terrain.types"]))
    with pytest.raises(MapError):
        tiles.campaign_map("four_marches", dry_types())


def dry_types():  # type: ignore[no-untyped-def]
    """Rules whose land terrains leave out those the ready-made maps use."""
    only = ["countryside", "wood"]
    return book(terrain={"types": only, "plain": only},
                buildings={"castle": {"allowed_terrain": only}, "city": {"allowed_terrain": only},
                           "mine": {"allowed_terrain": only}, "port": {"allowed_terrain": only,
                                                                       "reach_terrain": only}})


# -- results.surrender, results.equal_vp, results.team_general_killed_cap ------------------------

def verdict(att: SideFacts, dfn: SideFacts, teams: tuple[str, ...] = (), decisions: dict[str, str] | None = None,
            **results: str) -> tuple[str, str, int, int]:
    rr = ResultRules.from_book(book(results=results))
    answers = decisions or {}

    def decide(key: str, question: str, options: Any) -> str:
        if key not in answers:
            raise GMDecisionNeeded(key, question, options)
        return answers[key]
    out = classify({"attacker": att, "defender": dfn}, rr, teams, decide)
    return out.categories["attacker"], out.categories["defender"], out.base_ep["attacker"], out.base_ep["defender"]


@pytest.mark.clause("COC-RES-4")
def test_coc_res_4_surrender_as_withdrawal_minor_victory_or_the_gm() -> None:
    att, dfn = SideFacts(100, 8, 1), SideFacts(300, 9, 2, surrendered=True)
    assert verdict(att, dfn) == (MASSACRE, LOSE, 5, 1)                    # as a withdrawal: 1 lost of 8
    assert verdict(att, dfn, surrender="minor_victory") == (MINOR, LOSE, 3, 1)
    with pytest.raises(GMDecisionNeeded) as asked:
        verdict(att, dfn, surrender="gm")
    assert asked.value.key == "surrender" and asked.value.options == [MINOR, MAJOR, MASSACRE]
    assert verdict(att, dfn, decisions={"surrender": MAJOR}, surrender="gm") == (MAJOR, LOSE, 4, 1)


@pytest.mark.clause("COC-RES-11")
def test_coc_res_11_equal_vp_draw_withdrawal_loses_or_the_gm() -> None:
    att, dfn = SideFacts(400, 8, 3), SideFacts(400, 9, 5, withdrew=True)
    assert verdict(att, dfn) == (DRAW, DRAW, 2, 2)
    assert verdict(att, dfn, equal_vp="withdrawal_loses") == (MAJOR, LOSE, 4, 1)     # 3 lost of 8
    assert verdict(att, SideFacts(400, 9, 5), equal_vp="withdrawal_loses") == (DRAW, DRAW, 2, 2)
    with pytest.raises(GMDecisionNeeded) as asked:
        verdict(att, dfn, equal_vp="gm")
    assert asked.value.options == ["draw", "attacker", "defender"]
    assert verdict(att, dfn, decisions={"equal-vp": "defender"}, equal_vp="gm") == (LOSE, MINOR, 1, 3)
    assert verdict(att, dfn, decisions={"equal-vp": "draw"}, equal_vp="gm") == (DRAW, DRAW, 2, 2)


@pytest.mark.clause("COC-RES-13")
def test_coc_res_13_killed_team_general_draw_team_only_or_the_gm() -> None:
    team, lone = SideFacts(500, 10, 2, general_killed=True), SideFacts(200, 9, 5, withdrew=True)
    assert verdict(team, lone, ("attacker",)) == (DRAW, DRAW, 2, 2)
    assert verdict(team, lone, ("attacker",), team_general_killed_cap="team_only") == (DRAW, LOSE, 2, 1)
    with pytest.raises(GMDecisionNeeded) as asked:
        verdict(team, lone, ("attacker",), team_general_killed_cap="gm")
    assert asked.value.key == "general"
    assert verdict(team, lone, ("attacker",), {"general": "team_only"}, team_general_killed_cap="gm") == (
        DRAW, LOSE, 2, 1)


# -- the naval module needs sea; the recommended number of players ---------------------------

@pytest.mark.clause("COC-NAV-1", "COC-NAV-3")
def test_coc_nav_1_sea_challenges_refused_per_line_without_the_module_sea_or_membership() -> None:
    state = state_of(GMAP, ["a", "b", "c"])
    lines = [(1, "CHALLENGE B"), (2, "SEA CHALLENGE B")]
    off = parse_campaign(Reader(state, GMAP, book(), "a"), lines, True)
    assert [p.line_no for p in off.problems] == [2] and "naval.enabled" in off.problems[0].reason
    naval = book(naval={"enabled": True, "players": ["a", "b"]})
    dry = parse_campaign(Reader(state, GMAP, naval, "a"), lines, True)
    assert [p.line_no for p in dry.problems] == [2] and "has no sea" in dry.problems[0].reason
    assert dry.payload == {"challenges": [{"target": "b", "only_if_unchallenged": False, "no_join": False,
                                           "no_break": False}]}
    wet = graph_map({"T1": "shore", "T2": "shore", "S1": "sea"}, [("T1", "S1"), ("S1", "T2")])
    landlubber = parse_campaign(Reader(state_of(wet, ["a", "b", "c"]), wet, naval, "c"), lines, True)
    assert "not a naval player" in landlubber.problems[0].reason
    sailor = parse_campaign(Reader(state_of(wet, ["a", "b", "c"]), wet, naval, "a"), lines, True)
    assert not sailor.problems and sailor.payload["sea"][0]["target"] == "b"


@pytest.mark.clause("COC-NAV-1", "COC-GEN-1")
def test_coc_nav_1_campaign_refuses_naval_without_sea_and_notes_few_players() -> None:
    from pbem.rulesets.conquest import setup

    wide = graph_map({f"T{i}": "countryside" for i in range(1, 31)}, line(*(f"T{i}" for i in range(1, 31))))
    with pytest.raises(ValueError) as refused:
        setup.new_state(wide, book(naval={"enabled": True, "players": ["a", "x"]}), [("a", "A", "Red"),
                                                                                     ("b", "B", "Blue")])
    text = str(refused.value)
    assert "naval.players names 'x'" in text and "needs a map with sea" in text
    two = setup.new_state(wide, book(), [("a", "A", "Red"), ("b", "B", "Blue")])
    assert "the rules recommend 3 or more" in two.round.log[0]
