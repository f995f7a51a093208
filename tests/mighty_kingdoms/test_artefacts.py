"""Magical artefacts (MK-ART-1..5, 9..11, 13, 14): the pool, draws per band, suitability, capture
allocation and a capital taken over (scenario 13's allocation variants and its capital takeover)."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RulesError
from pbem.rulesets.mighty_kingdoms import artefacts
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Holding, MKState
from tests.mighty_kingdoms.helpers_quests import CAPTAIN, SPEARS, army, book, capital, own, state

KNIGHTS = "Knights | Cav | 8 3+ - 5+ 16 14/17 | Thunderous Charge (2) | 180"
BOWS = "Bowmen | Inf | 5 5+ 5+ 3+ 8 10/12 | | 90"
MAGE = "Battle Mage | Hero (Inf) | 5 5+ - 4+ 1 10/12 | Individual, Lightning Bolt (3) | 60"
X = "Mace of Crushing"                   # Inf, Hv Inf and Lrg Inf only


def board() -> MKState:
    st = state(("a", "b", "c"))
    capital(st, "a", "T1")
    capital(st, "c", "T12")
    own(st, "a", "T2", "T5")
    own(st, "b", "T6", "T7")
    return st


def test_mk_art_1_each_artefact_is_owned_once() -> None:
    st, rules, section = board(), book(), Section("s")
    dice = ScriptedDice([2, 2])
    first = artefacts.draw(st, rules, dice, (20, 20), "a", section)
    second = artefacts.draw(st, rules, dice, (20, 20), "b", section)
    assert (first, second) == ("Banner of the Griffin", "Dwarven Throwing Mattock")
    assert [r.sides for r in dice.log] == [4, 3]            # the second draw is over the three left
    assert st.artefacts[first] == Holding("a") and st.artefacts[second] == Holding("b")


def test_mk_art_2_a_draw_is_one_die_over_the_unowned_artefacts_of_the_band_in_rules_order() -> None:
    st, rules, section = board(), book(), Section("s")
    st.artefacts["Brew of Strength"] = Holding("c")
    dice = ScriptedDice([3])
    assert artefacts.draw(st, rules, dice, (20, 20), "a", section) == "Shroud of the Saint"
    assert dice.log[0].purpose == "artefact draw"
    assert section.lines == ["Artefact draw over the 3 unowned artefacts of 20 points: D3 = 3, "
                             "Shroud of the Saint (20 points)"]
    assert [a.name for a in artefacts.unowned(st, rules, 5, 15)][:3] == [
        "Blade of Slashing", "Hail of Doom Arrows", "Brew of Keen-eyeness"]


def test_mk_art_3_an_empty_band_gives_no_reward() -> None:
    st, rules, section = board(), book(), Section("s")
    for name in ("Brew of Strength", "Banner of the Griffin", "Dwarven Throwing Mattock", "Shroud of the Saint"):
        st.artefacts[name] = Holding("c")
    dice = ScriptedDice([])
    assert artefacts.draw(st, rules, dice, (20, 20), "a", section) == ""
    assert section.lines == ["No unowned artefact of 20 points is left in the pool"]
    lower = book(artefacts={"empty_band": "next_lower"})
    assert artefacts.draw(st, lower, ScriptedDice([1]), (20, 20), "a", Section("s")) == "Blade of Slashing"


def test_mk_art_3_the_only_artefact_left_needs_no_die() -> None:
    st, section = board(), Section("s")
    rules = book(artefacts={"pool": [{"name": "Lone Blade", "points": 20}]})
    assert artefacts.draw(st, rules, ScriptedDice([]), (20, 20), "a", section) == "Lone Blade"
    assert section.lines == ["Lone Blade (20 points) is the only unowned artefact of 20 points"]


def test_mk_art_10_artefacts_never_count_toward_points() -> None:
    st = board()
    a1 = army(st, "A1", "a", "T1", CAPTAIN, SPEARS)
    before = a1.roster.points
    artefacts.allocate(st, "Blade of Slashing", "a", "A1", "U2")
    assert a1.roster.points == before == 180
    assert all(not e.items for e in a1.roster.entries)


def test_mk_art_11_suitability_follows_the_pool_restrictions() -> None:
    st, rules = board(), book()
    a1 = army(st, "A1", "a", "T1", CAPTAIN, SPEARS, KNIGHTS, BOWS)
    captain, spears, knights, bows = a1.roster.entries

    def why(name: str, entry_index: int) -> str:
        return artefacts.why_not(st, rules, name, a1, a1.roster.entries[entry_index])
    assert why("Wings of Honeymaze", 1) == "Wings of Honeymaze is for Hero units only"
    assert why("Wings of Honeymaze", 0) == ""
    assert why("Banner of the Griffin", 0) == "Banner of the Griffin may not go to a Hero unit"
    assert why(X, 2) == "Mace of Crushing suits only Inf or Hv Inf or Lrg Inf units"
    assert why("Hail of Doom Arrows", 1) == "Hail of Doom Arrows needs a unit with a Ra value"
    assert why("Hail of Doom Arrows", 3) == ""
    assert why("Snakeskin Cloak", 0) == "Snakeskin Cloak needs a unit with fly"
    # Source example: the Fenulian Amulet needs a Lightning Bolt caster in the army.
    assert why("Fenulian Amulet", 1) == "Fenulian Amulet needs an army with a lightning bolt caster"
    a2 = army(st, "A2", "a", "T1", MAGE, SPEARS)
    assert artefacts.why_not(st, rules, "Fenulian Amulet", a2, a2.roster.entries[1]) == ""
    assert (captain.name, spears.name, knights.name, bows.name) == ("Captain", "Spearmen", "Knights", "Bowmen")


def test_mk_art_11_pool_entries_are_checked_with_the_rule_book() -> None:
    with pytest.raises(RulesError, match="unknown fields hero_only"):
        book(artefacts={"pool": [{"name": "Odd Ring", "points": 5, "hero_only": True}]})
    with pytest.raises(RulesError, match="'Odd Ring' is in the pool twice"):
        book(artefacts={"pool": [{"name": "Odd Ring", "points": 5}, {"name": "Odd Ring", "points": 10}]})
    with pytest.raises(RulesError, match=r"'artefacts\.unique' must stay true"):
        book(artefacts={"unique": False})
    with pytest.raises(RulesError, match=r"unknown unit types \['dragons'\]"):
        book(artefacts={"pool": [{"name": "Odd Ring", "points": 5, "kinds": ["dragons"]}]})


def test_mk_art_14_a_unit_carries_one_artefact() -> None:
    st, rules = board(), book()
    a1 = army(st, "A1", "a", "T1", CAPTAIN, SPEARS)
    artefacts.allocate(st, "Blade of Slashing", "a", "A1", "U2")
    assert artefacts.why_not(st, rules, "Pipes of Terror", a1, a1.roster.entries[1]) == \
        "A1.U2 already carries 1 artefact (MK-ART-14)"
    assert artefacts.why_not(st, rules, "Blade of Slashing", a1, a1.roster.entries[1]) == ""   # its own place
    two = book(artefacts={"max_per_unit": 2})
    assert artefacts.why_not(st, two, "Pipes of Terror", a1, a1.roster.entries[1]) == ""


def test_mk_art_13_lost_units_release_to_the_capital_or_the_pool() -> None:
    st, section = board(), Section("s")
    army(st, "A1", "a", "T1")
    army(st, "B1", "b", "T6")
    artefacts.allocate(st, "Blade of Slashing", "a", "A1", "U2")
    artefacts.allocate(st, "Pipes of Terror", "b", "B1", "U1")
    artefacts.release(st, "A1", "", section)
    artefacts.release(st, "B1", "U1", section)
    assert st.artefacts == {"Blade of Slashing": Holding("a")}
    assert section.lines == ["Blade of Slashing is held at A's capital",
                             "Pipes of Terror goes back to the pool (B holds no capital)"]


# -- scenario 13: the allocation variants and the capital takeover ----------------------------------
def test_mk_scenario_13_captured_artefact_goes_to_an_appropriate_unit_that_fought() -> None:
    st, section = board(), Section("s")
    fought = [army(st, "A1", "a", "T6", KNIGHTS), army(st, "A2", "a", "T6", KNIGHTS, SPEARS)]
    artefacts.award(st, book(), X, "a", fought, section)
    assert st.artefacts[X] == Holding("a", "A2", "U2")
    assert section.lines == ["Mace of Crushing goes to A2.U2 Spearmen"]


def test_mk_art_6_the_winner_picks_the_unit_when_it_may_carry_it() -> None:
    st, section = board(), Section("s")
    fought = [army(st, "A1", "a", "T6", SPEARS, SPEARS)]
    artefacts.award(st, book(), X, "a", fought, section, choice="A1.U2")
    assert st.artefacts[X] == Holding("a", "A1", "U2")
    st2, section2 = board(), Section("s")
    fought = [army(st2, "A1", "a", "T6", KNIGHTS, SPEARS)]
    artefacts.award(st2, book(), X, "a", fought, section2, choice="A1.U1")
    assert st2.artefacts[X] == Holding("a", "A1", "U2")
    assert section2.lines[0] == "Mace of Crushing cannot go to A1.U1: Mace of Crushing suits only Inf or Hv Inf or " \
                                "Lrg Inf units"


def test_mk_scenario_13_variant_i_no_appropriate_unit_held_at_the_winners_capital() -> None:
    st, section = board(), Section("s")
    artefacts.award(st, book(), X, "a", [army(st, "A1", "a", "T6", KNIGHTS)], section)
    assert st.artefacts[X] == Holding("a")
    assert section.lines == ["Mace of Crushing suits no unit of A1", "Mace of Crushing is held at A's capital"]


def test_mk_scenario_13_variant_ii_winner_without_capital_loses_it_to_the_pool() -> None:
    st, section = board(), Section("s")
    st.tiles["T1"].owner = "b"                       # A's capital is in B's hands
    artefacts.award(st, book(), X, "a", [army(st, "A1", "a", "T6", KNIGHTS)], section)
    assert X not in st.artefacts
    assert section.lines[-1] == "Mace of Crushing goes back to the pool (A holds no capital)"


def test_mk_scenario_13_later_capital_taken_over_gives_the_held_artefact_to_the_taker() -> None:
    st, section = board(), Section("s")
    st.artefacts[X] = Holding("a")                   # held at A's capital T1 (variant i)
    army(st, "C1", "c", "T1", KNIGHTS, SPEARS)        # C1 moved into T1, which holds no A army
    st.tiles["T1"].owner = "c"
    artefacts.capital_taken(st, "T1", "C1", section, book())
    assert st.artefacts[X] == Holding("c", "C1", "U2")
    assert section.lines == ["Mace of Crushing, held at A's capital, is taken by C1",
                             "Mace of Crushing goes to C1.U2 Spearmen"]


def test_mk_art_9_taker_with_no_suitable_unit_holds_it_at_his_capital_or_loses_it() -> None:
    st, section = board(), Section("s")
    st.artefacts[X] = Holding("a")
    st.artefacts["Blade of Slashing"] = Holding("a", "A9", "U1")     # on a unit: not held at the capital
    army(st, "C1", "c", "T1", KNIGHTS)
    st.tiles["T1"].owner = "c"
    artefacts.capital_taken(st, "T1", "C1", section, book())
    assert st.artefacts[X] == Holding("c")
    assert st.artefacts["Blade of Slashing"] == Holding("a", "A9", "U1")
    st2, section2 = board(), Section("s")
    st2.artefacts[X] = Holding("a")
    army(st2, "B1", "b", "T1", KNIGHTS)
    st2.tiles["T1"].owner = "b"
    artefacts.capital_taken(st2, "T1", "B1", section2)         # the shipped pool when no rules are given
    assert X not in st2.artefacts
    assert section2.lines[-1] == "Mace of Crushing goes back to the pool (B holds no capital)"


def test_mk_art_9_nothing_moves_for_the_owner_or_an_ordinary_tile() -> None:
    st, section = board(), Section("s")
    st.artefacts[X] = Holding("a")
    army(st, "A1", "a", "T1", SPEARS)
    army(st, "C1", "c", "T2", SPEARS)
    artefacts.capital_taken(st, "T1", "A1", section, book())
    artefacts.capital_taken(st, "T2", "C1", section, book())
    assert st.artefacts[X] == Holding("a") and not section.lines


def test_mk_art_2_the_default_pool_covers_every_reward_band() -> None:
    st, rules = board(), book()
    assert artefacts.bands(rules) == [(5, 15), (20, 20), (25, 25), (30, 30), (35, 35), (40, 50)]
    assert [len(artefacts.unowned(st, rules, low, high)) for low, high in artefacts.bands(rules)] == [8, 4, 4, 4, 4, 6]
    assert all(a.points for a in artefacts.pool(rules))
