"""Economics: SC-5 (turn order, an operative, carry-over), SC-6 (building), SC-7 (supply lines
and disruption), with fixed dice."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import economics as eco
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import retreat as rt
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.world import World, check_stacking
from tests.star_wars_miniatures import helpers


def line(*choices: Item) -> Line:
    return Line(list(choices))


def cards(*names: str, label: str = "") -> tuple[tuple[str, str], ...]:
    out: list[tuple[str, str]] = []
    for name in names:
        card, _, times = name.rpartition(" x")
        out += [(card, label)] * int(times) if card and times.isdigit() else [(name, label)]
    return tuple(out)


def _sc5(cat: Catalog, book: RuleBook) -> World:
    st = helpers.state()
    st.turn = 7
    st.players["alice"].treasury, st.players["bob"].treasury = 120, 30
    st.players["bob"].officers.append("logistics_officer")
    helpers.squad(st, cat, "S2", "alice", "A1", ["Elite Trooper x5", "Stormtrooper x8"])
    helpers.squad(st, cat, "R1", "bob", "B1", ["Rebel Trooper x15"])
    return World(st, helpers.test_map(), cat, book)


SC5_ALICE = [line(Item("OPERATIVE", ("ASSASSINATE", "bob", "logistics_officer"))),
             line(Item("OPERATIVE", ("DISRUPT", "B2"))), line(Item("SHUTTLE", ("S2", "TO", "A2")))]
SC5_BOB = [line(Item("BUY", ("logistics_officer",)), Item("REINFORCE", ("R1",), cards("Rebel Trooper x5")))]


@pytest.mark.clause("SWM-ECO-2")
@pytest.mark.clause("SWM-ECO-3")
@pytest.mark.clause("SWM-ECO-4")
@pytest.mark.clause("SWM-ECO-5")
@pytest.mark.clause("SWM-ECO-17")
@pytest.mark.clause("SWM-ADV-5")
@pytest.mark.clause("SWM-ADV-8")
@pytest.mark.clause("SWM-ADV-10")
@pytest.mark.clause("SWM-ADV-16")
@pytest.mark.clause("SWM-GEN-8")
@pytest.mark.clause("SWM-GEN-11")
@pytest.mark.clause("SWM-PBM-4")
def test_swm_eco_sc5_operative_against_a_logistics_officer_and_carry_over(cat: Catalog, book: RuleBook) -> None:
    world = _sc5(cat, book)
    dice = ScriptedDice([7])
    eco.run_side(world, ["alice"], {"alice": SC5_ALICE}, dice)
    eco.run_side(world, ["bob"], {"bob": SC5_BOB}, dice)
    st = world.state
    assert (st.players["alice"].treasury, st.players["bob"].treasury) == (30, 120)
    assert st.squads["S2"].place == "A2" and st.squads["R1"].points == 120
    assert not st.held("bob", "logistics_officer")
    assert [r.purpose for r in dice.log] == ["operative save: bob against alice"]
    assert "alice: OPERATIVE DISRUPT B2: skipped, one Special Operative per faction per turn." in st.log
    assert "bob collects 120 (150 in the treasury)." in st.log


def test_swm_adv_3_sc5_variant_the_save_holds_and_bob_cannot_buy_a_second_officer(cat: Catalog, book: RuleBook) -> None:
    world = _sc5(cat, book)
    dice = ScriptedDice([11])
    eco.run_side(world, ["alice"], {"alice": SC5_ALICE}, dice)
    eco.run_side(world, ["bob"], {"bob": SC5_BOB}, dice)
    st = world.state
    assert st.players["bob"].treasury == 170 and st.held("bob", "logistics_officer")
    assert "bob: BUY logistics officer: skipped, you already hold a Logistics Officer (one per faction)." in st.log


@pytest.mark.clause("SWM-ECO-6")
@pytest.mark.clause("SWM-ECO-7")
@pytest.mark.clause("SWM-ECO-8")
@pytest.mark.clause("SWM-ECO-9")
@pytest.mark.clause("SWM-ECO-10")
@pytest.mark.clause("SWM-ECO-14")
@pytest.mark.clause("SWM-ADV-13")
@pytest.mark.clause("SWM-MOV-16")
@pytest.mark.clause("SWM-SQD-12")
def test_swm_eco_sc6_building_at_the_capital_room_and_the_two_per_turn_cap(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.players["alice"].treasury = 390
    helpers.squad(st, cat, "S2", "alice", "A1", ["Elite Trooper x5", "Stormtrooper x8"])
    world = World(st, helpers.test_map(), cat, book)
    items = [line(Item("BUILD", ("S4",), cards("Elite Trooper x5", "Imperial Officer", "Stormtrooper x14"))),
             line(Item("BUILD", ("S5",), cards("Elite Trooper x5", "Stormtrooper x8"))),
             line(Item("SHUTTLE", ("S2", "TO", "A3"))),
             line(Item("BUILD", ("S6",), cards("Elite Trooper x5", "Stormtrooper x8"))),
             line(Item("BUILD", ("S7",), cards("Elite Trooper x4", "Stormtrooper x6")))]
    eco.run_side(world, ["alice"], {"alice": items}, ScriptedDice([]))
    check_stacking(world, "economics")
    assert st.players["alice"].treasury == 150
    assert sorted(s.id for s in st.squads_in("A1")) == ["S4", "S6"] and st.squads["S2"].place == "A3"
    skipped = [entry for entry in st.log if "skipped" in entry]
    assert [s.split(": skipped, ")[1] for s in skipped] == [
        "A1 already holds 2 squads, its stacking limit.", "at most 2 new squads a turn."]
    assert all(tr.banked(t) == 0 and not tr.bought(t) for t in st.squads["S4"].troops)
    assert (st.squads["S4"].points, st.squads["S4"].damaged) == (150, False)
    done = mv.SlotMoves()
    assert mv.move(world, ["alice"], "S6", ["A2"], done) == "S6 moves to A2."


def test_swm_eco_7_an_illegal_build_is_refused_and_nothing_is_spent(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.players["alice"].treasury = 500
    world = World(st, helpers.test_map(), cat, book)
    eco.run_side(world, ["alice"], {"alice": [line(Item("BUILD", ("S9",), cards("Rebel Trooper x15")))]},
                 ScriptedDice([]))
    assert st.players["alice"].treasury == 610 and st.squads == {}
    assert "Rebel troops are not allowed in a Imperial squad" in st.log[1]


def _sc7(cat: Catalog, book: RuleBook, a3: str = "alice") -> World:
    st = helpers.state()
    st.turn = 8
    st.lands["C2"].owner = "alice"
    st.lands["A3"].owner = a3
    st.players["alice"].treasury = 100
    helpers.squad(st, cat, "S3", "alice", "C2", ["Stormtrooper x12"], damaged=True)
    helpers.squad(st, cat, "R2", "bob", "B3", ["Rebel Trooper x15"])
    return World(st, helpers.test_map(), cat, book)


REINFORCE_S3 = line(Item("REINFORCE", ("S3",), cards("Stormtrooper x6")))


@pytest.mark.clause("SWM-ECO-12")
@pytest.mark.clause("SWM-ECO-13")
@pytest.mark.clause("SWM-ECO-11")
@pytest.mark.clause("SWM-SQD-8")
@pytest.mark.clause("SWM-SQD-11")
def test_swm_eco_sc7a_a_supplied_damaged_squad_is_rebuilt_to_active(cat: Catalog, book: RuleBook) -> None:
    world = _sc7(cat, book)
    eco.run_entry(world, "alice", REINFORCE_S3, ScriptedDice([]))
    s3 = world.state.squads["S3"]
    assert (s3.points, s3.damaged, world.state.players["alice"].treasury) == (90, False, 70)


@pytest.mark.clause("SWM-PBC-18")
def test_swm_eco_sc7b_a_cut_off_squad_cannot_be_reinforced(cat: Catalog, book: RuleBook) -> None:
    world = _sc7(cat, book, a3="bob")
    eco.run_entry(world, "alice", REINFORCE_S3, ScriptedDice([]))
    assert world.state.squads["S3"].points == 60 and world.state.players["alice"].treasury == 100
    assert world.state.log == [
        "alice: REINFORCE S3: Stormtrooper x6: skipped, S3 in C2 has no supply line to your capital."]


@pytest.mark.clause("SWM-ADV-6")
@pytest.mark.clause("SWM-ADV-7")
@pytest.mark.clause("SWM-SQD-7")
@pytest.mark.clause("SWM-BAT-5")
def test_swm_adv_sc7c_disruption_blocks_reinforcing_and_shuttling_but_not_the_forced_retreat(
        cat: Catalog, book: RuleBook) -> None:
    world = _sc7(cat, book)
    st = world.state
    st.players["bob"].treasury = 100
    dice = ScriptedDice([4])
    eco.run_side(world, ["bob"], {"bob": [line(Item("OPERATIVE", ("DISRUPT", "C2")))]}, dice)
    assert st.lands["C2"].disrupted and st.squads["S3"].disrupted
    eco.run_side(world, ["alice"], {"alice": [REINFORCE_S3, line(Item("SHUTTLE", ("S3", "TO", "A1")))]}, dice)
    assert st.squads["S3"].points == 60 and st.squads["S3"].place == "C2"
    done = mv.SlotMoves()
    mv.move(world, ["bob"], "R2", ["C2"], done)
    out = bt.settle(world, ["bob"], done.entered, done.attackers, dice, ["B8-1"])
    assert rt.carry_out(world, out.retreating, {}) == [("S3", "C2", "A3")] and st.owner("C2") == "bob"


def test_swm_adv_6_sc7c_variant_a_save_of_11_disrupts_nothing(cat: Catalog, book: RuleBook) -> None:
    world = _sc7(cat, book)
    world.state.players["bob"].treasury = 100
    eco.run_side(world, ["bob"], {"bob": [line(Item("OPERATIVE", ("DISRUPT", "C2")))]}, ScriptedDice([11]))
    eco.run_entry(world, "alice", REINFORCE_S3, ScriptedDice([]))
    assert not world.state.lands["C2"].disrupted and world.state.squads["S3"].points == 90


@pytest.mark.clause("SWM-ALL-7")
@pytest.mark.clause("SWM-ECO-16")
@pytest.mark.clause("SWM-ALL-15")
def test_swm_eco_16_an_alliance_collects_gives_then_spends_member_by_member(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.alliances = [["bob", "cara"]]
    world = World(st, helpers.test_map(), cat, book)
    lists = {"bob": [line(Item("BUY", ("medical_officer",)))],
             "cara": [line(Item("BUY", ("fortify", "C2"))), line(Item("GIVE", ("bob", "90")))]}
    eco.run_side(world, ["bob", "cara"], lists, ScriptedDice([]))
    assert (st.players["bob"].treasury, st.players["cara"].treasury) == (10, 0)
    assert st.held("bob", "medical_officer") and not st.lands["C2"].fortified
    eco.run_side(world, ["alice"], {"alice": [line(Item("GIVE", ("bob", "10")))]}, ScriptedDice([]))
    assert "alice: GIVE bob 10: skipped, bob is not your ally this turn." in st.log


@pytest.mark.clause("SWM-SQD-9")
@pytest.mark.clause("SWM-SQD-10")
@pytest.mark.clause("SWM-ADV-9")
@pytest.mark.clause("SWM-ADV-11")
@pytest.mark.clause("SWM-ADV-15")
def test_swm_sqd_9_voluntary_elimination_and_land_advantages(cat: Catalog, book: RuleBook) -> None:
    st = helpers.state()
    st.players["alice"].treasury = 500
    helpers.squad(st, cat, "S1", "alice", "A2", ["Stormtrooper"], ["x1"])
    world = World(st, helpers.test_map(), cat, book)
    items = [line(Item("ELIMINATE", ("x1",))), line(Item("BUY", ("fortify", "A1"))),
             line(Item("BUY", ("fortify", "A2"))),
             line(Item("BUY", ("minefield", "A2"))), line(Item("BUY", ("minefield", "B2")))]
    eco.run_side(world, ["alice"], {"alice": items}, ScriptedDice([]))
    assert "S1" not in st.squads
    assert (st.lands["A2"].fortified, st.lands["A2"].minefield, st.players["alice"].treasury) == (True, True, 210)
    assert [s.split(": skipped, ")[1] for s in st.log if "skipped" in s] == [
        "A1 already has one (one per territory).", "B2 is not yours."]
    st.lands["A2"].owner = "bob"
    assert st.lands["A2"].fortified and st.lands["A2"].minefield
