"""Rings that meet another kingdom or the map's edge (A17), and the terrain of ring tiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms import setup
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Kingdom, MKState
from pbem.rulesets.mighty_kingdoms.setup import Wish
from pbem.rulesets.mighty_kingdoms.tiles import direction
from tests.mighty_kingdoms.helpers_setup import small_map

DIRS = ("NE", "E", "SE", "SW", "W", "NW")


def close_map(terrain: dict[tuple[int, int], str] | None = None, radius: int = 3) -> HexMap:
    """A hex map around S1 (0, 0), with a second starting tile S2 two hexes east at (2, 0): the two
    rings share the tile between them, (1, 0). With radius 2, S2 lies on the edge."""
    tiles = {}
    for r in range(-radius, radius + 1):
        for q in range(-radius, radius + 1):
            if max(abs(q), abs(r), abs(q + r)) <= radius:
                ident = {(0, 0): "S1", (2, 0): "S2"}.get((q, r), f"T{len(tiles) + 1}")
                spec: dict[str, object] = {"q": q, "r": r, "terrain": (terrain or {}).get((q, r), "land")}
                if ident.startswith("S"):
                    spec["objective"] = "start"
                tiles[ident] = spec
    return small_map(tiles)


def placed(gmap: HexMap, wishes: dict[str, Wish], rules: RuleBook | None = None) -> tuple[MKState, Section]:
    rules = rules or rulesmod.load()
    state = setup.new_state(gmap, rules, [("a", "Red"), ("b", "Blue")])
    state.order = ["a", "b"]
    section = Section("Setup")
    setup.place(state, gmap, rules, wishes, section)
    return state, section


def ring(state: MKState, gmap: HexMap, centre: str) -> list[str]:
    out = []
    for d in DIRS:
        tile = direction(gmap, centre, d)
        held = state.tile(tile) if tile else None
        out.append("off" if not tile else "-" if not held or not held.owner else
                   f"{held.owner}:{held.settlement or 'control'}")
    return out


def test_a17_a_ring_tile_held_by_an_earlier_kingdom_is_skipped_settlements_first() -> None:
    gmap = close_map()
    wishes = {"a": Wish(["S1"], {"*": ["control", "village", "fortress", "village", "city", "control"]}),
              "b": Wish(["S2"], {"*": ["control", "village", "fortress", "village", "city", "control"]})}
    state, section = placed(gmap, wishes)
    assert direction(gmap, "S1", "E") == direction(gmap, "S2", "W")
    assert ring(state, gmap, "S1")[1] == "a:village"              # Red laid its E village first
    # Blue's W city finds its tile held: it takes the place of the NE control marker
    assert ring(state, gmap, "S2") == ["b:city", "b:village", "b:fortress", "b:village", "a:village", "b:control"]
    assert "Blue's ring: W is skipped" in "\n".join(section.lines)
    assert len(state.kingdom_tiles("a")) == 7 and len(state.kingdom_tiles("b")) == 6


def test_a17_a_ring_at_the_map_edge_lays_what_fits() -> None:
    gmap = close_map(radius=2)
    state, section = placed(gmap, {"a": Wish(["S2"]), "b": Wish(["S1"])})
    # the default NE city, E village, SE fortress are off the map: the city and the village take the
    # places of the W and NW control markers, the fortress finds no room
    assert ring(state, gmap, "S2") == ["off", "off", "off", "a:village", "a:city", "a:village"]
    assert "Red's ring: NE is skipped (off the map; A17)." in section.lines
    assert len(state.kingdom_tiles("a")) == 4


def test_a17_ring_unbuildable_allow_puts_settlements_on_swamp_and_sea() -> None:
    gmap = close_map({(1, -1): "sea"})
    state, _ = placed(gmap, {"a": Wish(["S1"]), "b": Wish(["S2"])})
    assert state.tile(direction(gmap, "S1", "NE")).settlement == "city"


def test_a17_ring_unbuildable_control_lays_a_marker_on_unbuildable_terrain_instead() -> None:
    gmap = close_map({(1, -1): "sea"})
    rules = rulesmod.load({"setup": {"ring_unbuildable": "control"}})
    state, section = placed(gmap, {"a": Wish(["S1"]), "b": Wish(["S2"])}, rules)
    ne = direction(gmap, "S1", "NE")
    assert state.tile(ne).owner == "a" and state.tile(ne).settlement == ""
    assert "a control marker instead of the city" in "\n".join(section.lines)


@pytest.mark.clause("MK-SET-3")
def test_mk_set_3_no_free_starting_tile_leaves_the_kingdom_to_the_gm(tmp_path: Path) -> None:
    gmap = close_map()
    rules = rulesmod.load()
    state = setup.new_state(gmap, rules, [("a", "Red"), ("b", "Blue")])
    state.kingdoms["c"] = Kingdom("c", "Green")
    state.order = ["a", "b", "c"]
    section = Section("Setup")
    setup.place(state, gmap, rules, {}, section)
    assert state.kingdoms["c"].start_tile == "" and "the game master places the kingdom" in section.lines[-1]


@pytest.mark.clause("MK-SET-7")
def test_mk_set_7_an_army_asked_on_a_skipped_ring_tile_starts_in_the_capital() -> None:
    gmap = close_map(radius=2)
    state, section = placed(gmap, {"a": Wish(["S2"], army="E"), "b": Wish(["S1"])})
    assert state.setup.army_at["a"] == "S2"
    assert "starts in the capital" in "\n".join(section.lines)


def test_a_map_with_too_few_starting_tiles_cannot_start_a_campaign() -> None:
    assert setup.map_problems(close_map(), 3) == [
        "the map test has 2 starting tiles for 3 players; mark at least one per player with objective = \"start\" "
        "or choose a map drawn for more players"]


def test_mk_set_3_the_gm_hears_of_a_kingdom_left_without_a_starting_tile(tmp_path: Path) -> None:
    from pbem.kit.dice import ScriptedDice
    from pbem.rulesets.mighty_kingdoms import window_setup
    from tests.mighty_kingdoms.helpers_setup import campaign, hand_view

    gmap = close_map()
    state = setup.new_state(gmap, rulesmod.load(), [("a", "Red"), ("b", "Blue")])
    state.kingdoms["c"] = Kingdom("c", "Green")
    state.order, state.setup.rolled = ["a", "b", "c"], True
    out = window_setup.resolve_setup(hand_view(campaign(tmp_path), state, gmap), {}, ScriptedDice([]))
    assert out.gm_alerts[0].startswith("Green (c) found no free starting tile")
