"""Kings of War army lists on the roster model: read, written back, checked (MK-SET-8/9, A26, A30)."""

from __future__ import annotations

import pytest

from pbem.kit.orders import InvalidOrder
from pbem.kit.roster import Roster
from pbem.rulesets.mighty_kingdoms import armylist
from pbem.rulesets.mighty_kingdoms import rules as rulesmod

CAPTAIN = "Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring, Crushing Strength (1) | 80"
SPEARS = "Spearmen Regiment | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"
WYVERN = "Wyvern | Mon | 9 4+ - 5+ 8 -/17 | Fly | 150"
DRAKE = "Drake Lord | Hero (Lge Cav) | 9 3+ - 6+ 6 -/16 | Fly | 160"
DRAGON = "Dragon Lord | Hero (Mon) | 10 3+ - 5+ 8 -/18 | Fly | 200"
ENGINE = "Bolt Thrower | War Engine | 5 - 4+ 4+ 2 -/11 | Blast (D3) | 60"


def roster(*lines: str) -> Roster:
    read, problems = armylist.read("A1", "Guard", enumerate(lines, 1))
    assert problems == []
    return read


@pytest.mark.clause("MK-SET-8")
def test_mk_set_8_a_unit_line_reads_into_a_roster_entry_with_its_stats_and_rules() -> None:
    entry = armylist.parse_unit(CAPTAIN, "U2")
    assert (entry.id, entry.name, entry.kind, entry.points) == ("U2", "Captain", "inf", 80)
    assert entry.has("hero") and entry.has("individual") and entry.has("inspiring")
    assert entry.counters == {"sp": 5, "me": 3, "ra": 0, "de": 5, "att": 5, "waver": 0, "rout": 13,
                              "crushing_strength": 1}


@pytest.mark.parametrize("line", [CAPTAIN, SPEARS, WYVERN, DRAKE, ENGINE,
                                  "Champion | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual | 60 | Blade of Slashing 5"])
def test_a_unit_written_back_reads_the_same(line: str) -> None:
    entry = armylist.parse_unit(line, "U1")
    again = armylist.parse_unit(armylist.unit_line(entry), "U1")
    assert again == entry


def test_unit_ids_follow_the_list_order_and_points_add_up() -> None:
    army = roster(SPEARS, SPEARS, CAPTAIN)
    assert [e.id for e in army.entries] == ["U1", "U2", "U3"] and army.points == 280 and army.army == "A1"


@pytest.mark.parametrize(("line", "words"), [
    ("Spearmen | Inf | 5 4+ - 4+ 12 14/16 | 100", "5 needed"),
    ("| Inf | 5 4+ - 4+ 12 14/16 | | 100", "no name"),
    ("Spearmen | Foot | 5 4+ - 4+ 12 14/16 | | 100", "unknown unit type"),
    ("Spearmen | Inf | 5 4+ - 4+ 12 | | 100", "need six values"),
    ("Spearmen | Inf | 5 x - 4+ 12 14/16 | | 100", "Me \u201cx\u201d must be a number"),
    ("Spearmen | Inf | 5 4+ - 4+ 12 14-16 | | 100", "waver/rout"),
    ("Spearmen | Inf | 5 4+ - 4+ 12 14/16 | | lots", "whole number"),
    ("Spearmen | Inf | 5 4+ - 4+ 12 14/16 | | 100 | Blade", "needs its points"),
])
def test_an_unreadable_unit_line_says_which_field_is_wrong(line: str, words: str) -> None:
    with pytest.raises(InvalidOrder, match=words) as raised:
        armylist.parse_unit(line, "U1")
    assert "'" not in raised.value.reason, "what the player typed is quoted as in every mail, never as a Python repr"


def test_read_reports_each_bad_line_with_its_number_and_keeps_the_rest() -> None:
    army, problems = armylist.read("A1", "", [(1, SPEARS), (2, "nonsense"), (3, CAPTAIN)])
    assert [e.id for e in army.entries] == ["U1", "U2"]
    assert problems[0][:2] == (2, "nonsense")


@pytest.mark.clause("MK-SET-9")
def test_mk_set_9_an_initial_list_forbids_every_category_and_names_the_unit() -> None:
    rules = rulesmod.load()
    army = roster(SPEARS, WYVERN, DRAGON, ENGINE, "Lady | Hero (Inf) | 6 3+ - 5+ 5 -/15 | Living Legend | 100")
    assert armylist.problems(army, rules) == [
        "the list comes to 610 points, over the limit of 500",
        "U2 Wyvern: monsters are not allowed in this list",
        "U3 Dragon Lord: hero monsters are not allowed in this list",
        "U4 Bolt Thrower: war engines are not allowed in this list",
        "U5 Lady: living legends are not allowed in this list",
    ]


def test_a26_a_monster_loosening_admits_hero_monsters_unless_the_rules_say_otherwise() -> None:
    army = roster(SPEARS, WYVERN, DRAGON)
    assert armylist.problems(army, rulesmod.load(), allowed=("monster",)) == []
    strict = rulesmod.load({"army_list": {"loosening": {"monster_includes_hero_monster": False}}})
    assert armylist.problems(army, strict, allowed=("monster",)) == [
        "U3 Dragon Lord: hero monsters are not allowed in this list"]


def test_a_hero_on_a_large_cavalry_mount_is_no_monster() -> None:
    assert armylist.categories(armylist.parse_unit(DRAKE, "U1")) == set()


def test_magic_items_and_living_legends_stay_forbidden_whatever_is_loosened() -> None:
    army = roster(SPEARS, "Champion | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual | 60 | Blade of Slashing 5")
    assert armylist.problems(army, rulesmod.load(), allowed=("monster", "war_engine")) == [
        "U2 Champion: magic items are not allowed in this list"]


def test_a30_up_to_500_points_by_default_or_exactly_500() -> None:
    army = roster(SPEARS)
    assert armylist.problems(army, rulesmod.load()) == []
    assert armylist.problems(army, rulesmod.load({"army_list": {"points_rule": "exact"}})) == [
        "the list comes to 100 points; it must be exactly 500"]
    assert armylist.problems(roster(), rulesmod.load()) == ["the list has no units"]


def test_stat_and_rules_text_are_written_as_kings_of_war_writes_them() -> None:
    entry = armylist.parse_unit(CAPTAIN, "U1")
    assert armylist.stat_line(entry) == "5 3+ - 5+ 5 -/13"
    assert armylist.rules_text(entry) == "Individual, Inspiring, Crushing Strength (1)"
    assert armylist.rule_key("Yellow-Bellied") == "yellow_bellied" and armylist.rule_name("very_inspiring") == (
        "Very Inspiring")
