"""Cleanup: SC-13 of the catalog (Mandalorian doubling, the Training Officer, several upgrades in
one Cleanup, Yuuzhan Vong prices) and the upgrade restrictions."""

from __future__ import annotations

import pytest

from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import cleanup as cu
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.cleanup import Purchase
from pbem.rulesets.star_wars_miniatures.model import BANKED, PENDING, Player
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import helpers


def _sc13(cat: Catalog, book: RuleBook) -> World:
    st = helpers.state()
    st.turn = 12
    st.players["sith"] = Player("sith", "sith", capital="")
    st.players["vong"] = Player("vong", "yuuzhan_vong", capital="")
    st.players["cara"].officers.append("training_officer")
    m = helpers.squad(st, cat, "M1", "cara", "C1", ["Mandalorian Soldier x7"], ids=["m7", "c2", "c3", "c4", "c5",
                                                                                    "c6", "c7"])
    m.troops[0].counters.update({BANKED: 20, PENDING: 84})
    s = helpers.squad(st, cat, "X1", "sith", "B4", ["Mandalorian Soldier", "Sith Trooper x9"], ids=["s9"])
    s.troops[0].counters[PENDING] = 84
    v = helpers.squad(st, cat, "Y1", "vong", "C2", ["Yuuzhan Vong Warrior x6", "Gamorrean Guard"], ids=["y1"])
    v.troops[0].counters[BANKED] = 120
    v.troops[-1].id = "f2"
    v.troops[-1].counters[BANKED] = 100
    a = helpers.squad(st, cat, "S1", "alice", "A1", ["Elite Trooper x7"], ids=["e1", "x1"])
    a.troops[0].counters[PENDING] = 6
    a.troops[1].counters[BANKED] = 350
    up.buy(up.rows(book)["Damage"], a.troops[1], "", 11)
    return World(st, helpers.test_map(), cat, book)


ORDERS = {
    "cara": ("m7", [Purchase("m7", u) for u in ("Attack", "Defense", "Hit Points", "Damage", "Speed")]),
    "vong": ("", [Purchase("y1", "Poison +10"), Purchase("y1", "Paralysis"), Purchase("y1", "Regeneration 10"),
                  Purchase("f2", "Poison +10")]),
    "alice": ("", [Purchase("x1", "Damage"), Purchase("x1", "Force Leap")]),
}


@pytest.mark.clause("SWM-XP-3")
@pytest.mark.clause("SWM-XP-4")
@pytest.mark.clause("SWM-XP-5")
@pytest.mark.clause("SWM-XP-6")
@pytest.mark.clause("SWM-XP-7")
@pytest.mark.clause("SWM-XP-8")
@pytest.mark.clause("SWM-XP-9")
@pytest.mark.clause("SWM-ADV-12")
@pytest.mark.clause("SWM-UPG-1")
@pytest.mark.clause("SWM-UPG-3")
@pytest.mark.clause("SWM-UPG-12")
@pytest.mark.clause("SWM-UPG-13")
def test_swm_xp_sc13_doubling_training_levels_and_yuuzhan_vong_prices(cat: Catalog, book: RuleBook) -> None:
    world = _sc13(cat, book)
    cu.run(world, ORDERS)
    st = world.state
    banked = {i: tr.banked(st.troop(i)[1]) for i in ("m7", "s9", "y1", "f2", "e1", "x1")}  # type: ignore[index]
    assert banked == {"m7": 88, "s9": 84, "y1": 20, "f2": 0, "e1": 6, "x1": 200}
    assert [b.name for b in tr.bought(st.troop("m7")[1])] == ["Attack", "Defense", "Hit Points"]  # type: ignore[index]
    assert [b.name for b in tr.bought(st.troop("y1")[1])] == ["Poison +10", "Paralysis"]  # type: ignore[index]
    assert "m7 Mandalorian Soldier is credited 168 XP (188 banked)." in st.log
    assert "Training Officer: m7 Mandalorian Soldier gains 100 XP (288 banked)." in st.log
    assert [line for line in st.log if "skipped" in line] == [
        "UPGRADE x1 Damage: skipped, x1 already has Damage, which can be bought only once",
        "UPGRADE x1 Force Leap: skipped, Force Leap: only a Force user may buy it",
        "UPGRADE m7 Damage: skipped, it costs 150 XP and m7 has 88 banked",
        "UPGRADE m7 Speed: skipped, it costs 100 XP and m7 has 88 banked",
        "UPGRADE y1 Regeneration 10: skipped, it costs 50 XP and y1 has 20 banked"]


@pytest.mark.clause("SWM-XP-14")
@pytest.mark.clause("SWM-XP-10")
def test_swm_xp_14_pending_xp_of_a_troop_eliminated_before_cleanup_is_lost(cat: Catalog, book: RuleBook) -> None:
    world = _sc13(cat, book)
    m8 = world.state.squads["M1"].troops[1]
    m8.counters[PENDING] = 14
    world.remove_troop(world.state.squads["M1"], m8.id)
    cu.credit(world)
    assert world.state.troop(m8.id) is None
    assert not any(m8.id in line for line in world.state.log)


