"""The map picture: kingdoms, settlements, towers, armies with ids and status, this month's moves
and battles (issue 16's map drawn like the others)."""

from __future__ import annotations

from pathlib import Path

from pbem.kit.scene import BATTLE, MOVE, RETREAT
from pbem.pictures.picture import picture_of
from pbem.rulesets.mighty_kingdoms.battle_state import Battle
from pbem.rulesets.mighty_kingdoms.model import CITY, FORTRESS, VILLAGE, Army, Calendar, Kingdom, MKState, TileState
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.rulesets.mighty_kingdoms.summer_state import Order
from tests.mighty_kingdoms.helpers_setup import T0, campaign, hand_view


def month() -> MKState:
    state = MKState(calendar=Calendar(1, 2, "battle"), order=["b", "a"])
    state.kingdoms = {"a": Kingdom("a", "Red Realm", "T28"), "b": Kingdom("b", "Blue March", "T34")}
    state.tiles = {"T28": TileState("a", settlement=CITY), "T29": TileState("a", settlement=FORTRESS),
                   "T20": TileState("a", settlement=VILLAGE, razed=True), "T34": TileState("b", settlement=CITY),
                   "T35": TileState("b"), "T31": TileState(tower=True)}
    state.armies = {"A1": Army("A1", "a", "T35"), "B1": Army("B1", "b", "T34", upright=False)}
    state.month.orders = [Order("A1", "move", "T35", "a", start="T29", done=True),
                          Order("B1", "move", "T31", "b", start="T34", done=True, cancelled=True)]
    state.battle.battles = [Battle("Y1M2-B1", "T35", "b", "a", moves={"B1": "T34"})]
    return state


def test_a_month_resolved_after_the_calendar_moved_on_is_titled_by_its_own_month(tmp_path: Path) -> None:
    """Reform opened month 3 before the report of month 2 is drawn: the picture shows month 2's
    moves, so its title names month 2 and the stage line what is open now."""
    camp = campaign(tmp_path)
    state = month()
    state.month.turn, state.month.resolved = 2, True
    state.calendar = Calendar(1, 3, "orders")
    scene = RULESET.scene(hand_view(camp, state))
    assert (scene.title, scene.stage) == ("mk: Year 1, month 2", "resolved; next: Year 1, month 3 orders")
    assert scene.moves


def test_the_scene_shows_owners_settlements_towers_armies_moves_and_battles(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    scene = RULESET.scene(hand_view(camp, month()))
    assert scene.title == "mk: Year 1, month 2" and scene.stage == "battles"
    assert [(s.name, s.colour) for s in scene.sides] == [("Blue March", "blue"), ("Red Realm", "red")]
    assert scene.owners == {"T28": "a", "T29": "a", "T20": "a", "T34": "b", "T35": "b"}
    assert {(m.place, m.kind) for m in scene.markers} == {
        ("T28", "capital"), ("T34", "capital"), ("T28", "city"), ("T34", "city"), ("T29", "fortress"),
        ("T20", "village"), ("T31", "tower")}
    assert [(p.id, p.place, p.dislodged) for p in scene.pieces] == [("B1", "T34", True), ("A1", "T35", False)]
    assert [(m.start, m.end, m.kind, m.succeeded) for m in scene.moves] == [
        ("T29", "T35", MOVE, True), ("T34", "T31", MOVE, False), ("T35", "T34", RETREAT, True)]
    assert [(c.place, c.kind, c.label) for c in scene.clashes] == [("T35", BATTLE, "Y1M2-B1")]
    assert "55 of 61 tiles unexplored (no colour, no mark)" in scene.notes
    assert "Raze pending (settlement upside down): T20" in scene.notes
    assert "Laid on their side: B1" in scene.notes


def test_the_picture_is_drawn_with_every_army_id(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    game = RULESET.store(camp.state["game"], month())
    picture = picture_of(RULESET, camp.settings, game, "mk-test", raster=False, now=T0)
    assert picture is not None
    assert 'data-id="A1"' in picture.svg and 'data-id="B1"' in picture.svg and "Y1M2-B1" in picture.svg


def test_an_all_mountains_tile_is_drawn_apart_from_land_and_named_in_the_legend(tmp_path: Path) -> None:
    """T15 Ravenwick of mk_three_realms is all mountains (the catalog's A2: nothing is built there): a player
    must see that on the map, so it is not drawn in land's colour."""
    camp = campaign(tmp_path)
    game = RULESET.store(camp.state["game"], month())
    picture = picture_of(RULESET, camp.settings, game, "mk-test", raster=False, now=T0)
    assert picture is not None
    ravenwick = picture.svg.split('data-place="T15"', 1)[1].split("</g>", 1)[0]
    land = picture.svg.split('data-place="T1"', 1)[1].split("</g>", 1)[0]
    fill = ravenwick.split('fill="', 1)[1][:7]
    assert fill != land.split('fill="', 1)[1][:7]
    assert f'fill="{fill}" stroke="#6b6b6b"/><text x="24" y="12" font-size="11" fill="#111111">all mountains</text>' \
        in picture.svg
    assert ">land</text>" in picture.svg and "all mountains / land" not in picture.svg


def test_last_summers_moves_and_battles_leave_the_picture_from_deployment_to_next_month_1(tmp_path: Path) -> None:
    camp = campaign(tmp_path)
    for window, month_no, shown in (("purchases", 7, True), ("deployment", 7, False), ("orders", 1, False),
                                    ("orders", 2, True)):
        state = month()
        state.calendar = Calendar(1 if month_no == 7 else 2, month_no, window)
        scene = RULESET.scene(hand_view(camp, state))
        assert bool(scene.moves) is shown and bool(scene.clashes) is shown, (window, month_no)
