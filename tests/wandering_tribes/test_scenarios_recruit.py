"""The catalog's acceptance scenarios 10 and 11: recruiting and combining, with exact points."""

from __future__ import annotations

import pytest

from pbem.rulesets.wandering_tribes.combine import combine_tile
from pbem.rulesets.wandering_tribes.model import Stack, State
from pbem.rulesets.wandering_tribes.plan import Attempt, RoundOrders
from pbem.rulesets.wandering_tribes.player_round import play
from pbem.rulesets.wandering_tribes.recruit import choose, recruit
from pbem.rulesets.wandering_tribes.rules import Rules
from tests.wandering_tribes.helpers import dice, put, row, rules, world

A1_870 = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen", "Knights", "Knights",
          "Pistoliers", "Handgunners", "Cannons"]
A2_555 = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Knights", "Pistoliers"]


@pytest.mark.clause("WT-REC-6", "WT-REC-7", "WT-REC-4", "WT-REC-5", "WT-PBEM-9", "WT-GEN-5")
def test_wt_rec_6_a_second_general_is_refused_and_halberdiers_are_cut_to_the_points_cap() -> None:
    book, state = rules(), world({"Anna": "empire"})
    a1 = put(state, book, "A1", "Anna", "T1", A1_870)
    assert a1.points == 870
    nation = book.nations["empire"]
    assert choose(book, nation, a1, "towns", [("General", 1), ("Halberdiers", 4)]) == ("Halberdiers", 2)
    recruit(state, book, a1, "towns", [("General", 1), ("Halberdiers", 4)])
    assert a1.points == 960 and a1.count("General") == 1


@pytest.mark.clause("WT-REC-8", "WT-REC-9", "WT-REC-10", "WT-NAT-4")
def test_wt_rec_8_a_lacking_compulsory_crossbowman_is_forced_instead_of_pistoliers() -> None:
    book, state = rules(), world({"Anna": "empire"})
    a2 = put(state, book, "A2", "Anna", "T1", A2_555)
    assert a2.points == 555
    recruit(state, book, a2, "plains", [("Pistoliers", 1)])
    assert a2.points == 610 and a2.count("Crossbowmen") == 2 and a2.count("Pistoliers") == 1


@pytest.mark.clause("WT-NAT-2", "WT-REC-11")
def test_wt_nat_2_the_empty_empire_desert_cell_recruits_nothing() -> None:
    book, state = rules(), world({"Anna": "empire"})
    a2 = put(state, book, "A2", "Anna", "T1", A2_555)
    assert choose(book, book.nations["empire"], a2, "desert", [("Pistoliers", 1)]) is None
    assert choose(book, book.nations["empire"], put(state, book, "A3", "Anna", "T1", A1_870), "plains", []) is None


