"""The catalog's alternative readings (Ambiguities and gaps) as rule options: for each, the
default and the alternative a campaign.toml may choose, played with fixed dice, and the pinned
order of allied overstack removals (A37)."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.maps import MapError
from pbem.kit.rulebook import RuleBook, RulesError
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import economics as eco
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import rules, setup
from pbem.rulesets.star_wars_miniatures.battle import ATTACKER, DEFENDER, Result
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.model import FORCE_SPENT, Land, Player, SWMState
from pbem.rulesets.star_wars_miniatures.regions import map_from_dict
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.rulesets.star_wars_miniatures.world import World, check_stacking
from tests.star_wars_miniatures import flow, helpers


def test_every_alternative_reading_is_accepted_and_an_undocumented_one_refused() -> None:
    for section, key, value in (("setup", "start_location_unit", "territory"), ("capture", "timing", "on_entry"),
                                ("battle", "damaged_codefender", "share_result"),
                                ("minefield", "affects_uncontested", True),
                                ("stacking", "nmr_elimination", "lowest_points"),
                                ("economy", "capital_lost_can_build", True)):
        assert helpers.chosen(section, key, value)[f"{section}.{key}"] == value
    with pytest.raises(RulesError) as refused:
        rules.load({"setup": {"start_location_unit": "planet"}, "capture": {"timing": "at_once"},
                    "battle": {"damaged_codefender": "stay"}, "stacking": {"nmr_elimination": "random"},
                    "minefield": {"affects_uncontested": "yes"}})
    assert refused.value.problems == [
        "rules: 'minefield.affects_uncontested' should be true/false, not text",
        "rules: 'battle.damaged_codefender' cannot be 'stay'; choose one of \"retreat\", \"share_result\"",
        "rules: 'capture.timing' cannot be 'at_once'; choose one of \"battle_step\", \"on_entry\"",
        "rules: 'setup.start_location_unit' cannot be 'planet'; choose one of \"region\", \"territory\"",
        "rules: 'stacking.nmr_elimination' cannot be 'random'; choose one of \"last_arrived\", \"lowest_points\""]


# -- A7: start locations ------------------------------------------------------------------
def _start_map() -> dict[str, Any]:
    """The test map with A1-C1 bordering and owner_of_start given for the "territory" reading:
    A2 goes with A1, B2 and B3 with B1, C2 with C1; A3 and B4 have none."""
    data = helpers.map_data()
    rows = {r["id"]: r for r in data["territory"]}
    rows["A1"]["adjacent"].append("C1")
    rows["C1"]["adjacent"].append("A1")
    for place, capital in (("A2", "A1"), ("B2", "B1"), ("B3", "B1"), ("C2", "C1")):
        rows[place]["owner_of_start"] = capital
    return data


def _assign(book: RuleBook, cat: Catalog) -> SWMState:
    places = map_from_dict(_start_map(), "start map")
    st = SWMState(players={p: Player(p) for p in ("alice", "bob")}, lands={t: Land() for t in places.places()})
    world = World(st, places, cat, book)
    setup.assign(world, ["alice", "bob"], {"alice": ["imperial"], "bob": ["rebel"]},
                 {"alice": [("RA", "")], "bob": [("RB", ""), ("RC", "")]}, ScriptedDice([]))
    return st


@pytest.mark.clause("SWM-SET-5")
@pytest.mark.clause("SWM-SET-6")
@pytest.mark.clause("SWM-SET-7")
def test_swm_set_6_a7_region_starts_hold_the_whole_region_by_default(cat: Catalog, book: RuleBook) -> None:
    st = _assign(book, cat)
    assert (st.players["bob"].region, st.players["bob"].capital) == ("RB", "B1")   # RB borders RA
    assert {t: land.owner for t, land in st.lands.items() if land.active} == {
        "A1": "alice", "A2": "alice", "A3": "alice", "B1": "bob", "B2": "bob", "B3": "bob", "B4": "bob"}
    assert "RC (RC) is inactive: nobody started there (SWM-SET-7)." in st.log


@pytest.mark.clause("SWM-SET-5")
@pytest.mark.clause("SWM-SET-7")
def test_swm_set_6_a7_territory_starts_hold_the_capital_and_its_owner_of_start_territories(cat: Catalog) -> None:
    st = _assign(helpers.chosen("setup", "start_location_unit", "territory"), cat)
    # A later pick must border a taken start location: capital C1 borders A1, capital B1 does not.
    assert (st.players["bob"].region, st.players["bob"].capital) == ("RC", "C1")
    assert {t: land.owner for t, land in st.lands.items() if land.active} == {
        "A1": "alice", "A2": "alice", "C1": "bob", "C2": "bob"}
    assert st.lands["A1"].fortified and st.lands["C1"].fortified
    assert "Inactive: A3, B1, B2, B3, B4; nobody holds them from the start (SWM-SET-7)." in st.log


@pytest.mark.clause("SWM-SET-4")
def test_swm_set_6_a7_a_campaign_choosing_territory_starts_plays_its_setup_by_them() -> None:
    game = flow.Game()
    game.settings = flow.settings(rules={"setup": {"start_location_unit": "territory"}})
    game.game = RULESET.create(game.settings)
    game.resolve(ScriptedDice([9, 15, 9, 12, 3]))
    game.send("bob", "PICK Imperial\nREGION R1")
    game.send("alice", "PICK Imperial\nPICK Rebel\nREGION R9\nREGION R2")
    game.send("cara", "REGION R6 IF Sith\nREGION R7")
    game.resolve(ScriptedDice([]))
    st = game.state
    # Alice's R9 and R2 capitals do not border bob's T03; T21 (R6) is the only free one that does.
    # Nothing free borders T03 or T21 for cara, so her listed R7 stands.
    assert {p: (me.region, me.capital) for p, me in st.players.items()} == {
        "alice": ("R6", "T21"), "bob": ("R1", "T03"), "cara": ("R7", "T25")}
    assert {t: land.owner for t, land in st.lands.items() if land.active} == {
        "T03": "bob", "T21": "alice", "T25": "cara"}      # the shipped map gives no owner_of_start


def test_swm_set_6_a7_owner_of_start_must_name_a_capital_territory() -> None:
    data = _start_map()
    data["territory"][2]["owner_of_start"] = "B2"
    with pytest.raises(MapError) as refused:
        map_from_dict(data, "start map")
    assert refused.value.problems == ["territory.A3.owner_of_start: 'B2' is not a capital territory of the map"]


# -- A8: capture timing -------------------------------------------------------------------
def _a8(book: RuleBook, cat: Catalog) -> tuple[World, mv.SlotMoves, list[str]]:
    st = helpers.state()
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R2", "bob", "B2", ["Rebel Trooper x15"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    lines = [mv.move(world, ["bob"], "R1", ["A3"], done), mv.move(world, ["bob"], "R2", ["A3", "A1"], done)]
    return world, done, lines


@pytest.mark.clause("SWM-MOV-17")
@pytest.mark.clause("SWM-BAT-3")
def test_swm_bat_3_a8_an_empty_enemy_territory_changes_hands_at_the_battle_step(cat: Catalog, book: RuleBook) -> None:
    world, done, lines = _a8(book, cat)
    assert lines == ["R1 moves to A3.",
                     "R2 moves to A3 (stopped in A3, which is not yours: the rest of the path is dropped)."]
    assert world.state.owner("A3") == "alice" and done.entered == ["A3"]
    out = bt.settle(world, ["bob"], done.entered, done.attackers, ScriptedDice([]), ["B1-1-1"])
    assert out.captured == ["A3"] and world.state.owner("A3") == "bob"
    assert "A3 passes to bob: uncontested capture (no battle, no dice)." in world.state.log


@pytest.mark.clause("SWM-MOV-11")
def test_swm_bat_3_a8_on_entry_the_territory_changes_hands_and_later_squads_pass_through(cat: Catalog) -> None:
    world, done, lines = _a8(helpers.chosen("capture", "timing", "on_entry"), cat)
    assert lines == ["R1 moves to A3. A3 was empty and passes to bob on entry (A8).",
                     "R2 moves to A1. A1 was empty and passes to bob on entry (A8)."]
    assert done.entered == ["A3", "A1"]          # both still count toward the two entries
    out = bt.settle(world, ["bob"], done.entered, done.attackers, ScriptedDice([]), ["B1-1-1"])
    assert out.captured == ["A3", "A1"] and (world.state.owner("A3"), world.state.owner("A1")) == ("bob", "bob")
    assert not [ln for ln in world.state.log if "uncontested capture" in ln]     # taken once, on entry


def test_swm_bat_4_a8_on_entry_a_territory_with_damaged_squads_waits_for_the_walk_over(cat: Catalog) -> None:
    world, done, _ = _a8(helpers.chosen("capture", "timing", "on_entry"), cat)
    helpers.squad(world.state, cat, "S9", "alice", "A2", ["Stormtrooper x4"], damaged=True)
    helpers.squad(world.state, cat, "R3", "bob", "B3", ["Rebel Trooper x15"])
    done = mv.SlotMoves()
    assert mv.move(world, ["bob"], "R3", ["B2", "A2"], done) == "R3 moves to A2."
    assert world.state.owner("A2") == "alice"


# -- A12: damaged co-defenders ------------------------------------------------------------
def _a12(book: RuleBook, cat: Catalog) -> tuple[World, bt.Outcome]:
    st = helpers.state()
    helpers.squad(st, cat, "R1", "bob", "B2", ["Rebel Trooper x15"])
    helpers.squad(st, cat, "R2", "bob", "B2", ["Rebel Trooper x4"], damaged=True)
    helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x5", "Stormtrooper x8"])
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    mv.move(world, ["alice"], "S1", ["B2"], done)
    return world, bt.settle(world, ["alice"], done.entered, done.attackers, ScriptedDice([]), ["B1-1-1"])


@pytest.mark.clause("SWM-BAT-5")
def test_swm_bat_5_a12_a_damaged_codefender_retreats_whatever_the_result(cat: Catalog, book: RuleBook) -> None:
    world, out = _a12(book, cat)
    assert out.battles[0].defenders == ["R1"] and out.retreating == [("R2", "B2")]
    losers = bt.apply(world, out.battles[0], Result(DEFENDER), ScriptedDice([]))
    assert sorted(out.retreating + losers) == [("R2", "B2"), ("S1", "B2")]


def test_swm_bat_5_a12_share_result_a_damaged_codefender_stays_when_the_defenders_win(cat: Catalog) -> None:
    book = helpers.chosen("battle", "damaged_codefender", "share_result")
    world, out = _a12(book, cat)
    assert out.battles[0].defenders == ["R1"] and out.retreating == []
    assert world.state.log[-1] == (
        "Battle B1-1-1: the damaged squads beside the defenders stay out of it and share its result (A12): R2.")
    assert bt.apply(world, out.battles[0], Result(DEFENDER), ScriptedDice([])) == [("S1", "B2")]
    world, out = _a12(book, cat)
    assert bt.apply(world, out.battles[0], Result(ATTACKER), ScriptedDice([])) == [("R1", "B2"), ("R2", "B2")]


# -- A19: minefields and entries without a battle -------------------------------------------
def _a19(book: RuleBook, cat: Catalog, dice: ScriptedDice) -> World:
    st = helpers.state()
    st.lands["A2"].minefield = st.lands["C2"].minefield = True
    helpers.squad(st, cat, "R1", "bob", "B2", ["Luke Skywalker, Jedi Knight", "Rebel Trooper x2"],
                  ["luke", "r1", "r2"])
    helpers.squad(st, cat, "R2", "bob", "B3", ["Rebel Trooper x2"], ["r3", "r4"])
    helpers.squad(st, cat, "M4", "cara", "C2", ["Mandalorian Soldier x4"], damaged=True)
    st.players["bob"].mine_rerolls = {"luke": 1}
    world = World(st, helpers.test_map(), cat, book)
    done = mv.SlotMoves()
    mv.move(world, ["bob"], "R1", ["A2"], done)
    mv.move(world, ["bob"], "R2", ["C2"], done)
    bt.settle(world, ["bob"], done.entered, done.attackers, dice, ["B1-1-1"])
    return world


@pytest.mark.clause("SWM-BAT-16")
def test_swm_bat_16_a19_an_uncontested_capture_or_walk_over_sets_off_no_mines(cat: Catalog, book: RuleBook) -> None:
    dice = ScriptedDice([])
    world = _a19(book, cat, dice)
    assert dice.log == [] and (world.state.owner("A2"), world.state.owner("C2")) == ("bob", "bob")
    assert not [ln for ln in world.state.log if ln.startswith("Minefield")]


@pytest.mark.clause("SWM-BAT-18")
def test_swm_bat_16_a19_affects_uncontested_rolls_the_saves_in_roster_order(cat: Catalog) -> None:
    dice = ScriptedDice([3, 12, 11, 10, 5, 20, 11])
    world = _a19(helpers.chosen("minefield", "affects_uncontested", True), cat, dice)
    assert [r.purpose for r in dice.log] == [
        "mine save: luke Luke Skywalker, Jedi Knight", "mine re-roll: luke Luke Skywalker, Jedi Knight",
        "mine save: r1 Rebel Trooper", "mine save: r2 Rebel Trooper",
        "mine save: r3 Rebel Trooper", "mine save: r4 Rebel Trooper"] and dice.unused == [11]
    assert FORCE_SPENT not in world.state.troop("luke")[1].counters     # type: ignore[index]   # back (SWM-BAT-18)
    log = world.state.log
    assert ("Minefield in A2: r2 takes 10 damage; luke spent 1 Force on re-rolls; no battle follows, so the damage "
            "lasts no further and the Force is back (A19).") in log
    assert ("Minefield in C2: r3 takes 10 damage; no battle follows, so the damage lasts no further and the Force "
            "is back (A19).") in log
    assert "A2 passes to bob: uncontested capture (no battle)." in log
    assert "C2 passes to bob: walk-over against damaged squads (no battle)." in log


# -- A31 and A37: overstack removal -------------------------------------------------------
def _a31(book: RuleBook, cat: Catalog) -> World:
    st = helpers.state()
    helpers.squad(st, cat, "R1", "bob", "B3", ["Rebel Trooper x10"])       # arrived first, 60 points
    helpers.squad(st, cat, "R2", "bob", "B3", ["Rebel Trooper x15"])       # 90 points
    helpers.squad(st, cat, "R3", "bob", "B3", ["Rebel Trooper x12"])       # arrived last, 72 points
    return World(st, helpers.test_map(), cat, book)


@pytest.mark.clause("SWM-STK-4")
@pytest.mark.clause("SWM-STK-6")
def test_swm_stk_4_a31_without_a_preference_the_last_to_arrive_goes_first(cat: Catalog, book: RuleBook) -> None:
    world = _a31(book, cat)
    check_stacking(world, "action")
    assert [s.id for s in world.state.squads_in("B3")] == ["R1"]      # limit 1: R3, then R2 go


def test_swm_stk_4_a31_lowest_points_removes_the_smallest_squads_first(cat: Catalog) -> None:
    world = _a31(helpers.chosen("stacking", "nmr_elimination", "lowest_points"), cat)
    check_stacking(world, "action")
    assert [s.id for s in world.state.squads_in("B3")] == ["R2"]      # R1 (60), then R3 (72) go
    world = _a31(helpers.chosen("stacking", "nmr_elimination", "lowest_points"), cat)
    world.state.players["bob"].overstack = {"B3": ["R2"]}               # a standing choice still comes first
    check_stacking(world, "action")
    assert [s.id for s in world.state.squads_in("B3")] == ["R3"]


def _a37(book: RuleBook, cat: Catalog, place: str, arrivals: list[tuple[str, str]]) -> World:
    st = helpers.state()
    st.alliances, st.sides = [["bob", "cara"]], [["alice"], ["cara", "bob"]]    # cara the higher total
    for ident, owner in arrivals:
        cards = ["Rebel Trooper x15"] if owner == "bob" else ["Mandalorian Soldier x10"]
        helpers.squad(st, cat, ident, owner, place, cards)
    return World(st, helpers.test_map(), cat, book)


@pytest.mark.clause("SWM-STK-5")
def test_swm_stk_4_a37_the_ally_with_more_squads_there_removes_first(cat: Catalog, book: RuleBook) -> None:
    world = _a37(book, cat, "B3", [("M1", "cara"), ("M2", "cara"), ("R1", "bob")])
    world.state.players["bob"].overstack = {"B3": ["M1"]}      # another owner's squad: not his to name
    check_stacking(world, "action")
    assert [s.id for s in world.state.squads_in("B3")] == ["R1"]


def test_swm_stk_4_a37_equal_numbers_go_by_initiative_each_owner_by_his_own_preference(
        cat: Catalog, book: RuleBook) -> None:
    world = _a37(book, cat, "B2", [("R1", "bob"), ("M1", "cara"), ("R2", "bob"), ("M2", "cara")])
    world.state.players["cara"].overstack = {"B2": ["M1"]}
    check_stacking(world, "action")
    assert [s.id for s in world.state.squads_in("B2")] == ["R1", "R2"]
    world = _a37(book, cat, "B1", [("R1", "bob"), ("M1", "cara"), ("M2", "cara"), ("R2", "bob"), ("R3", "bob")])
    check_stacking(world, "action")              # three over: bob, with more there, removes until none is left
    assert [s.id for s in world.state.squads_in("B1")] == ["M1", "M2"]


# -- A28: building without one's capital --------------------------------------------------
def _a28(book: RuleBook, cat: Catalog) -> World:
    st = helpers.state()
    st.lands["A1"].owner = "bob"                                     # alice has lost her capital
    for place in ("B1", "B2"):
        st.lands[place].owner = "alice"                              # and holds Bob's
    st.players["alice"].treasury = 300
    helpers.squad(st, cat, "S3", "alice", "B2", ["Stormtrooper x12"], damaged=True)
    return World(st, helpers.test_map(), cat, book)


BUILD = Line([Item("BUILD", ("S9",), (("Elite Trooper", ""),) * 5 + (("Stormtrooper", ""),) * 8)])
REINFORCE = Line([Item("REINFORCE", ("S3",), (("Stormtrooper", ""),) * 6)])


@pytest.mark.clause("SWM-ECO-6")
@pytest.mark.clause("SWM-ECO-12")
def test_swm_eco_6_a28_without_his_capital_a_player_cannot_build_or_reinforce(cat: Catalog, book: RuleBook) -> None:
    world = _a28(book, cat)
    eco.run_entry(world, "alice", BUILD, ScriptedDice([]))
    eco.run_entry(world, "alice", REINFORCE, ScriptedDice([]))
    assert world.state.log == [
        "alice: BUILD S9: Elite Trooper x5, Stormtrooper x8: skipped, you do not control your capital, "
        "where new squads are built.",
        "alice: REINFORCE S3: Stormtrooper x6: skipped, S3 in B2 has no supply line to your capital."]
    assert "S9" not in world.state.squads and world.state.players["alice"].treasury == 300


def test_swm_eco_6_a28_capital_lost_can_build_builds_at_a_captured_capital(cat: Catalog) -> None:
    world = _a28(helpers.chosen("economy", "capital_lost_can_build", True), cat)
    eco.run_entry(world, "alice", BUILD, ScriptedDice([]))
    eco.run_entry(world, "alice", REINFORCE, ScriptedDice([]))
    assert world.state.squads["S9"].place == "B1"
    assert (world.state.squads["S3"].points, world.state.squads["S3"].damaged) == (90, False)  # supplied via B1
    assert (world.state.squads["S9"].points, world.state.players["alice"].treasury) == (100, 170)
