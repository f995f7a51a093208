"""The map and the board as every part of the rules reads them (MK-GEN-1..13), the year's shape
(MK-YR-1..5) and the campaign's end (MK-END-1..3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.dice import ScriptedDice
from pbem.kit.rulebook import RULES_DIR
from pbem.rulesets.mighty_kingdoms import armylist, final, setup, steps
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.model import (
    CITY,
    ORDERS,
    OVER,
    VILLAGE,
    WINDOWS,
    Army,
    Calendar,
    Holding,
    Kingdom,
    MKState,
    TileState,
    army_id,
)
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.rulesets.mighty_kingdoms.tiles import campaign_map
from tests.mighty_kingdoms.helpers_setup import campaign, ctx, hand_view, parse, resolve


def board() -> MKState:
    """Red (a) holds T7 (its capital) and T20, far apart; Blue (b) holds T10 (its capital) and T8."""
    state = MKState(order=["a", "b"])
    state.kingdoms = {"a": Kingdom("a", "Red", "T7"), "b": Kingdom("b", "Blue", "T10")}
    state.tiles = {"T7": TileState("a", settlement=CITY), "T20": TileState("a", settlement=VILLAGE),
                   "T10": TileState("b", settlement=CITY), "T8": TileState("b"), "T30": TileState(tower=True)}
    state.armies = {"A1": Army("A1", "a", "T8"), "B1": Army("B1", "b", "T8", upright=False, defend=True)}
    return state


@pytest.mark.clause("MK-GEN-1")
def test_mk_gen_1_tiles_sharing_an_edge_are_adjacent_six_inside_fewer_on_the_edge() -> None:
    gmap = campaign_map("mk_three_realms")
    assert len(gmap.neighbours("T31")) == 6 and len(gmap.neighbours("T1")) == 3
    assert gmap.adjacent("T31", "T32") and not gmap.adjacent("T31", "T33")


@pytest.mark.clause("MK-GEN-2")
def test_mk_gen_2_a_tile_is_unexplored_controlled_or_a_tower() -> None:
    state = board()
    assert not state.explored("T40") and state.owner("T40") == ""
    assert state.owner("T20") == "a" and state.towers() == ["T30"] and state.owner("T30") == ""


@pytest.mark.clause("MK-GEN-3", "MK-GEN-4")
def test_mk_gen_3_4_a_kingdom_is_every_tile_it_controls_contiguous_or_not() -> None:
    state = board()
    assert state.kingdom_tiles("a") == ["T7", "T20"]            # not neighbours, one kingdom
    del state.armies["A1"]                                      # leaving never makes a tile uncontrolled
    assert state.owner("T8") == "b"


@pytest.mark.clause("MK-GEN-5", "MK-GEN-6")
def test_mk_gen_5_6_one_settlement_per_tile_owned_with_the_tile() -> None:
    state = board()
    assert state.settlements_of("a") == ["T7", "T20"]
    state.tiles["T20"].owner = "b"
    assert state.settlements_of("b", VILLAGE) == ["T20"] and state.settlements_of("a") == ["T7"]


@pytest.mark.clause("MK-GEN-7", "MK-GEN-13")
def test_mk_gen_7_13_every_other_kingdoms_army_is_an_enemy_and_a_tile_holds_any_number() -> None:
    state = board()
    state.armies["A2"] = Army("A2", "a", "T8")
    assert [a.id for a in state.enemies_in("T8", "b")] == ["A1", "A2"]
    assert [a.id for a in state.armies_in("T8")] == ["A1", "A2", "B1"]


@pytest.mark.clause("MK-GEN-8", "MK-GEN-9", "MK-GEN-10")
def test_mk_gen_8_9_10_the_capital_is_the_city_on_the_own_starting_tile_while_held() -> None:
    state = board()
    assert state.capital_of("a") == "T7"
    state.tiles["T7"].owner = "b"                               # taken: an ordinary city for Blue
    assert state.capital_of("a") == "" and state.capital_of("b") == "T10" and state.original_owner("T7") == "a"
    state.tiles["T7"] = TileState("a")                          # won back, razed
    assert state.capital_of("a") == ""
    state.tiles["T7"].settlement = CITY                         # a city again: the capital again
    assert state.capital_of("a") == "T7"


@pytest.mark.clause("MK-GEN-11")
def test_mk_gen_11_army_ids_are_unique_per_player_and_label_the_list() -> None:
    assert [army_id("a", 1), army_id("a", 10), army_id("p2", 3)] == ["A1", "A10", "P2-3"]


@pytest.mark.clause("MK-GEN-11")
def test_mk_gen_11_a_raised_army_s_list_carries_its_id(tmp_path: Path) -> None:
    state = board()
    army = setup.raise_army(state, "a", "T7", ["Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"], "Guard")
    assert army.id == "A1" and army.roster.army == "A1" and state.armies["A1"] is army


@pytest.mark.clause("MK-GEN-12")
def test_mk_gen_12_armies_stand_or_lie_settlements_stand_or_are_upside_down() -> None:
    state = board()
    assert state.armies["A1"].upright and not state.armies["B1"].upright and state.armies["B1"].defend
    state.tiles["T20"].razed = True
    assert state.tiles["T20"].settlement == VILLAGE


@pytest.mark.clause("MK-YR-1", "MK-YR-4")
def test_mk_yr_1_4_a_year_is_six_months_then_winter_then_month_1_of_the_next(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    state = board()
    state.calendar = Calendar(1, 3, ORDERS)
    view = hand_view(camp, state)
    assert view.rules["campaign.summer_months"] == 6
    assert steps.next_month(view, []) == ORDERS and state.calendar.month == 4
    assert [Calendar(1, m).turn for m in (1, 6, 7)] + [Calendar(2, 1).turn] == [1, 6, 7, 8]
    state.calendar = Calendar(1, 7, "deployment")
    assert steps.next_year(view) == ORDERS and (state.calendar.year, state.calendar.month) == (2, 1)


@pytest.mark.clause("MK-YR-2", "MK-YR-3")
def test_mk_yr_2_3_the_windows_follow_the_calendar() -> None:
    assert WINDOWS == ("setup", "orders", "battle", "purchases", "deployment", "over")


@pytest.mark.clause("MK-YR-2")
def test_mk_yr_2_after_resolution_come_the_battles_then_reform_then_the_next_orders(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camp = campaign(tmp_path)
    state = board()
    state.calendar = Calendar(1, 2, ORDERS)
    view = hand_view(camp, state)
    calls: list[str] = []
    battles_left = [True, False]
    monkeypatch.setattr(steps.battles, "select", lambda view, sections: calls.append("battle") or battles_left.pop(0))
    monkeypatch.setattr(steps.reform, "run", lambda view, dice, sections: calls.append("reform"))
    assert steps.month_goes_on(view, ScriptedDice([]), []) == "battle"      # a battle window first
    assert steps.month_goes_on(view, ScriptedDice([]), []) == ORDERS        # none left: Reform, next month
    assert calls == ["battle", "battle", "reform"] and state.calendar.month == 3


@pytest.mark.clause("MK-YR-3")
def test_mk_yr_3_after_month_6_the_winter_gathers_then_opens_the_purchases(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    camp = campaign(tmp_path)
    state = board()
    state.calendar = Calendar(1, 6, ORDERS)
    calls: list[str] = []
    monkeypatch.setattr(steps.gather, "run", lambda view, sections: calls.append("gather"))
    assert steps.next_month(hand_view(camp, state), []) == "purchases"
    assert calls == ["gather"] and (state.calendar.month, state.calendar.turn) == (7, 7)


@pytest.mark.clause("MK-YR-5")
def test_mk_yr_5_setup_places_settlements_only_in_turn_0(tmp_path: Path) -> None:
    camp = campaign(tmp_path, {"setup": {"list_approval": "auto"}})
    resolve(camp, {}, ScriptedDice([1, 2, 3]))
    assert RULESET.load_state(camp.state["game"]).tiles == {}   # nothing placed before window S closes
    for line in ("A1 MOVE T8", "BUILD village T8", "RECRUIT T8"):
        assert "no setup line" in parse(camp, "a", line).problems[0].reason     # no summer or winter orders


@pytest.mark.clause("MK-END-1")
def test_mk_end_1_the_campaign_ends_after_the_winter_of_its_last_year(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    state = board()
    state.calendar = Calendar(2, 7, "deployment")
    assert steps.next_year(hand_view(camp, state, rules={"campaign": {"years": 2}})) == OVER
    state.calendar = Calendar(2, 7, "deployment")
    assert steps.next_year(hand_view(camp, state)) == ORDERS    # years = 0: until the GM ends it


@pytest.mark.clause("MK-END-1")
def test_mk_end_1_over_reads_no_orders_and_the_final_report_lists_kingdoms_armies_artefacts(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    state = board()
    state.calendar = Calendar(2, 7, OVER)
    unit = "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"
    state.armies["A1"].roster = armylist.read("A1", "Guard", [(1, unit)])[0]
    state.armies["A1"].roster.note(3, "U1", "medal roll 7: De 4+ -> 5+")
    state.artefacts["Blade of Slashing"] = Holding("a", "A1", "U1")
    camp.state["game"] = RULESET.store(camp.state["game"], state)
    stage = RULESET.stage(ctx(camp))
    assert stage.over
    assert "the campaign is over" in parse(camp, "a", "A1 DEFEND").problems[0].reason
    lines = RULESET.standings(ctx(camp))
    assert lines[0] == "Red: 2 tiles (capital held; 1 village, 1 city), 1 army, 0 gold, 0 food"
    assert "    U1 Spearmen (5 4+ - 4+ 12 14/16): medal roll 7: De 4+ -> 5+" in lines
    assert "  artefact Blade of Slashing, on A1.U1" in lines
    assert lines == final.standings(state)


@pytest.mark.clause("MK-END-2")
def test_mk_end_2_the_rule_book_has_no_advanced_rules_to_play() -> None:
    text = (RULES_DIR / "mighty_kingdoms.toml").read_text()
    assert "[advanced" not in text
    with pytest.raises(KeyError):
        rulesmod.load()["advanced.rules"]


@pytest.mark.clause("MK-END-3")
def test_mk_end_3_a_kingdom_without_armies_stays_in_the_standings(tmp_path: Path) -> None:
    state = board()
    del state.armies["A1"]
    assert final.kingdom_line(state, "a").endswith("0 armies, 0 gold, 0 food")
    assert state.order == ["a", "b"]


@pytest.mark.parametrize("name", ["mk_three_realms", "mk_four_kingdoms", "mk_five_crowns", "mk_six_banners"])
def test_the_ready_made_maps_load_for_mighty_kingdoms(name: str) -> None:
    assert name in RULESET.ready_maps()
    assert campaign_map(name).name


@pytest.mark.parametrize(("name", "players"), [("mk_three_realms", 3), ("mk_four_kingdoms", 4),
                                               ("mk_five_crowns", 5), ("mk_six_banners", 6)])
def test_each_ready_made_map_seats_its_players_on_starting_tiles_3_or_more_apart_with_whole_rings(
        name: str, players: int) -> None:
    from itertools import combinations

    from pbem.rulesets.mighty_kingdoms.tiles import starting_tiles, terrain_class
    gmap = campaign_map(name)
    starts = starting_tiles(gmap)
    assert gmap.players == players and len(starts) > players
    assert min(gmap.distance(a, b) for a, b in combinations(starts, 2)) >= 3
    assert all(len(gmap.neighbours(s)) == 6 for s in starts)
    assert all(terrain_class(gmap, t) == "land" for s in starts for t in gmap.neighbours(s))
    classes = {terrain_class(gmap, t) for t in gmap.tiles}
    assert classes == {"land", "swamp", "all_mountains", "sea"}


def test_the_default_map_is_the_three_player_one() -> None:
    assert RULESET.default_map == "mk_three_realms" and campaign_map(RULESET.default_map).players == 3
