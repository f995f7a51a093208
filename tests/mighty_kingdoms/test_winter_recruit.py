"""Recruiting (MK-ARM-1..10) and scenario 11, through the purchase cycles."""

from __future__ import annotations

from typing import Any

from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import recruit, spending
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Holding, MKState
from tests.mighty_kingdoms.helpers_winter import (
    HERO,
    INFANTRY,
    MONSTER,
    WAR_ENGINE,
    add_army,
    book,
    graph_map,
    item,
    state_of,
    view_of,
)

# F on plains; G forest, H mountains, I swamp around it; J a plain tile further off.
GMAP = graph_map({"F": "land", "G": ["land", "forest"], "H": ["land", "mountains"], "I": "swamp", "J": "land",
                  "K": ["land", "forest"]},
                 [("F", "G"), ("F", "H"), ("F", "I"), ("F", "J"), ("J", "K")])


def spend(state: MKState, lists: dict[str, list[dict[str, Any]]], gmap: HexMap = GMAP,
          rules: RuleBook | None = None) -> list[str]:
    sections: list[Section] = []
    spending.run(view_of(state, gmap, rules), lists, sections)
    return sections[0].lines


def six_armies(i_owner: str = "a") -> MKState:
    """Scenario 11's board: A has 6 armies (A6 was lost earlier, so A8 comes next) and 3 food."""
    state = state_of("ab", {"F": ("a", "fortress"), "G": ("a", ""), "H": ("b", ""), "I": (i_owner, ""),
                            "J": ("a", "")}, stock={"a": (0, 3)})
    for ident in ("A1", "A2", "A3", "A4", "A5", "A7"):
        add_army(state, ident, "J")
    return state


def test_mk_scenario_11_recruit_limits_and_terrain_loosening() -> None:
    state = six_armies()
    lines = spend(state, {"a": [item("RECRUIT F DISBAND A4", INFANTRY, WAR_ENGINE, MONSTER)]})
    assert lines[0] == ("Cycle 1: Albion recruits A8 at F (310 points) disbanding A4; monsters allowed by I, "
                        "war engines allowed by G; now 0 gold and 2 food")
    assert "A4" not in state.armies and state.armies["A8"].tile == "F" and state.armies["A8"].owner == "a"
    assert state.kingdoms["a"].food == 2 and len(state.armies_of("a")) == 6
    # if I were B's, the monster would be rejected: H's mountains do not count, A does not control H
    state = six_armies(i_owner="b")
    lines = spend(state, {"a": [item("RECRUIT F DISBAND A4", INFANTRY, WAR_ENGINE, MONSTER)]})
    assert lines[0] == ("Cycle 1: Albion's RECRUIT F DISBAND A4 is dropped: the army list is refused: U3 Cave "
                        "Troll: monsters are not allowed in this list")
    assert "A4" in state.armies and state.kingdoms["a"].food == 3
    # a second RECRUIT at F that winter is rejected
    state = six_armies()
    lines = spend(state, {"a": [item("RECRUIT F DISBAND A4"), item("RECRUIT F DISBAND A5")]})
    assert lines[1] == ("Cycle 2: Albion's RECRUIT F DISBAND A5 is dropped: F has already recruited this winter "
                        "(one army per fortress per winter)")
    # RECRUIT without naming an army to disband, at 6 armies, is rejected
    state = six_armies()
    lines = spend(state, {"a": [item("RECRUIT F")]})
    assert lines[-1] == ("Albion's RECRUIT F is dropped at the end of spending: you have 6 armies, the most allowed; "
                         "name one to disband: RECRUIT <fortress> DISBAND <army>")


def test_mk_arm_1_each_fortress_recruits_at_most_one_army_per_winter() -> None:
    state = state_of("a", {"F": ("a", "fortress"), "J": ("a", "fortress")}, stock={"a": (0, 3)})
    spend(state, {"a": [item("RECRUIT F"), item("RECRUIT F"), item("RECRUIT J")]})
    assert sorted(a.tile for a in state.armies.values()) == ["F", "J"]
    assert state.winter.recruited_at == ["F", "J"]


