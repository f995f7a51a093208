"""General clauses: sides and friendliness, the troop record, reserves, re-bought uniques,
advantages in effect at once, special territories, player elimination, the end of the campaign,
and what the public report and picture show."""

from __future__ import annotations

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RuleBook
from pbem.kit.texts import render
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import economics as eco
from pbem.rulesets.star_wars_miniatures import initiative as ini
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures import turn
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.battle import KILLED, Event
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.model import BANKED, PENDING
from pbem.rulesets.star_wars_miniatures.regions import map_from_dict
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import helpers
from tests.star_wars_miniatures.flow import Game
from tests.star_wars_miniatures.test_flow import REPORT, to_battle


def world(cat: Catalog, book: RuleBook) -> World:
    return World(helpers.state(), helpers.test_map(), cat, book)


def test_swm_gen_5_friendly_enemy_and_inactive_territories(cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    st = w.state
    st.alliances = [["bob", "cara"]]
    assert st.friendly("bob", "C1") and st.friendly("bob", "B1") and st.enemy("bob", "A1")
    st.lands["A2"].active, st.lands["A2"].owner = False, ""
    assert not st.friendly("alice", "A2") and not st.enemy("bob", "A2")


def test_swm_ros_3_every_troop_is_kept_with_its_record(cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    squad = helpers.squad(w.state, cat, "S1", "alice", "A1", ["Mas Amedda", "Stormtrooper x15"], ["m1"])
    squad.troops[0].tags = ["Imperial"]
    squad.troops[0].counters.update({BANKED: 60, PENDING: 5})
    tr.buy(squad.troops[0], "Attack", "", 50, 3)
    found = w.state.troop("M1")
    assert found is not None and found[0] is squad
    troop = found[1]
    assert (troop.id, troop.name, found[0].owner, tr.label(troop), tr.banked(troop), tr.pending(troop)) == (
        "m1", "Mas Amedda", "alice", "Imperial", 10, 5)
    assert tr.bought(troop) == [tr.Bought("Attack", "", 50)] and troop.marks[0].turn == 3


def test_swm_ros_5_a_troops_point_cost_never_changes(cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    squad = helpers.squad(w.state, cat, "S1", "alice", "A1", ["Stormtrooper x16"])
    troop = squad.troops[0]
    troop.counters[BANKED] = 500
    for name in ("Attack", "Hit Points", "Speed"):
        up.buy(up.rows(book)[name], troop, "", 1)
    assert troop.points == 5 and squad.points == 80


@pytest.mark.clause("SWM-SQD-2")
def test_swm_ros_7_a_reserve_never_joins_a_roster_nor_rolls_yet_its_killer_earns_xp(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    squad = helpers.squad(w.state, cat, "S1", "alice", "A1", ["Stormtrooper x16"], ["s1"])
    events = [Event(KILLED, "reserve:Imperial Officer", "s1"), Event(KILLED, "s1", "reserve")]
    bt.award_xp(w, events)
    dice = ScriptedDice([15])
    bt.chart(w, events, dice)
    assert tr.pending(squad.troops[0]) == 20 and len(dice.log) == 1 and len(squad.troops) == 16


def test_swm_pbc_17_a_squad_whose_last_troop_dies_is_removed_and_does_not_retreat(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    helpers.squad(w.state, cat, "S1", "alice", "A1", ["Stormtrooper x2"], ["s1", "s2"])
    bt.chart(w, [Event(KILLED, "s1", "none"), Event(KILLED, "s2", "none")], ScriptedDice([1, 2]))
    assert "S1" not in w.state.squads
    assert w.state.log[-1] == "S1 has no troops left and is removed from the map."


def test_swm_unq_5_an_eliminated_unique_may_be_bought_again_fresh(cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    st = w.state
    st.players["alice"].treasury = 300
    old = helpers.squad(st, cat, "S1", "alice", "A2", ["Darth Vader, Sith Lord", "Stormtrooper x4"], ["v"])
    old.troops[0].counters[BANKED] = 99
    w.remove_troop(old, "v")
    cards = (("Darth Vader, Sith Lord", ""),) + (("Stormtrooper", ""),) * 14
    eco.run_side(w, ["alice"], {"alice": [Line([Item("BUILD", ("S9",), cards)])]}, ScriptedDice([]))
    vader = st.squads["S9"].troops[0]
    assert vader.name == "Darth Vader, Sith Lord" and tr.banked(vader) == 0 and not tr.bought(vader)


@pytest.mark.clause("SWM-ADV-2")
@pytest.mark.clause("SWM-ECO-15")
def test_swm_adv_1_a_bought_advantage_works_at_once_and_counts_at_the_next_roll(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    st = w.state
    st.players["alice"].treasury = 90
    helpers.squad(st, cat, "S1", "alice", "A2", ["Stormtrooper x16"])
    eco.run_side(w, ["alice"], {"alice": [Line([Item("BUY", ("intelligence_officer",))]),
                                          Line([Item("SHUTTLE", ("S1", "TO", "A3"))])]}, ScriptedDice([]))
    assert st.held("alice", "intelligence_officer") and st.squads["S1"].place == "A2"    # 200 + 100 > 200
    assert ini.modifiers(w, "alice") == [("Intelligence Officer", 2)]


def test_swm_adv_17_a_special_territory_grants_its_advantage_while_held(cat: Catalog, book: RuleBook) -> None:
    data = helpers.map_data()
    data["territory"][5]["grants"] = "medical_officer"             # B3
    st = helpers.state()
    w = World(st, map_from_dict(data), cat, book)
    assert st.held("bob", "medical_officer") and not st.held("alice", "medical_officer")
    helpers.squad(st, cat, "S1", "alice", "B3", ["Stormtrooper x16"])
    bt.capture(w, "B3", ["S1"], "uncontested capture")
    assert st.held("alice", "medical_officer") and not st.held("bob", "medical_officer")
    st.players["alice"].treasury = 500
    eco.run_side(w, ["alice"], {"alice": [Line([Item("BUY", ("medical_officer",))])]}, ScriptedDice([]))
    assert st.players["alice"].treasury == 630 and "medical_officer" not in st.players["alice"].officers


@pytest.mark.clause("SWM-ALL-1")
@pytest.mark.clause("SWM-XP-15")
def test_swm_ini_20_a_player_with_no_squad_still_rolls_while_he_holds_a_territory(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    st = w.state
    st.turn = 4
    scout = helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x7"], ["e1"])
    scout.troops[0].counters[BANKED] = 150
    for place in ("C1", "C2"):
        st.lands[place].owner = "bob"
    orders = {"alice": ["UPGRADE e1 Recon", "ALLY alice bob"], "bob": ["ALLY alice bob"]}
    turn.initiative_phase(w, orders, ScriptedDice([5, 7]), {})
    lines = st.log
    first_roll = lines.index("Initiative alice: d20 5 +1 (S1 Recon) = 6")
    assert lines.index("e1 buys Recon for 150 XP (0 left).") < lines.index("Alliance this turn: alice and bob.") \
        < first_roll
    assert "Initiative bob: d20 7 = 7" in lines and not any("cara" in line for line in lines if "Initiative" in line)
    assert [p for side in st.sides for p in side] == ["bob", "alice"]


def test_swm_win_8_a_victory_ends_the_campaign_at_once(cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    helpers.squad(w.state, cat, "R1", "bob", "B1", ["Rebel Trooper x15"])
    w.state.sides = [["alice"], ["bob"], ["cara"]]
    turn.economics_phase(w, {}, ScriptedDice([]), {})
    assert w.state.window == "over" and w.state.winners == ["bob"]
    game = Game()
    game.game = RULESET.dump_state(w.state) | {}
    assert game.stage().over


@pytest.mark.clause("SWM-PBM-14")
@pytest.mark.clause("SWM-UPG-16")
@pytest.mark.clause("SWM-GEN-4")
def test_swm_gen_9_the_public_report_shows_every_roster_xp_and_upgrade_and_the_picture_every_squad() -> None:
    game = to_battle()
    game.send("alice", REPORT)
    res = game.resolve(ScriptedDice([19, 3, 16, 9]))
    report = res.reports[0]
    assert report.public and report.audience == ("*",)
    text = render("star_wars_miniatures", "report", {"campaign": game.settings, "rolls": [], **report.context})
    assert "- t1 Darth Vader, Sith Lord (Imperial) 60 pts; unique, Force 4; XP 10 banked, 14 pending; " \
           "upgrades: Attack" in text
    assert "Post-battle chart t31 Mandalorian Soldier: d20 9 +3 (fled) = 12, survives." in text
    assert "| T03 Coruscant | Alice | 60 | 2 | capital, fortified | A1 |" in text
    scene = RULESET.scene(RULESET.view(game.ctx()))
    assert scene is not None
    assert {p.id for p in scene.pieces} == set(game.state.squads)
    assert [(c.place, c.label) for c in scene.clashes] == [("T03", "B1-2-1")]
    assert {(m.start, m.end, m.kind) for m in scene.moves} >= {("T21", "T03", "move"), ("T03", "T21", "retreat")}
    heavy = tr.new_troop("h", helpers.catalog().lookup("Stormtrooper"), "Imperial", 1)
    tr.buy(heavy, "Heavy Weapon", "", 50, 1)
    assert tr.describe(heavy, helpers.catalog(), {"Heavy Weapon": "+10 damage, can't move and fire"}).endswith(
        "upgrades: Heavy Weapon (+10 damage, can't move and fire)")