@pytest.mark.clause("WT-REC-1", "WT-ENC-15", "WT-REC-13")
def test_wt_rec_1_a_stack_ending_beside_its_own_stack_recruits_nothing_and_is_merged() -> None:
    gmap, book = row(5), rules()
    state = world({"Anna": "empire"})
    put(state, book, "A1", "Anna", "T1", ["General", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"])
    put(state, book, "A2", "Anna", "T3", ["Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"])
    orders = RoundOrders(rest=False, attempts=[Attempt("A1", campfire="pass")],
                         recruit={"ALL": {"plains": [("Pistoliers", 1)]}})
    done = play(state, book, gmap, "Anna", orders, dice(5, 5, 12))
    assert list(done.state.stacks) == ["A1"] and done.state.stacks["A1"].tile == "T3"
    assert done.state.stacks["A1"].count("Pistoliers") == 0 and len(done.state.stacks["A1"].markers) == 10


@pytest.mark.clause("WT-REC-12")
def test_wt_rec_12_a_mount_needs_a_character_able_to_take_it_without_one_yet() -> None:
    book, state = rules(), world({"Anna": "empire"})
    stack = put(state, book, "A1", "Anna", "T1", ["Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"])
    nation = book.nations["empire"]
    assert choose(book, nation, stack, "hills", [("Griffon", 1)]) == ("Griffon", 1)
    altar = put(state, book, "A2", "Anna", "T1", ["Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen"])
    assert choose(book, nation, altar, "villages", [("War Altar", 1)]) is None     # War Altar: General only


S1 = ["General", "Hero", "Halberdiers", "Halberdiers", "Crossbowmen", "Crossbowmen", "Knights", "Pistoliers",
      "Handgunners"]
S2 = ["Hero", "Halberdiers", "Crossbowmen", "Knights", "Knights"]


def _eleven(extra: list[str] | None = None) -> tuple[Rules, State, list[Stack]]:
    book, state = rules(), world({"Anna": "empire"})
    s1 = put(state, book, "S1", "Anna", "T3", S1)
    s2 = put(state, book, "S2", "Anna", "T3", S2 + (extra or []))
    assert s1.points == 675 and (extra or s2.points == 400)
    return book, state, [s1, s2]


@pytest.mark.clause("WT-CMB-8", "WT-CMB-5", "WT-CMB-6", "WT-CMB-7", "WT-CMB-4")
def test_wt_cmb_8_the_removal_list_skips_a_crossbowman_below_the_minimum_and_stops_at_975() -> None:
    book, state, stacks = _eleven()
    log: list[str] = []
    combine_tile(state, book, stacks, ["Crossbowmen", "Crossbowmen", "Halberdiers"], log)
    s1 = state.stacks["S1"]
    assert list(state.stacks) == ["S1"] and s1.points == 975
    assert s1.count("Crossbowmen") == 2 and s1.count("Halberdiers") == 2


@pytest.mark.clause("WT-CMB-9", "WT-CMB-2", "WT-CMB-12")
def test_wt_cmb_9_the_default_removes_the_hero_with_the_higher_id_and_nothing_more() -> None:
    book, state, stacks = _eleven()
    log: list[str] = []
    combine_tile(state, book, stacks, [], log)
    s1 = state.stacks["S1"]
    assert s1.points == 995 and "m10" not in [m.id for m in s1.markers] and s1.count("Hero") == 1


@pytest.mark.clause("WT-CMB-3")
def test_wt_cmb_3_a_second_general_over_the_maximum_goes_first_then_the_point_step() -> None:
    book, state, stacks = _eleven(["General"])
    log: list[str] = []
    combine_tile(state, book, stacks, [], log)
    s1 = state.stacks["S1"]
    assert s1.count("General") == 1 and "m15" not in [m.id for m in s1.markers]
    assert "over the maximum of General" in log[1] and s1.points == 995


@pytest.mark.clause("WT-CMB-10")
def test_wt_cmb_10_when_minimums_make_the_cap_unreachable_they_are_broken_and_the_gm_told() -> None:
    book = rules(**{"nations.empire.list.Halberdiers.min": 30})
    state = world({"Anna": "empire"})
    s1 = put(state, book, "S1", "Anna", "T3", ["General"] + ["Halberdiers"] * 12)
    s2 = put(state, book, "S2", "Anna", "T3", ["Hero"] + ["Halberdiers"] * 12)
    log: list[str] = []
    alerts = combine_tile(state, book, [s1, s2], [], log)
    assert state.stacks["S1"].points <= 1000 and alerts


@pytest.mark.clause("WT-CMB-11")
def test_wt_cmb_11_a_bretonnian_merge_keeps_its_last_knights() -> None:
    book = rules(**{"nations.bretonnians.list.Knights.min": 0})
    state = world({"Bea": "bretonnians"})
    s1 = put(state, book, "K1", "Bea", "T3", ["General", "Knights"] + ["Peasants"] * 12)
    s2 = put(state, book, "K2", "Bea", "T3", ["Hero"] + ["Peasants"] * 8)
    log: list[str] = []
    combine_tile(state, book, [s1, s2], ["Knights"], log)
    assert state.stacks["K1"].count("Knights") == 1 and state.stacks["K1"].points <= 1000
