"""Troops between squads (A32's transfers), the readings the loader refuses (A16, A21), Force
spent on mines coming back after its battle (SWM-BAT-18), and a position under the "territory"
start reading (A7): each default against the alternative a campaign.toml may choose."""

from __future__ import annotations

from typing import Any

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.roster import Mark
from pbem.kit.rulebook import RuleBook, RulesError
from pbem.rulesets.phases import PositionError
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import economics as eco
from pbem.rulesets.star_wars_miniatures import position, rules
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.battle import DEFENDER, Result
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.model import BANKED, FORCE_SPENT, UPGRADE, Battle
from pbem.rulesets.star_wars_miniatures.regions import map_from_dict
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.rulesets.star_wars_miniatures.world import World
from tests.star_wars_miniatures import flow, helpers
from tests.star_wars_miniatures.test_flow import in_economics
from tests.star_wars_miniatures.test_options import _start_map

TRANSFERS = {"squad": {"allow_transfers": True}}


# -- A32: transfers between squads ----------------------------------------------------------
def _squads(book: RuleBook, cat: Catalog) -> World:
    """Alice's S1 (100 points) and S2 (90) in A1, S3 (145) in A1, S4 in A3, S5 (one trooper) in A1;
    e1, an Elite Trooper of S1, has 30 XP banked and Attack bought."""
    st = helpers.state()
    helpers.squad(st, cat, "S1", "alice", "A1", ["Elite Trooper x5", "Stormtrooper x8"], ["e1"])
    helpers.squad(st, cat, "S2", "alice", "A1", ["Stormtrooper x18"])
    helpers.squad(st, cat, "S3", "alice", "A3", ["Stormtrooper x29"])
    helpers.squad(st, cat, "S5", "alice", "A1", ["Stormtrooper"], ["s5"])
    found = st.troop("e1")
    assert found is not None
    found[1].counters[BANKED] = 30
    found[1].add_mark(Mark(UPGRADE, "Attack", 50))
    return World(st, helpers.test_map(), cat, book)


def _run(world: World, *items: tuple[str, str]) -> list[str]:
    for troop, squad in items:
        eco.run_entry(world, "alice", Line([Item("TRANSFER", (troop, "TO", squad))]), ScriptedDice([]))
    return world.state.log


@pytest.mark.clause("SWM-UPG-17")
def test_swm_upg_17_a32_troops_stay_in_the_squad_they_were_bought_into(cat: Catalog, book: RuleBook) -> None:
    world = _squads(book, cat)
    assert _run(world, ("e1", "S2")) == [
        "alice: TRANSFER e1 TO S2: skipped, troops stay in the squad they were bought into in this campaign (A32)."]
    assert world.state.troop("e1")[0].id == "S1"           # type: ignore[index]


def test_swm_upg_17_a32_allow_transfers_moves_a_troop_with_its_xp_and_upgrades(cat: Catalog) -> None:
    world = _squads(rules.load(TRANSFERS), cat)
    assert _run(world, ("e1", "S2")) == ["alice transfers e1 Elite Trooper from S1 to S2 (102 points, active)."]
    squad, troop = world.state.troop("e1")                  # type: ignore[misc]
    assert squad.id == "S2" and tr.banked(troop) == 30 and [b.name for b in tr.bought(troop)] == ["Attack"]
    assert (world.state.squads["S1"].points, world.state.squads["S1"].damaged) == (88, False)


def test_swm_upg_17_a32_a_transfer_is_refused_across_territories_over_150_or_into_a_disrupted_squad(
        cat: Catalog) -> None:
    world = _squads(rules.load(TRANSFERS), cat)
    helpers.squad(world.state, cat, "S6", "alice", "A1", ["Stormtrooper x28"], ["s6"])     # 140 points
    world.state.squads["S2"].disrupted = True
    assert _run(world, ("e1", "S3"), ("e1", "S6"), ("e1", "S2"), ("e1", "S1"), ("t20", "S5")) == [
        "alice: TRANSFER e1 TO S3: skipped, S1 stands in A1 and S3 in A3; a troop changes squads only within one "
        "territory.",
        "alice: TRANSFER e1 TO S6: skipped, 152 points is over the 150-point maximum of a squad.",
        "alice: TRANSFER e1 TO S2: skipped, S2 stands in a territory disrupted this turn.",
        "alice: TRANSFER e1 TO S1: skipped, the troop is already in S1.",
        "alice: TRANSFER t20 TO S5: skipped, S2 stands in a territory disrupted this turn."]


def test_swm_sqd_10_a32_transferring_a_squads_last_troop_merges_it_away(cat: Catalog) -> None:
    world = _squads(rules.load(TRANSFERS), cat)
    assert _run(world, ("s5", "S2")) == ["S5 has no troops left and is removed from the map.",
                                         "alice transfers s5 Stormtrooper from S5 to S2 (95 points, active)."]
    assert "S5" not in world.state.squads


def _economics(rules_: dict[str, Any]) -> flow.Game:
    game = in_economics(rules_)
    assert game.state.window == "economics"
    return game


def test_swm_upg_17_a32_the_ack_refuses_transfer_unless_the_campaign_allows_it() -> None:
    game = _economics({})
    parsed = game.send("alice", "TRANSFER t1 TO A1\nGRANT t1")
    assert [str(p) for p in parsed.problems] == [
        "line 1: troops stay in the squad they were bought into (SWM-UPG-17); this campaign allows no transfers "
        "between squads",
        "line 2: “GRANT” is not an order of this window; it takes GIVE, ELIMINATE, BUILD, REINFORCE, BUY, "
        "OPERATIVE, SHUTTLE"]
    assert "TRANSFER" not in RULESET.help_text(game.ctx(), flow.person("alice"))


