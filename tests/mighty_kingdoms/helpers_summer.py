"""Small boards for the summer tests: a map of linked tiles, kingdoms, armies, a view over them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.kit.roster import Roster
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.model import ORDERS, Army, Calendar, Kingdom, MKState, MKView, TileState
from pbem.rulesets.phases import View
from pbem.state.campaign import Player, Settings
from pbem.state.schedule import Schedule

NAMES = {"a": "Aland", "b": "Brisk", "c": "Corvel"}
NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)


def graph_map(links: Iterable[tuple[str, str]], terrain: Mapping[str, str] = {}) -> HexMap:
    """Tiles joined by explicit links; every tile is land unless `terrain` says otherwise."""
    pairs = list(links)
    tiles = sorted({t for pair in pairs for t in pair} | set(terrain))
    return hexmap_from_dict({"tiles": {t: {"terrain": terrain.get(t, "land")} for t in tiles},
                             "links": [{"between": [a, b]} for a, b in pairs]})


def book(**sections: Mapping[str, Any]) -> RuleBook:
    """The shipped rules with overrides, e.g. book(orders={"window_mode": "per_cycle"})."""
    return rulesmod.load(dict(sections))


def board(order: Iterable[str], tiles: Mapping[str, str] = {}, armies: Mapping[str, str] = {},
          settlements: Mapping[str, str] = {}, towers: Iterable[str] = (), starts: Mapping[str, str] = {}) -> MKState:
    """Month 1 of year 1, window O. `tiles` maps a tile to its owner ("a"); `armies` an army id
    ("A1": its owner is the lower-cased prefix) to its tile; `starts` a player to his starting tile."""
    state = MKState(calendar=Calendar(1, 1, ORDERS), order=list(order))
    for p in state.order:
        state.kingdoms[p] = Kingdom(p, NAMES[p], start_tile=starts.get(p, ""))
    for tile, owner in tiles.items():
        state.tiles[tile] = TileState(owner=owner, settlement=settlements.get(tile, ""))
    for tile in towers:
        state.tiles[tile] = TileState(tower=True)
    for ident, tile in armies.items():
        state.armies[ident] = Army(ident, ident[0].lower(), tile, roster=Roster(ident))
    return state


def player(pid: str) -> Player:
    return Player(pid, NAMES[pid], (f"{pid}@mk.test",), "", faction=pid, faction_name=NAMES[pid])


def view(state: MKState, gmap: HexMap, rules: RuleBook | None = None) -> MKView:
    players = tuple(player(p) for p in state.order)
    settings = Settings(name="mk", title="Mighty Test", ruleset="mighty_kingdoms", map="test", address="mk@mk.test",
                        domain="mk.test", schedule=Schedule.from_settings({}), schedule_raw={}, inbox={}, outbox={},
                        gm=Player("gm", "GM", ("gm@mk.test",), ""), players=players)
    return View(settings, state, gmap, rules or book(), NOW)


def numbered(*lines: str) -> list[tuple[int, str]]:
    return list(enumerate(lines, start=1))
