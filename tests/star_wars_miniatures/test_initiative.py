"""The Initiative Phase: SC-1 (the source's worked example), SC-2 (modifiers, Disruptive, an
alliance's result) and SC-4 (alliance break-up), with fixed dice."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import initiative as ini
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.initiative import Preference, Side
from pbem.rulesets.star_wars_miniatures.world import World, check_stacking
from tests.star_wars_miniatures import helpers

EXAMPLE = [("Imperial", 19, "early"), ("Republic", 17, "late"), ("New Republic", 14, "early"),
           ("Sith", 14, "early"), ("Rebel", 12, "late"), ("Old Republic", 11, "early"),
           ("Yuuzhan Vong", 11, "late"), ("Separatist", 7, "early"), ("Mandalorian", 2, "late")]
ORDER = ["Imperial", "New Republic", "Sith", "Old Republic", "Separatist", "Mandalorian", "Yuuzhan Vong",
         "Rebel", "Republic"]


def _example(**prefer: tuple[str, ...]) -> list[Side]:
    return [Side([name], total, name, Preference("" if name in prefer else stance, prefer.get(name, ())))
            for name, total, stance in EXAMPLE]


@pytest.mark.clause("SWM-INI-9")
@pytest.mark.clause("SWM-INI-10")
@pytest.mark.clause("SWM-INI-11")
@pytest.mark.clause("SWM-INI-12")
@pytest.mark.clause("SWM-INI-13")
@pytest.mark.clause("SWM-INI-16")
@pytest.mark.clause("SWM-INI-19")
def test_swm_ini_17_the_sources_worked_example_chooses_and_slots_as_printed() -> None:
    dice = ScriptedDice([16, 9, 13, 4])          # New Republic 16, Sith 9; Old Republic 13, Yuuzhan Vong 4
    choosers = ini.choosing_order(_example(), dice)
    assert [s.key for s in choosers] == ["Imperial", "Republic", "New Republic", "Sith", "Rebel", "Old Republic",
                                         "Yuuzhan Vong", "Separatist", "Mandalorian"]
    assert [r.purpose for r in dice.log] == ["initiative roll-off: New Republic", "initiative roll-off: Sith",
                                             "initiative roll-off: Old Republic", "initiative roll-off: Yuuzhan Vong"]
    assert [s.key for s in ini.assign_slots(choosers)] == ORDER


def test_swm_ini_18_the_reconstructed_final_order_exactly() -> None:
    slots = ini.assign_slots(ini.choosing_order(_example(), ScriptedDice([16, 9, 13, 4])))
    assert {s.key: n for n, s in enumerate(slots, 1)} == {
        "Imperial": 1, "New Republic": 2, "Sith": 3, "Old Republic": 4, "Separatist": 5, "Mandalorian": 6,
        "Yuuzhan Vong": 7, "Rebel": 8, "Republic": 9}


def test_swm_ini_14_sc1_variant_a_prefer_ranking_takes_the_listed_slot() -> None:
    choosers = ini.choosing_order(_example(Sith=("B2", "F3")), ScriptedDice([16, 9, 13, 4]))
    assert [s.key for s in ini.assign_slots(choosers)] == [
        "Imperial", "New Republic", "Old Republic", "Separatist", "Mandalorian", "Yuuzhan Vong", "Rebel", "Sith",
        "Republic"]


def test_swm_ini_14_a_ranking_naming_neither_free_slot_goes_early() -> None:
    sides = [Side(["a"], 5, "a", Preference(ranking=("F2",))), Side(["b"], 3, "b"), Side(["c"], 1, "c")]
    assert [s.key for s in ini.assign_slots(sides)] == ["a", "b", "c"]


def test_swm_ini_10_three_tied_sides_reroll_until_settled() -> None:
    sides = [Side([k], 9, k) for k in ("a", "b", "c")]
    dice = ScriptedDice([7, 12, 7, 3, 18])        # b first; a and c tie on 7 and roll again: c 18 beats a 3
    assert [s.key for s in ini.choosing_order(sides, dice)] == ["b", "c", "a"]


def _sc2(cat: Catalog, book: RuleBook, bob_place: str = "B2") -> World:
    st = helpers.state()
    st.players["alice"].officers.append("intelligence_officer")
    helpers.squad(st, cat, "S1", "alice", "A2", ["Grand Admiral Thrawn", "Scout Trooper", "Elite Trooper x5",
                                                  "Stormtrooper x10"])
    helpers.squad(st, cat, "S2", "alice", "A1", ["Scout Trooper", "Imperial Officer", "Elite Trooper x5",
                                                  "Stormtrooper x4"])
    helpers.squad(st, cat, "S3", "alice", "A3", ["Stormtrooper x12"], damaged=True)
    helpers.squad(st, cat, "R1", "bob", bob_place, ["Rebel Commando", "Rebel Trooper x15"])
    helpers.squad(st, cat, "M1", "cara", "C1", ["Mandalorian Soldier x10"])
    helpers.squad(st, cat, "M5", "cara", "C1", ["Mandalorian Soldier x4"], damaged=True)
    return World(st, helpers.test_map(), cat, book)


def _sc2_slots(world: World, dice: ScriptedDice) -> list[Side]:
    players = ["alice", "bob", "cara"]
    world.state.alliances = ini.form_alliances({"bob": ["bob", "cara"], "cara": ["cara", "bob"]}, players)
    totals = ini.roll_totals(world, players, dice)
    prefs = {"alice": Preference("early"), "cara": Preference(ranking=("B1", "F1"))}
    sides = ini.make_sides(players, world.state.alliances, totals, prefs)
    return ini.assign_slots(ini.choosing_order(sides, dice))


@pytest.mark.clause("SWM-INI-2")
@pytest.mark.clause("SWM-INI-3")
@pytest.mark.clause("SWM-INI-4")
@pytest.mark.clause("SWM-INI-5")
@pytest.mark.clause("SWM-INI-6")
@pytest.mark.clause("SWM-INI-7")
@pytest.mark.clause("SWM-INI-8")
@pytest.mark.clause("SWM-INI-15")
@pytest.mark.clause("SWM-ALL-5")
@pytest.mark.clause("SWM-ALL-17")
@pytest.mark.clause("SWM-GEN-6")
def test_swm_ini_sc2_modifiers_disruptive_blocking_and_the_alliances_result(cat: Catalog, book: RuleBook) -> None:
    world = _sc2(cat, book)
    slots = _sc2_slots(world, ScriptedDice([8, 12, 15]))
    assert world.state.log[:3] == [
        "Initiative alice: d20 8 +2 (Intelligence Officer) +1 (S2 Recon) -1 (S3 damaged) = 10",
        "Initiative bob: d20 12 = 12",
        "Initiative cara: d20 15 -1 (M5 damaged) = 14"]
    assert [(s.key, s.total, s.picked) for s in slots] == [("alice", 10, "alice"), ("bob+cara", 14, "cara")]


def test_swm_ini_sc2_variant_without_a_disruptive_neighbour_alice_gets_thrawn_and_both_recons(
        cat: Catalog, book: RuleBook) -> None:
    world = _sc2(cat, book, bob_place="B1")
    slots = _sc2_slots(world, ScriptedDice([8, 12, 15]))
    assert world.state.log[0] == ("Initiative alice: d20 8 +2 (Intelligence Officer) +1 (S1 Recon) +5 (Thrawn in S1)"
                                  " +1 (S2 Recon) -1 (S3 damaged) = 16")
    assert [s.key for s in slots] == ["alice", "bob+cara"]


@pytest.mark.clause("SWM-ALL-4")
def test_swm_all_2_an_alliance_forms_only_on_identical_member_sets() -> None:
    players = ["alice", "bob", "cara", "dan"]
    assert ini.form_alliances({"bob": ["bob", "cara"], "cara": ["bob", "cara"]}, players) == [["bob", "cara"]]
    assert ini.form_alliances({"bob": ["bob", "cara"], "cara": ["bob", "cara", "dan"],
                               "dan": ["bob", "cara", "dan"]}, players) == []
    assert ini.form_alliances({"bob": ["bob", "cara"]}, players) == []
    assert ini.form_alliances({"alice": ["alice"]}, players) == []
    three = {p: ["bob", "cara", "dan"] for p in ("bob", "cara", "dan")}
    assert ini.form_alliances(three, players, max_members=2) == []


def _sc4(cat: Catalog, book: RuleBook) -> World:
    st = helpers.state()
    st.turn = 6
    helpers.squad(st, cat, "R6", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R7", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R5", "bob", "B1", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R1", "bob", "A3", ["Rebel Trooper x15"])
    st.lands["A3"].owner = "cara"
    helpers.squad(st, cat, "M3", "cara", "B3", ["Mandalorian Soldier x6"])
    helpers.squad(st, cat, "M4", "cara", "B1", ["Mandalorian Soldier x6"])
    return World(st, helpers.test_map(), cat, book)


@pytest.mark.clause("SWM-ALL-11")
@pytest.mark.clause("SWM-ALL-12")
@pytest.mark.clause("SWM-ALL-3")
@pytest.mark.clause("SWM-STK-4")
@pytest.mark.clause("SWM-STK-6")
@pytest.mark.clause("SWM-PBM-9")
def test_swm_all_11_sc4_break_up_retreats_destroys_and_the_overstack(cat: Catalog, book: RuleBook) -> None:
    world = _sc4(cat, book)
    world.state.alliances = ini.form_alliances({"bob": ["bob", "cara"]}, ["alice", "bob", "cara"])
    assert world.state.alliances == []
    ini.breakup_retreats(world, {})
    st = world.state
    assert (st.squads["R1"].place, st.squads["M3"].place, "M4" in st.squads) == ("B2", "C2", False)
    check_stacking(world, "initiative")
    assert sorted(s.id for s in st.squads_in("B2")) == ["R6", "R7"]
    assert st.log[-1] == "R1 (Rebel) is eliminated with all its troops: over the stacking limit of B2 at the end " \
                         "of the initiative phase."


def test_swm_all_13_sc4_variant_a_standing_overstack_choice_removes_r7(cat: Catalog, book: RuleBook) -> None:
    world = _sc4(cat, book)
    world.state.players["bob"].overstack = {"B2": ["R7"]}
    ini.breakup_retreats(world, {})
    check_stacking(world, "initiative")
    assert sorted(s.id for s in world.state.squads_in("B2")) == ["R1", "R6"]


@pytest.mark.parametrize("renews", [False, True])
def test_swm_pbm_6_sc4_a_silent_member_ends_the_alliance_unless_nmr_renews(
        cat: Catalog, book: RuleBook, renews: bool) -> None:
    world = _sc4(cat, book)
    declared = ini.declarations({"bob": ["bob", "cara"]}, ["alice", "cara"], [["bob", "cara"]], renews)
    world.state.alliances = ini.form_alliances(declared, ["alice", "bob", "cara"])
    assert world.state.alliances == ([["bob", "cara"]] if renews else [])
    if not renews:
        return
    ini.breakup_retreats(world, {})
    assert {s.id: s.place for s in world.state.squads.values()}["R1"] == "A3"
    assert "M4" in world.state.squads