def test_swm_upg_17_a32_with_transfers_the_ack_keeps_the_line_and_help_shows_it() -> None:
    game = _economics(TRANSFERS)
    parsed = game.send("alice", "transfer t1 to a1\nTRANSFER t1 A1\nTRANSFER t30 TO A1")
    assert parsed.payload["orders"] == ["TRANSFER t1 TO A1"]
    assert [str(p) for p in parsed.problems] == [
        "line 2: write TRANSFER <troop> TO <squad>",
        "line 3: “t30” is not one of your troops in service (see the rosters in the report)"]
    assert "    TRANSFER <troop> TO <squad>   (same territory)" in RULESET.help_text(game.ctx(), flow.person("alice"))


# -- A16 and A21: readings the loader refuses ------------------------------------------------
@pytest.mark.clause("SWM-ADV-7")
@pytest.mark.clause("SWM-XP-11")
def test_swm_adv_7_a16_and_swm_xp_11_a21_the_unplayable_readings_are_refused_with_their_reason() -> None:
    with pytest.raises(RulesError) as refused:
        rules.load({"xp": {"reserve_killer_keeps_xp": True},
                    "advantages": {"special_operative": {"disrupt_blocks_forced_retreat": True}}})
    assert refused.value.problems == [
        "rules: 'xp.reserve_killer_keeps_xp' = true cannot be played: a reserve troop leaves when its battle ends "
        "and never joins a squad (SWM-SQD-2, SWM-BAT-22), so no troop could keep its XP (A21); leave it false",
        "rules: 'advantages.special_operative.disrupt_blocks_forced_retreat' = true cannot be played: a disrupted "
        "squad that lost could then neither retreat nor, by the rules, be eliminated (A16); leave it false"]
    assert rules.load({"xp": {"reserve_killer_keeps_xp": False}})["xp.reserve_killer_keeps_xp"] is False


# -- SWM-BAT-18: Force spent on mines comes back after the battle ---------------------------
@pytest.mark.clause("SWM-BAT-18")
def test_swm_bat_18_force_spent_on_mine_rerolls_is_back_for_the_next_battle(cat: Catalog, book: RuleBook) -> None:
    """Luke (Force 3) spends all three on re-rolls before B1-1-1; before B2-1-1 he has them again."""
    st = helpers.state()
    st.lands["A2"].minefield = True
    helpers.squad(st, cat, "R1", "bob", "A2", ["Luke Skywalker, Jedi Knight", "Rebel Trooper x12"], ["luke"])
    helpers.squad(st, cat, "S1", "alice", "A2", ["Elite Trooper x5", "Stormtrooper x8"])
    st.players["bob"].mine_rerolls = {"luke": 3}
    world = World(st, helpers.test_map(), cat, book)
    first = Battle("B1-1-1", "A2", ["bob"], ["R1"], ["S1"], mined=True)
    bt.mines(world, first, ScriptedDice([3, 4, 5, 6] + [15] * 12))
    assert first.force_spent == {"luke": 3} and first.mine_hits == ["luke"]
    bt.apply(world, first, Result(DEFENDER), ScriptedDice([]))
    luke = st.troop("luke")
    assert luke is not None and FORCE_SPENT not in luke[1].counters
    second = Battle("B2-1-1", "A2", ["bob"], ["R1"], ["S1"], mined=True)
    dice = ScriptedDice([3, 15] + [15] * 12)
    bt.mines(world, second, dice)
    assert dice.log[1].purpose == "mine re-roll: luke Luke Skywalker, Jedi Knight"
    assert second.force_spent == {"luke": 1} and second.mine_hits == []


# -- A7: a position under the "territory" start reading --------------------------------------
def _position(book: RuleBook, squad_at: str) -> Any:
    data = {"turn": 1, "window": "initiative", "players": {
        "alice": {"faction": "imperial", "region": "RA"}, "bob": {"faction": "rebel", "region": "RB"}},
        "squads": [{"id": "R1", "owner": "bob", "place": squad_at, "troops": [{"card": "Rebel Trooper", "id": "t1"}]}]}
    return position.read(["alice", "bob"], map_from_dict(_start_map(), "start map"), book, data, "pos.toml")


@pytest.mark.clause("SWM-SET-6")
def test_swm_set_6_a7_a_position_gives_each_player_his_whole_start_region(book: RuleBook) -> None:
    st = _position(book, "B4")
    assert {t: land.owner for t, land in st.lands.items() if land.active} == {
        "A1": "alice", "A2": "alice", "A3": "alice", "B1": "bob", "B2": "bob", "B3": "bob", "B4": "bob"}


def test_swm_set_6_a7_a_position_under_territory_starts_gives_the_capital_and_its_owner_of_start_land() -> None:
    book = helpers.chosen("setup", "start_location_unit", "territory")
    st = _position(book, "B3")
    assert {t: land.owner for t, land in st.lands.items() if land.active} == {
        "A1": "alice", "A2": "alice", "B1": "bob", "B2": "bob", "B3": "bob"}
    assert st.lands["A1"].fortified and not st.lands["A3"].active
    with pytest.raises(PositionError) as refused:
        _position(book, "B4")
    assert refused.value.problems == ["squads[0].place: 'B4' is not an active territory"]