def test_mk_arm_2_a_fortress_built_this_winter_may_recruit() -> None:
    state = state_of("a", {"F": ("a", "village")}, stock={"a": (1, 2)})
    lines = spend(state, {"a": [item("RECRUIT F"), item("BUILD fortress F")]})
    assert lines[0].startswith("Cycle 1: Albion builds a fortress on F")
    assert lines[1].startswith("Cycle 2: Albion recruits A1 at F")


def test_mk_arm_2_other_reading_new_fortress_waits_a_winter() -> None:
    state = state_of("a", {"F": ("a", "village")}, stock={"a": (1, 2)})
    lines = spend(state, {"a": [item("RECRUIT F"), item("BUILD fortress F")]},
                  rules=book(recruit={"new_fortress_can_recruit": False}))
    assert lines[1] == ("Cycle 2: Albion's RECRUIT F is dropped: F became a fortress this winter and may recruit "
                        "only from next winter")


def test_mk_arm_3_recruiting_costs_one_food() -> None:
    state = state_of("a", {"F": ("a", "fortress")}, stock={"a": (4, 0)})
    lines = spend(state, {"a": [item("RECRUIT F")]})
    assert not state.armies and lines[0] == "Cycle 1: Albion buys nothing yet: RECRUIT F (needs 1 food, has 0)"
    state.kingdoms["a"].food = 1
    state.winter.cycles = 0
    spend(state, {"a": [item("RECRUIT F")]})
    assert (state.kingdoms["a"].gold, state.kingdoms["a"].food) == (4, 0) and "A1" in state.armies


def test_mk_arm_4_new_army_appears_in_the_fortress_with_a_new_id_and_its_list() -> None:
    state = state_of("a", {"F": ("a", "fortress"), "J": ("a", "")}, stock={"a": (0, 1)})
    add_army(state, "A1", "J")
    add_army(state, "A2", "J")
    del state.armies["A2"]                                   # A2 fell in the summer: its id is not reused
    spend(state, {"a": [item("RECRUIT F", INFANTRY, HERO, name="Iron Guard")]})
    army = state.armies["A3"]
    assert (army.tile, army.owner, army.upright, army.defend) == ("F", "a", True, False)
    assert army.roster.army == "A3" and army.roster.name == "Iron Guard"
    assert [e.name for e in army.roster.entries] == ["Spearmen", "Captain"] and army.roster.points == 180
    assert state.kingdoms["a"].armies_raised == 3
    assert army.roster.history[0].text == "recruited at F"


def test_mk_arm_4_list_over_the_points_limit_is_dropped() -> None:
    state = state_of("a", {"F": ("a", "fortress")}, stock={"a": (0, 1)})
    lines = spend(state, {"a": [item("RECRUIT F", *[INFANTRY] * 6)]})
    assert lines[0] == ("Cycle 1: Albion's RECRUIT F is dropped: the army list is refused: the list comes to 600 "
                        "points, over the limit of 500")
    assert not state.armies


def test_mk_arm_5_monsters_allowed_by_mountains_or_swamp_on_the_fortress_or_an_adjacent_own_tile() -> None:
    rules = book()
    state = state_of("ab", {"F": ("a", "fortress"), "G": ("a", ""), "H": ("a", ""), "I": ("b", "")})
    assert recruit.loosening(state, GMAP, rules, "a", "F") == {"monster": ["H"], "war_engine": ["G"]}
    gmap = graph_map({"F": "all_mountains", "J": "land"}, [("F", "J")])
    state = state_of("a", {"F": ("a", "fortress")})
    assert recruit.loosening(state, gmap, rules, "a", "F") == {"monster": ["F"]}
    hero_monster = "Dragon Lord | Hero (Mon) | 10 3+ - 5+ 7 -/18 | Fly | 300"
    state = state_of("a", {"F": ("a", "fortress")}, stock={"a": (0, 1)})
    assert spend(state, {"a": [item("RECRUIT F", hero_monster)]}, gmap)[0].startswith("Cycle 1: Albion recruits A1")


