"""Who takes a territory and what it counts as, by the catalog's readings: whether an empty
territory entered is one of the two entries (A8), which ally takes it (A13), and whether its
fortification and minefield stay (A17), each default against the alternative a campaign.toml
may choose."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import rules
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import helpers


# -- A8: whether an uncontested entry counts ------------------------------------------------
def _entries(book: RuleBook, cat: Catalog) -> tuple[World, mv.SlotMoves, list[str]]:
    """Bob enters the empty A3 and C2, then A2, where Alice stands."""
    st = helpers.state()
    for ident, place in (("R1", "B2"), ("R2", "B2"), ("R3", "B3")):
        helpers.squad(st, cat, ident, "bob", place, ["Rebel Trooper x15"])
    helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x5", "Stormtrooper x8"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    lines = [mv.move(world, ["bob"], "R1", ["A3"], done), mv.move(world, ["bob"], "R3", ["C2"], done),
             mv.move(world, ["bob"], "R2", ["A2"], done)]
    return world, done, lines


@pytest.mark.clause("SWM-MOV-11")
def test_swm_mov_11_a8_an_empty_territory_entered_counts_toward_the_two(cat: Catalog, book: RuleBook) -> None:
    _, done, lines = _entries(book, cat)
    assert done.entered == ["A3", "C2"]
    assert lines == ["R1 moves to A3.", "R3 moves to C2.",
                     "MOVE R2 A2: refused, it would be a third enemy territory this turn (at most 2, SWM-MOV-11); "
                     "R2 holds in B2"]


def test_swm_mov_11_a8_uncontested_entries_left_out_of_the_count_when_chosen(cat: Catalog) -> None:
    _, done, lines = _entries(helpers.chosen("capture", "uncontested_counts_as_entry", False), cat)
    assert lines == ["R1 moves to A3.", "R3 moves to C2.", "R2 moves to A2."]
    assert done.entered == ["A3", "C2", "A2"] and done.uncounted == {"A3", "C2"}


# -- A13 and A17: who takes a territory, and what stays in it --------------------------------
def _taken(book: RuleBook, cat: Catalog) -> World:
    """Bob and Cara allied; Cara's smaller squad enters the empty, fortified, mined A3 first."""
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    st.lands["A3"].fortified = st.lands["A3"].minefield = True
    helpers.squad(st, cat, "M1", "cara", "C2", ["Mandalorian Soldier x5"])      # 70 points against 90
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    mv.move(world, ["bob", "cara"], "M1", ["A3"], done)
    mv.move(world, ["bob", "cara"], "R1", ["A3"], done)
    bt.settle(world, ["bob", "cara"], done.entered, done.attackers, ScriptedDice([]), ["B1-1-1"])
    return world


@pytest.mark.clause("SWM-ALL-16")
@pytest.mark.clause("SWM-ADV-15")
def test_swm_all_16_a13_the_member_with_the_most_points_takes_it_and_its_defences_stay(
        cat: Catalog, book: RuleBook) -> None:
    world = _taken(book, cat)
    assert world.state.owner("A3") == "bob"
    assert world.state.lands["A3"].fortified and world.state.lands["A3"].minefield


def test_swm_all_16_a13_first_entered_gives_it_to_the_first_member_in(cat: Catalog) -> None:
    world = _taken(helpers.chosen("alliance", "capture_owner", "first_entered"), cat)
    assert world.state.owner("A3") == "cara"


def test_swm_adv_15_a17_on_capture_removed_takes_the_fortification_and_minefield_away(cat: Catalog) -> None:
    book = rules.load({"advantages": {"fortify": {"on_capture": "removed"}, "minefield": {"on_capture": "removed"}}})
    world = _taken(book, cat)
    land = world.state.lands["A3"]
    assert (land.owner, land.fortified, land.minefield) == ("bob", False, False)
    assert world.state.log[-3:] == ["The fortification of A3 is removed as it changes hands (A17).",
                                    "The minefield of A3 is removed as it changes hands (A17).",
                                    "A3 passes to bob: uncontested capture (no battle, no dice)."]