def test_swm_pbm_7_default_training_target_is_the_most_banked_xp(cat: Catalog, book: RuleBook) -> None:
    world = _sc13(cat, book)
    world.state.players["alice"].officers.append("training_officer")
    cu.train(world, "alice", "")
    assert tr.banked(world.state.troop("x1")[1]) == 250          # type: ignore[index]
    world.state.players["alice"].train = "e1"
    cu.train(world, "alice", "")
    assert tr.banked(world.state.troop("e1")[1]) == 50           # type: ignore[index]


def _troop(cat: Catalog, card: str, label: str = "") -> Entry:
    mini = cat.lookup(card)
    return tr.new_troop("t1", mini, label or mini.labels[0], 1)


@pytest.mark.clause("SWM-UPG-9")
@pytest.mark.clause("SWM-UPG-10")
@pytest.mark.clause("SWM-UPG-11")
@pytest.mark.clause("SWM-UPG-14")
@pytest.mark.clause("SWM-UPG-8")
@pytest.mark.clause("SWM-UPG-6")
def test_swm_upg_restrictions_each_as_the_tables_say(cat: Catalog, book: RuleBook) -> None:
    rows = up.rows(book)

    def why(card: str, name: str, faction: str = "imperial", detail: str = "") -> str:
        return up.refusal(rows[name], _troop(cat, card), detail, faction, cat, book)

    assert why("Stormtrooper", "Ambush") == "Ambush: only a Savage troop may buy it"
    assert why("Massassi Warrior", "Ambush", "sith") == ""
    assert why("Stormtrooper", "Draw Fire") == "Draw Fire: only a droid may buy it"
    assert why("Battle Droid", "Cyborg", "separatist") == "Cyborg: a droid or cyborg may not buy it"
    assert why("Stormtrooper", "Damage Reduction 10") == \
        "Damage Reduction 10: only a troop on a 2x2 or larger base may buy it"
    assert why("Rancor", "Damage Reduction 10", "fringe") == ""
    assert why("Darth Vader, Sith Lord", "Force Immunity") == \
        "Force Immunity: only a troop with Force rating 0 may buy it"
    assert why("Darth Vader, Sith Lord", "Lightsaber") == "t1 already has Lightsaber, which can be bought only once"
    assert why("Stormtrooper", "Synergy", detail="Stormtrooper") == "Synergy: it must name a unique from the catalog"
    assert why("Stormtrooper", "Synergy", detail="Darth Vader, Sith Lord") == ""
    assert why("Stormtrooper", "Triple Attack") == "Triple Attack: t1 must first have Double Attack"
    assert why("Super Battle Droid", "Triple Attack", "separatist") == ""
    assert why("Yuuzhan Vong Warrior", "Force", "yuuzhan_vong") == \
        "a troop of the Yuuzhan Vong army may not buy Force (SWM-UPG-14)"
    assert why("Gamorrean Guard", "Cyborg", "yuuzhan_vong") == \
        "a troop of the Yuuzhan Vong army may not buy Cyborg (SWM-UPG-14)"
    assert why("Gamorrean Guard", "Black Sun", "imperial") == "Black Sun: only the fringe army may buy it"
    assert why("Gamorrean Guard", "Black Sun", "fringe") == ""
    assert why("Stormtrooper", "Dark Armor") == ""
    assert why("Stormtrooper", "Anticipation") == "Anticipation: only a Force user may buy it"
    assert why("Stormtrooper", "Recon") == "" and why("Scout Trooper", "Recon") == \
        "t1 already has Recon, which can be bought only once"


@pytest.mark.clause("SWM-UPG-15")
@pytest.mark.clause("SWM-UPG-17")
def test_swm_upg_11_triple_attack_replaces_double_and_black_sun_is_an_extra_label(cat: Catalog, book: RuleBook) -> None:
    rows = up.rows(book)
    droid = _troop(cat, "Super Battle Droid")
    droid.counters[BANKED] = 400
    up.buy(rows["Triple Attack"], droid, "", 3)
    up.buy(rows["Quadruple Attack"], droid, "", 3)
    assert [b.name for b in tr.bought(droid)] == ["Quadruple Attack"] and tr.banked(droid) == 100
    guard = _troop(cat, "Gamorrean Guard")
    up.buy(rows["Black Sun"], guard, "", 3)
    assert tr.extra_labels(guard) == ["Black Sun"] and tr.label(guard) == "Fringe"


def test_swm_upg_10_synergy_stores_the_unique_it_names(cat: Catalog, book: RuleBook) -> None:
    trooper = _troop(cat, "Stormtrooper")
    trooper.counters[BANKED] = 50
    up.buy(up.rows(book)["Synergy"], trooper, "Darth Vader, Sith Lord", 4)
    assert tr.bought(trooper) == [tr.Bought("Synergy", "Darth Vader, Sith Lord", 50)]
    assert tr.describe(trooper, cat) == \
        "t1 Stormtrooper (Imperial) 5 pts; XP 0 banked; upgrades: Synergy (Darth Vader, Sith Lord)"
