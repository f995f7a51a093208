"""Squad composition and uniques: SC-14 of the catalog, row by row, and the clauses it proves."""

from __future__ import annotations

import tomllib

import pytest

from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import composition as comp
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog, catalog_from_dict
from tests.star_wars_miniatures.helpers import EXAMPLE_CATALOG

UNIT_LABELS = ("Sith", "Mandalorian", "Fringe", "Rebel", "Imperial", "Republic", "Yuuzhan Vong")


@pytest.fixture
def units() -> Catalog:
    """The example catalog plus 1-point cards of each label, so any total can be built."""
    data = tomllib.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))
    data["miniatures"] += [{"name": f"{lb} 1", "labels": [lb], "cost": 1, "speed": 6} for lb in UNIT_LABELS]
    data["miniatures"] += [{"name": "Fringe Adept", "labels": ["Fringe"], "cost": 1, "speed": 6, "force": 1},
                           {"name": "Clone 1", "labels": ["Republic"], "cost": 1, "speed": 6, "flags": ["order_66"]},
                           {"name": "Wookiee 30", "labels": ["Rebel"], "cost": 30, "speed": 6, "flags": ["wookiee"]},
                           {"name": "Rebel 30", "labels": ["Rebel"], "cost": 30, "speed": 6},
                           {"name": "Rebel 31", "labels": ["Rebel"], "cost": 31, "speed": 6},
                           {"name": "Officer 50", "labels": ["Imperial"], "cost": 50, "speed": 6},
                           {"name": "Savage 1", "labels": ["Fringe"], "cost": 1, "speed": 6, "abilities": ["Savage"]}]
    return catalog_from_dict(data)


def build(cat: Catalog, *parts: tuple[str, int]) -> list[Entry]:
    out: list[Entry] = []
    for name, times in parts:
        mini = cat.lookup(name)
        out += [tr.new_troop(f"x{len(out) + n + 1}", mini, mini.labels[0], 1) for n in range(times)]
    return out


CASES = {
    "a": ("sith", [("Ulic Qel-Droma", 1), ("Mandalorian 1", 110)], True),
    "b": ("sith", [("Sith 1", 95), ("Mandalorian 1", 55)], False),
    "c": ("sith", [("Sith 1", 100), ("Mandalorian 1", 50)], True),
    "d": ("fringe", [("Fringe 1", 120), ("Rebel 30", 1)], True),
    "e": ("fringe", [("Fringe 1", 119), ("Rebel 31", 1)], False),
    "f": ("imperial", [("Palpatine, Sith Lord", 1), ("Clone 1", 100)], True),
    "g": ("imperial", [("Officer 50", 1), ("Clone 1", 100)], False),
    "h": ("yuuzhan_vong", [("Yuuzhan Vong 1", 105), ("Fringe 1", 45)], True),
    "i": ("yuuzhan_vong", [("Yuuzhan Vong 1", 105), ("Fringe 1", 44), ("Fringe Adept", 1)], False),
    "j": ("yuuzhan_vong", [("Yuuzhan Vong 1", 100), ("Fringe 1", 50)], False),
    "k": ("republic", [("Yoda, Jedi Master", 1), ("Wookiee 30", 1), ("Republic 1", 90)], True),
    "l": ("republic", [("Wookiee 30", 1), ("Republic 1", 120)], False),
    "m": ("imperial", [("Imperial 1", 75)], False),
    "n": ("imperial", [("Imperial 1", 76)], True),
}


@pytest.mark.clause("SWM-FAC-1")
@pytest.mark.clause("SWM-FAC-2")
@pytest.mark.clause("SWM-FAC-14")
@pytest.mark.clause("SWM-FAC-15")
@pytest.mark.clause("SWM-FAC-16")
@pytest.mark.clause("SWM-FAC-18")
@pytest.mark.clause("SWM-FAC-19")
@pytest.mark.clause("SWM-SQD-4")
@pytest.mark.clause("SWM-SQD-5")
@pytest.mark.clause("SWM-SQD-3")
@pytest.mark.parametrize("case", sorted(CASES))
def test_swm_fac_sc14_each_squad_of_the_table(case: str, units: Catalog, book: RuleBook) -> None:
    faction, parts, legal = CASES[case]
    squad = build(units, *parts)
    assert comp.active(faction, squad, units, book) is legal, comp.problems(faction, squad, units, book)


