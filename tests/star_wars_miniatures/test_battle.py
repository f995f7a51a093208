"""Battles: SC-9's capture and walk-over, SC-10's minefield, SC-11's post-battle chart, damage,
retreat and XP, SC-12's four-squad battle with retreats, overstack and the strategic move."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import retreat as rt
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.battle import ATTACKER, DEFENDER, FLED, KILLED, NONE, Event, Result
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import FORCE_SPENT, Battle
from pbem.rulesets.star_wars_miniatures.retreat import Strategic
from pbem.rulesets.star_wars_miniatures.world import World, check_stacking
from tests.star_wars_miniatures import helpers


@pytest.mark.clause("SWM-BAT-2")
@pytest.mark.clause("SWM-BAT-3")
@pytest.mark.clause("SWM-BAT-4")
@pytest.mark.clause("SWM-PBC-16")
@pytest.mark.clause("SWM-MOV-17")
@pytest.mark.clause("SWM-ECO-1")
def test_swm_bat_sc9_uncontested_capture_and_walk_over_with_no_dice(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R2", "bob", "B3", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "M4", "cara", "C2", ["Mandalorian Soldier x4"], damaged=True)
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    mv.move(world, ["bob"], "R1", ["A2", "A1"], done)
    mv.move(world, ["bob"], "R2", ["C2"], done)
    dice = ScriptedDice([])
    out = bt.settle(world, ["bob"], done.entered, done.attackers, dice, ["B9-1"])
    assert (out.battles, out.captured, out.retreating) == ([], ["A2", "C2"], [("M4", "C2")])
    assert rt.carry_out(world, out.retreating, {}) == [("M4", "C2", "C1")]
    assert (st.owner("A2"), st.owner("C2"), dice.log) == ("bob", "bob", [])
    income = sum(helpers.test_map().territories[t].income for t in st.lands if st.owner(t) == "bob")
    assert income == 180


def test_swm_pbc_12_sc9_variant_a_walked_over_squad_with_no_friendly_neighbour_is_eliminated(
        cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.lands["C1"].owner = "alice"
    helpers.squad(st, cat, "R2", "bob", "B3", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "M4", "cara", "C2", ["Mandalorian Soldier x4"], damaged=True)
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    mv.move(world, ["bob"], "R2", ["C2"], done)
    out = bt.settle(world, ["bob"], done.entered, done.attackers, ScriptedDice([]), ["B9-1"])
    assert rt.carry_out(world, out.retreating, {}) == [] and "M4" not in st.squads


S1 = ["Darth Vader, Sith Lord", "Imperial Officer", "Elite Trooper x3", "Stormtrooper x2"]
S1_IDS = ["vader", "officer", "e1", "e2", "e3", "t1", "t2"]
R1 = ["Luke Skywalker, Jedi Knight", "Rebel Commando", "Rebel Trooper x10"]
R1_IDS = ["luke", "commando", "rt1", "rt2", "rt3", "rt4", "rt5", "rt6", "rt7", "rt8", "rt9", "rt10"]
MINE_DICE = [4, 16, 15, 11, 10, 19, 2, 13]


def _sc10(cat: Catalog, book: RuleBook) -> World:
    st = helpers.state()
    st.turn = 10
    st.lands["B2"].fortified = st.lands["B2"].minefield = True
    helpers.squad(st, cat, "R1", "bob", "B2", R1, R1_IDS)
    helpers.squad(st, cat, "R3", "bob", "B1", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R4", "bob", "B3", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "S1", "alice", "A2", S1, S1_IDS)
    st.players["alice"].mine_rerolls = {"Darth Vader": 1}
    st.players["alice"].officers.append("medical_officer")
    return World(st, helpers.test_map(), cat, book)


def _sc10_battle(world: World) -> Battle:
    done = mv.SlotMoves()
    assert mv.move(world, ["alice"], "S1", ["B2"], done) == "S1 moves to B2."
    out = bt.settle(world, ["alice"], done.entered, done.attackers, ScriptedDice(MINE_DICE), ["B10-1"])
    return out.battles[0]


@pytest.mark.clause("SWM-BAT-16")
@pytest.mark.clause("SWM-BAT-18")
@pytest.mark.clause("SWM-BAT-15")
@pytest.mark.clause("SWM-BAT-6")
@pytest.mark.clause("SWM-GEN-10")
def test_swm_bat_sc10_mine_saves_in_roster_order_with_a_force_reroll(cat: Catalog, book: RuleBook) -> None:
    world = _sc10(cat, book)
    battle = _sc10_battle(world)
    assert (battle.fortified, battle.mined, battle.attackers, battle.defenders) == (True, True, ["S1"], ["R1"])
    assert battle.mine_hits == ["e2", "t1"]
    assert battle.force_spent == {"vader": 1}
    assert world.state.troop("vader")[1].counters[FORCE_SPENT] == 1     # type: ignore[index]
    assert (world.state.squads["S1"].points, world.state.squads["R1"].points) == (126, 115)


def test_swm_pbm_13_without_a_mine_reroll_order_a_failed_save_stands(cat: Catalog, book: RuleBook) -> None:
    world = _sc10(cat, book)
    world.state.players["alice"].mine_rerolls = {}
    done = mv.SlotMoves()
    mv.move(world, ["alice"], "S1", ["B2"], done)
    dice = ScriptedDice([4, 15, 11, 10, 19, 2, 13])
    out = bt.settle(world, ["alice"], done.entered, done.attackers, dice, ["B10-1"])
    assert out.battles[0].mine_hits == ["vader", "e2", "t1"] and dice.unused == []


SC11_EVENTS = [Event(KILLED, "vader", "luke"), Event(KILLED, "officer", "rt1"), Event(FLED, "e1"),
               Event(KILLED, "e2", "rt2"), Event(FLED, "e3"), Event(KILLED, "t1", "mine"),
               Event(KILLED, "t2", "luke"), Event(KILLED, "rt3", "vader"), Event(KILLED, "rt4", "e1")]
SC11_CHART = [10, 9, 7, 3, 6, 15, 1, 11, 10]


@pytest.mark.clause("SWM-PBC-1")
@pytest.mark.clause("SWM-PBC-2")
@pytest.mark.clause("SWM-PBC-3")
@pytest.mark.clause("SWM-PBC-5")
@pytest.mark.clause("SWM-PBC-7")
@pytest.mark.clause("SWM-PBC-8")
@pytest.mark.clause("SWM-PBC-9")
@pytest.mark.clause("SWM-PBC-10")
@pytest.mark.clause("SWM-PBC-12")
@pytest.mark.clause("SWM-PBC-15")
@pytest.mark.clause("SWM-PBM-8")
@pytest.mark.clause("SWM-XP-1")
@pytest.mark.clause("SWM-XP-11")
@pytest.mark.clause("SWM-XP-12")
@pytest.mark.clause("SWM-XP-13")
@pytest.mark.clause("SWM-BAT-20")
@pytest.mark.clause("SWM-BAT-23")
@pytest.mark.clause("SWM-ADV-14")
def test_swm_pbc_sc11_chart_damage_retreat_and_xp(cat: Catalog, book: RuleBook) -> None:
    world = _sc10(cat, book)
    battle = _sc10_battle(world)
    losers = bt.apply(world, battle, Result(DEFENDER, SC11_EVENTS), ScriptedDice(SC11_CHART))
    st = world.state
    chart = [line for line in st.log if line.startswith("Post-battle chart")]
    assert chart[:3] == [
        "Post-battle chart vader Darth Vader, Sith Lord: d20 10 +1 (Medical Officer) = 11, survives.",
        "Post-battle chart officer Imperial Officer: d20 9 +1 (Medical Officer) = 10, is eliminated.",
        "Post-battle chart e1 Elite Trooper: d20 7 +3 (fled) +1 (Medical Officer) = 11, survives."]
    assert [line.rsplit(", ", 1)[1] for line in chart] == [
        "survives.", "is eliminated.", "survives.", "is eliminated.", "is eliminated.", "survives.",
        "is eliminated.", "survives.", "is eliminated."]
    s1, r1 = st.squads["S1"], st.squads["R1"]
    assert (s1.points, s1.damaged, r1.points, r1.damaged, st.owner("B2")) == (77, False, 109, False, "bob")
    pending = {t.id: tr.pending(t) for s in (s1, r1) for t in s.troops if tr.pending(t)}
    assert pending == {"vader": 6, "e1": 6, "luke": 65, "rt1": 20, "rt2": 12}
    assert losers == [("S1", "B2")]
    assert rt.carry_out(world, losers, {}) == [("S1", "B2", "A2")]


def test_swm_pbc_10_sc11_variant_a_t1_dies_and_s1_is_damaged_but_still_retreats(cat: Catalog, book: RuleBook) -> None:
    world = _sc10(cat, book)
    battle = _sc10_battle(world)
    dice = [*SC11_CHART[:5], 9, *SC11_CHART[6:]]
    losers = bt.apply(world, battle, Result(DEFENDER, SC11_EVENTS), ScriptedDice(dice))
    s1 = world.state.squads["S1"]
    assert (s1.points, s1.damaged) == (72, True)
    assert rt.carry_out(world, losers, {}) == [("S1", "B2", "A2")]


@pytest.mark.clause("SWM-BAT-21")
@pytest.mark.clause("SWM-PBC-14")
@pytest.mark.clause("SWM-PBC-13")
def test_swm_pbc_14_sc11_variant_b_nobody_wins_and_both_retreat(cat: Catalog, book: RuleBook) -> None:
    world = _sc10(cat, book)
    battle = _sc10_battle(world)
    losers = bt.apply(world, battle, Result(NONE, SC11_EVENTS), ScriptedDice(SC11_CHART))
    assert rt.carry_out(world, losers, {}) == [("R1", "B2", "B1"), ("S1", "B2", "A2")]
    assert world.state.squads_in("B2") == [] and world.state.owner("B2") == "bob"


def test_swm_pbc_15_a_retreat_named_in_the_report_comes_first(cat: Catalog, book: RuleBook) -> None:
    world = _sc10(cat, book)
    battle = _sc10_battle(world)
    losers = bt.apply(world, battle, Result(DEFENDER, SC11_EVENTS, {"S1": "A3"}), ScriptedDice(SC11_CHART))
    assert rt.carry_out(world, losers, {"S1": "A3"}) == [("S1", "B2", "A3")]


@pytest.mark.clause("SWM-PBC-4")
@pytest.mark.clause("SWM-PBC-6")
def test_swm_pbc_6_a_fled_non_unique_yuuzhan_vong_troop_with_a_medic_survives_on_5(
        cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.players["alice"].faction = "yuuzhan_vong"
    st.players["alice"].officers.append("medical_officer")
    helpers.squad(st, cat, "Y1", "alice", "A1", ["Yuuzhan Vong Warrior x6"], ["y1", "y2"])
    world = World(st, helpers.test_map(), cat, book)
    bt.chart(world, [Event(FLED, "y1"), Event(FLED, "y2")], ScriptedDice([5, 4]))
    assert [line.rsplit(": ", 1)[1] for line in st.log[-2:]] == [
        "d20 5 +3 (fled) +2 (Yuuzhan Vong) +1 (Medical Officer) = 11, survives.",
        "d20 4 +3 (fled) +2 (Yuuzhan Vong) +1 (Medical Officer) = 10, is eliminated."]


@pytest.mark.clause("SWM-XP-2")
def test_swm_xp_2_exar_kun_and_the_stormtrooper(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.players["cara"].faction = "sith"
    helpers.squad(st, cat, "K1", "cara", "C1", ["Exar Kun"], ["kun"])
    helpers.squad(st, cat, "S1", "alice", "A1", ["Stormtrooper x2"], ["st1", "st2"])
    world = World(st, helpers.test_map(), cat, book)
    bt.award_xp(world, [Event(KILLED, "st1", "kun"), Event(KILLED, "kun", "st2"), Event(KILLED, "st2", "st1")])
    assert {i: tr.pending(st.troop(i)[1]) for i in ("kun", "st1", "st2")} == {  # type: ignore[index]
        "kun": 5, "st1": 0, "st2": 84}


@pytest.mark.clause("SWM-STK-5")
@pytest.mark.clause("SWM-STR-1")
@pytest.mark.clause("SWM-STR-2")
@pytest.mark.clause("SWM-STR-3")
@pytest.mark.clause("SWM-STK-3")
@pytest.mark.clause("SWM-PBC-11")
def test_swm_stk_sc12_four_squads_retreats_overstack_and_the_saving_strategic_move(
        cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Commando", "Rebel Trooper x13"], ["c1"])
    helpers.squad(st, cat, "R2", "bob", "B2", ["Rebel Trooper x14"], [f"r2_{n}" for n in range(14)])
    helpers.squad(st, cat, "R3", "bob", "B1", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R4", "bob", "B3", ["Rebel Trooper x15"])
    for ident, place in (("S1", "A2"), ("S4", "A3"), ("S5", "A3")):
        helpers.squad(st, cat, ident, "alice", place, ["Elite Trooper x5", "Stormtrooper x8"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    lines = [mv.move(world, ["alice"], s, ["B2"], done) for s in ("S1", "S4", "S5")]
    assert lines[2].startswith("MOVE S5 B2: refused, B2 already holds 2 attacking squads")
    assert len(st.squads_in("B2")) == 4
    battle = bt.settle(world, ["alice"], done.entered, done.attackers, ScriptedDice([]), ["B11-1"]).battles[0]
    killed = [Event(KILLED, f"r2_{n}", "none") for n in range(6)] + [Event(KILLED, "c1", "none")]
    losers = bt.apply(world, battle, Result(ATTACKER, killed), ScriptedDice([1] * 7))
    assert (st.squads["R1"].points, st.squads["R1"].damaged, st.squads["R2"].points, st.squads["R2"].damaged) == \
        (78, False, 48, True)
    assert st.owner("B2") == "alice"
    assert rt.carry_out(world, losers, {}) == [("R1", "B2", "B1"), ("R2", "B2", "B1")]
    assert rt.strategic(world, ["bob"], [[Strategic("R2", "B4")]]) == ("R2", "B1", "B4")
    check_stacking(world, "action")
    assert sorted(s.id for s in st.squads_in("B1")) == ["R1", "R3"] and "R2" in st.squads


def test_swm_stk_4_sc12_variant_without_the_strategic_move_the_last_arrival_goes(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    helpers.squad(st, cat, "R3", "bob", "B1", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R4", "bob", "B3", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R2", "bob", "B2", ["Rebel Trooper x14"])
    world = World(st, helpers.test_map(), cat, book)
    st.lands["B2"].owner = "alice"
    rt.carry_out(world, [("R1", "B2"), ("R2", "B2")], {})
    check_stacking(world, "action")
    assert sorted(s.id for s in st.squads_in("B1")) == ["R1", "R3"] and "R2" not in st.squads


@pytest.mark.clause("SWM-STR-4")
@pytest.mark.clause("SWM-STR-5")
@pytest.mark.clause("SWM-STR-6")
@pytest.mark.clause("SWM-ALL-9")
def test_swm_str_5_the_first_legal_alternative_and_one_move_per_alliance(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    helpers.squad(st, cat, "M2", "cara", "B2", ["Mandalorian Soldier x7"])
    helpers.squad(st, cat, "R5", "bob", "B1", ["Rebel Trooper x15"])
    world = World(st, helpers.test_map(), cat, book)
    st.squads["R5"].disrupted = True
    moved = rt.strategic(world, ["bob", "cara"], [[Strategic("M2", "A1"), Strategic("M2", "C1")],
                                                  [Strategic("R5", "B3")]])
    assert moved == ("M2", "B2", "C1") and st.squads["R5"].place == "B1"
    assert rt.refusal(world, ["bob"], Strategic("R5", "B3")) == "B1 is disrupted this turn (SWM-STR-4)"