def test_mk_arm_5_hero_monsters_stay_forbidden_when_the_option_separates_them() -> None:
    gmap = graph_map({"F": "swamp"}, [])
    hero_monster = "Dragon Lord | Hero (Mon) | 10 3+ - 5+ 7 -/18 | Fly | 300"
    state = state_of("a", {"F": ("a", "fortress")}, stock={"a": (0, 1)})
    rules = book(army_list={"loosening": {"monster_includes_hero_monster": False}})
    lines = spend(state, {"a": [item("RECRUIT F", hero_monster)]}, gmap, rules)
    assert "hero monsters are not allowed" in lines[0]


def test_mk_arm_6_war_engines_need_forest_on_the_fortress_or_an_adjacent_own_tile() -> None:
    state = state_of("a", {"F": ("a", "fortress"), "J": ("a", ""), "K": ("a", "")}, stock={"a": (0, 1)})
    lines = spend(state, {"a": [item("RECRUIT F", WAR_ENGINE)]})            # K's forest is two tiles away
    assert "war engines are not allowed" in lines[0]
    state.tiles["G"] = state.tile("G")
    state.tiles["G"].owner = "a"
    assert spend(state, {"a": [item("RECRUIT F", WAR_ENGINE)]})[0].startswith("Cycle 2: Albion recruits A1")


def test_mk_arm_7_living_legends_and_magic_items_stay_forbidden() -> None:
    legend = "Old Lord | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Living Legend | 150"
    armed = "Knight | Hero (Cav) | 8 3+ - 5+ 5 -/14 | Individual | 100 | Blade of Slashing 5"
    gmap = graph_map({"F": ["swamp", "forest"]}, [])
    state = state_of("a", {"F": ("a", "fortress")}, stock={"a": (0, 1)})
    lines = spend(state, {"a": [item("RECRUIT F", legend, armed)]}, gmap)
    assert "living legends are not allowed" in lines[0] and "magic items are not allowed" in lines[0]


def test_mk_arm_8_at_most_six_armies() -> None:
    state = six_armies()
    spend(state, {"a": [item("RECRUIT F")]})
    assert len(state.armies_of("a")) == 6


def test_mk_arm_9_disband_only_as_part_of_a_recruit_at_the_cap() -> None:
    state = state_of("a", {"F": ("a", "fortress"), "J": ("a", "")}, stock={"a": (0, 2)})
    add_army(state, "A1", "J")
    lines = spend(state, {"a": [item("RECRUIT F DISBAND A1")]})
    assert lines[-1] == ("Albion's RECRUIT F DISBAND A1 is dropped at the end of spending: you have 1 army, under "
                         "the cap of 6; an army is disbanded only to recruit at the cap")
    assert "A1" in state.armies


def test_mk_arm_9_disbanded_army_artefacts_go_to_the_capital_or_the_pool() -> None:
    state = six_armies()
    state.tiles["J"].settlement = "city"
    state.kingdoms["a"].start_tile = "J"
    state.artefacts["Blade of Slashing"] = Holding("a", "A4", "U1")
    lines = spend(state, {"a": [item("RECRUIT F DISBAND A4")]})
    assert state.artefacts["Blade of Slashing"] == Holding("a")
    assert lines[0] == "Blade of Slashing is held at Albion's capital"
    state = six_armies()
    state.artefacts["Blade of Slashing"] = Holding("a", "A4", "U1")
    spend(state, {"a": [item("RECRUIT F DISBAND A4")]})
    assert "Blade of Slashing" not in state.artefacts


def test_mk_arm_9_disbanding_an_army_not_ones_own_is_dropped() -> None:
    state = six_armies()
    add_army(state, "B1", "H")
    lines = spend(state, {"a": [item("RECRUIT F DISBAND B1")]})
    assert lines[0] == "Cycle 1: Albion's RECRUIT F DISBAND B1 is dropped: B1 is not one of your armies"


def test_mk_arm_10_terrain_and_control_are_checked_when_the_purchase_executes() -> None:
    state = state_of("ab", {"F": ("a", "fortress"), "H": ("a", "")}, stock={"a": (0, 1)})
    monster_list = item("RECRUIT F", MONSTER)
    view = view_of(state, GMAP)
    assert spending.verdict(view, "a", monster_list).ok
    state.tiles["H"].owner = "b"                              # H changed hands before the purchase ran
    assert "monsters are not allowed" in spending.verdict(view, "a", monster_list).never