def test_swm_fac_13_fringe_twenty_percent_in_points(units: Catalog, book: RuleBook) -> None:
    assert comp.problems("fringe", build(units, ("Fringe 1", 119), ("Rebel 31", 1)), units, book) == [
        "Rebel 31 of 150 points (20.7%) is over the 20% maximum"]
    assert comp.active("fringe", build(units, ("Fringe 1", 80), ("Rebel 1", 20)), units, book)
    assert not comp.active("fringe", build(units, ("Fringe 1", 79), ("Rebel 1", 21)), units, book)


def test_swm_sqd_1_more_than_75_and_at_most_150_points(units: Catalog, book: RuleBook) -> None:
    assert comp.size_problem(75, book) == "75 points is not more than 75: a squad needs more than 75 points"
    assert comp.size_problem(76, book) == comp.size_problem(150, book) == ""
    assert comp.size_problem(151, book) == "151 points is over the 150-point maximum of a squad"
    inclusive = RuleBook({**book.as_dict(), "squad": {**book.section("squad"), "min_inclusive": True}})
    assert comp.size_problem(75, inclusive) == ""


def test_swm_fac_17_exar_kun_exempts_fringe_savages(units: Catalog, book: RuleBook) -> None:
    with_kun = build(units, ("Exar Kun", 1), ("Savage 1", 60))
    assert comp.active("sith", with_kun, units, book)
    assert not comp.active("sith", build(units, ("Sith 1", 84), ("Savage 1", 60)), units, book)


def test_swm_fac_16_exempt_troops_still_count_toward_the_points_limits(units: Catalog, book: RuleBook) -> None:
    squad = build(units, ("Ulic Qel-Droma", 1), ("Mandalorian 1", 111))
    assert comp.problems("sith", squad, units, book) == ["151 points is over the 150-point maximum of a squad"]


def test_swm_fac_20_yuuzhan_vong_ban_is_on_his_army_not_his_allies(units: Catalog, book: RuleBook) -> None:
    droids = build(units, ("Battle Droid", 20))
    assert comp.ban_problems("yuuzhan_vong", droids, units, book)
    assert comp.ban_problems("separatist", droids, units, book) == []


def test_swm_fac_21_a_squad_illegal_after_losses_is_damaged(units: Catalog, book: RuleBook) -> None:
    squad = build(units, ("Sith 1", 100), ("Mandalorian 1", 50))
    assert comp.active("sith", squad, units, book)
    assert not comp.active("sith", squad[10:], units, book)      # 90 Sith + 50 Mandalorian: 35.7%



@pytest.mark.clause("SWM-UNQ-2")
@pytest.mark.clause("SWM-UNQ-3")
def test_swm_unq_1_one_character_name_per_squad_one_card_per_army(units: Catalog, book: RuleBook) -> None:
    s1 = build(units, ("General Windu", 1), ("Republic 1", 50))
    s2_mace = build(units, ("Mace Windu", 1), ("Republic 1", 50))
    s2_general = build(units, ("General Windu", 1), ("Republic 1", 50))
    assert comp.army_problems(s1 + s2_mace, units) == []
    assert comp.army_problems(s1 + s2_general, units) == [
        "the army already has General Windu: one copy of a unique card per army"]
    both = build(units, ("General Windu", 1), ("Mace Windu", 1), ("Republic 1", 50))
    assert comp.person_problems(both, units) == ["Mace Windu and General Windu are both Mace Windu: one per squad"]


@pytest.mark.clause("SWM-UNQ-6")
def test_swm_unq_4_another_faction_may_field_the_same_unique(units: Catalog) -> None:
    republic = build(units, ("Mas Amedda", 1))
    imperial = [tr.new_troop("y1", units.lookup("Mas Amedda"), "Imperial", 1)]
    assert comp.army_problems(republic, units) == comp.army_problems(imperial, units) == []
    assert tr.label(imperial[0]) == "Imperial"


@pytest.mark.clause("SWM-ROS-4")
def test_swm_gen_12_a_unique_is_marked_so_in_the_catalog(units: Catalog) -> None:
    assert units.lookup("Mas Amedda").unique and not units.lookup("Stormtrooper").unique
    assert units.lookup("Mas Amedda").labels == ("Republic", "Imperial")
