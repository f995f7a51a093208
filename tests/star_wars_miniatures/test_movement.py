"""Movement: SC-8 allowances, SC-9 the stop rule and the two-entry limit, SC-3's alliance moves."""

from __future__ import annotations

import pytest

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import helpers

SC8 = {
    "Q1": (["Stormtrooper x10"], 3),
    "Q2": (["Darth Vader, Sith Lord", "Stormtrooper x6"], 3),
    "Q3": (["Exar Kun", "Darth Vader, Sith Lord"], 4),
    "Q4": (["Stormtrooper x6", "Heavy Trooper"], 3),
    "Q5": (["Jabba", "Stormtrooper x6"], 1),
    "Q6": (["Jabba", "Skiff", "Stormtrooper x6"], 3),
    "Q7": (["Jabba", "Skiff", "Stormtrooper x6", "Rancor"], 2),
}


@pytest.mark.clause("SWM-MOV-2")
@pytest.mark.clause("SWM-MOV-3")
@pytest.mark.clause("SWM-MOV-4")
@pytest.mark.clause("SWM-MOV-5")
@pytest.mark.clause("SWM-MOV-6")
@pytest.mark.clause("SWM-MOV-7")
@pytest.mark.clause("SWM-ROS-6")
@pytest.mark.parametrize("name", sorted(SC8))
def test_swm_mov_sc8_movement_allowances(name: str, cat: Catalog, book: RuleBook) -> None:
    cards, expected = SC8[name]
    st = helpers.state()
    squad = helpers.squad(st, cat, name, "alice", "A1", cards)
    assert mv.allowance(squad.troops, cat, book) == expected


def test_swm_mov_7_the_slowest_large_troop_rides_and_the_assignment_is_known(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    squad = helpers.squad(st, cat, "Q7", "alice", "A1", ["Jabba", "Skiff", "Rancor"], ids=["j", "s", "r"])
    assert mv.carried(squad.troops, cat, book) == {"j": "s"}


@pytest.mark.clause("SWM-UPG-4")
@pytest.mark.clause("SWM-UPG-5")
def test_swm_mov_sc8_q8_q9_speed_and_force_upgrades_change_the_rate(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    q8 = helpers.squad(st, cat, "Q8", "alice", "A1", ["Darth Vader, Sith Lord", "Stormtrooper"])
    tr.buy(q8.troops[1], "Speed", "", 100, 1)
    assert mv.rate(q8.troops[1], cat, book) == 16 and mv.allowance(q8.troops, cat, book) == 4
    q9 = helpers.squad(st, cat, "Q9", "alice", "A1", ["Stormtrooper x6"])
    tr.buy(q9.troops[0], "Force", "", 150, 1)
    assert mv.rate(q9.troops[0], cat, book) == 14 and mv.allowance(q9.troops, cat, book) == 3


def _sc9(cat: Catalog, book: RuleBook) -> World:
    st = helpers.state()
    st.turn = 9
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R2", "bob", "B3", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R3", "bob", "B1", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "M4", "cara", "C2", ["Mandalorian Soldier x4"], damaged=True)
    return World(st, helpers.test_map(), cat, book)


@pytest.mark.clause("SWM-MOV-1")
@pytest.mark.clause("SWM-MOV-8")
@pytest.mark.clause("SWM-MOV-9")
@pytest.mark.clause("SWM-MOV-11")
@pytest.mark.clause("SWM-MOV-15")
@pytest.mark.clause("SWM-MOV-13")
@pytest.mark.clause("SWM-BAT-1")
def test_swm_mov_sc9_stop_rule_two_entries_and_a_refused_third(cat: Catalog, book: RuleBook) -> None:
    world = _sc9(cat, book)
    done = mv.SlotMoves()
    lines = [mv.move(world, ["bob"], "R1", ["A2", "A1"], done), mv.move(world, ["bob"], "R2", ["C2"], done),
             mv.move(world, ["bob"], "R3", ["B2", "A3"], done)]
    assert lines == [
        "R1 moves to A2 (stopped in A2, which is not yours: the rest of the path is dropped).",
        "R2 moves to C2.",
        "MOVE R3 B2 A3: refused, it would be a third enemy territory this turn (at most 2, SWM-MOV-11); "
        "R3 holds in B1"]
    assert done.entered == ["A2", "C2"]


@pytest.mark.clause("SWM-MOV-14")
@pytest.mark.clause("SWM-MOV-10")
@pytest.mark.clause("SWM-SQD-6")
def test_swm_mov_15_a_path_breaking_a_rule_is_refused_whole(cat: Catalog, book: RuleBook) -> None:
    world = _sc9(cat, book)
    done = mv.SlotMoves()
    world.state.lands["B4"].active = False
    assert mv.move(world, ["bob"], "R3", ["B4"], done) == \
        "MOVE R3 B4: refused, B4 is inactive and can never be entered (SWM-MOV-10); R3 holds in B1"
    assert mv.move(world, ["bob"], "R3", ["A1"], done) == \
        "MOVE R3 A1: refused, A1 is not adjacent to B1; R3 holds in B1"
    assert mv.move(world, ["bob"], "R3", ["B2", "B3", "B1", "B2"], done).endswith(
        "refused, the path is 4 territories and its allowance is 3; R3 holds in B1")
    assert mv.move(world, ["cara"], "M4", ["C1"], done) == \
        "MOVE M4 C1: refused, a damaged squad may not move (SWM-SQD-6); M4 holds in C2"
    assert mv.move(world, ["cara"], "R3", ["B2"], done) == "MOVE R3: refused, not a squad of yours"
    world.state.squads["R3"].disrupted = True
    assert "disrupted" in mv.move(world, ["bob"], "R3", ["B2"], done)


@pytest.mark.clause("SWM-ALL-6")
@pytest.mark.clause("SWM-ALL-8")
@pytest.mark.clause("SWM-ALL-10")
@pytest.mark.clause("SWM-ALL-18")
@pytest.mark.clause("SWM-MOV-12")
@pytest.mark.clause("SWM-STK-2")
def test_swm_mov_sc3_allied_moves_pass_through_and_share_entries_and_the_attacker_cap(
        cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x5", "Stormtrooper x18"])
    helpers.squad(st, cat, "S3", "alice", "A3", ["Stormtrooper x12"], damaged=True)
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x20"])
    helpers.squad(st, cat, "R5", "bob", "B1", ["Rebel Trooper x16"])
    helpers.squad(st, cat, "M1", "cara", "C1", ["Mandalorian Soldier x10"])
    helpers.squad(st, cat, "M2", "cara", "B3", ["Mandalorian Captain", "Mandalorian Soldier x6"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    side = ["bob", "cara"]
    lines = [mv.move(world, side, "M1", ["C2", "A3"], done), mv.move(world, side, "M2", ["B2", "A2"], done),
             mv.move(world, side, "R1", ["A3"], done), mv.move(world, side, "R5", ["B2", "A2"], done)]
    assert lines == ["M1 moves to A3.", "M2 moves to A2.", "R1 moves to A3.",
                     "MOVE R5 B2 A2: refused, A2 already holds 1 attacking squad, its stacking limit (SWM-MOV-12); "
                     "R5 holds in B1"]
    assert done.entered == ["A3", "A2"] and done.attackers == {"A3": ["M1", "R1"], "A2": ["M2"]}
    assert len(st.squads_in("A3")) == 3
