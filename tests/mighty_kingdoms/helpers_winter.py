"""Small boards for the winter's tests: a hex map joined by explicit links, kingdoms, armies, a view."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import armylist
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.model import WINTER, Army, Calendar, Kingdom, MKState, MKView, TileState
from pbem.rulesets.phases import View
from pbem.state.campaign import Player, Settings
from pbem.state.schedule import Schedule

NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
NAMES = {"a": "Albion", "b": "Brennia", "c": "Corvia", "d": "Dunmark"}

INFANTRY = "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"
WAR_ENGINE = "Bolt Thrower | War Engine | 5 - 5+ 4+ 2 -/11 | Blast (D3), Piercing (2) | 60"
MONSTER = "Cave Troll | Mon | 6 3+ - 5+ 8 -/17 | Crushing Strength (2) | 150"
HERO = "Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring | 80"


def book(**sections: Mapping[str, Any]) -> RuleBook:
    """The shipped rules with overrides, e.g. book(settlement_costs={"preset": "fresh_build"})."""
    return rulesmod.load(dict(sections))


def graph_map(terrain: Mapping[str, Any], links: Iterable[tuple[str, str]]) -> HexMap:
    """Tiles (id -> terrain: a class, or [class, features...]) joined by explicit links."""
    return hexmap_from_dict({"tiles": {t: {"terrain": v} for t, v in terrain.items()},
                             "links": [{"between": [a, b]} for a, b in links]})


def settings(players: Iterable[str]) -> Settings:
    people = tuple(Player(p, NAMES.get(p, p.title()), (f"{p}@example.org",), "x") for p in players)
    return Settings(name="winter", title="Winter Test", ruleset="mighty_kingdoms", map="test", address="g@example.org",
                    domain="example.org", schedule=Schedule.from_settings({}), schedule_raw={}, inbox={}, outbox={},
                    gm=Player("gm", "GM", ("gm@example.org",), "x"), players=people)


def state_of(order: Iterable[str], tiles: Mapping[str, tuple[str, str]] = {}, start: Mapping[str, str] = {},
             stock: Mapping[str, tuple[int, int]] = {}) -> MKState:
    """A winter state: `tiles` maps tile -> (owner, settlement), `start` player -> starting tile,
    `stock` player -> (gold, food)."""
    state = MKState(calendar=Calendar(year=1, month=WINTER, window="purchases"), order=list(order))
    for p in state.order:
        gold, food = stock.get(p, (0, 0))
        state.kingdoms[p] = Kingdom(p, NAMES.get(p, p.title()), start_tile=start.get(p, ""), gold=gold, food=food)
    for tile, (owner, settlement) in tiles.items():
        state.tiles[tile] = TileState(owner=owner, settlement=settlement)
    return state


def add_army(state: MKState, ident: str, tile: str, *units: str) -> Army:
    owner = ident.rstrip("0123456789").lower()
    roster, problems = armylist.read(ident, "", enumerate(units or (INFANTRY,), 1))
    assert not problems
    army = Army(ident, owner, tile, roster=roster)
    state.armies[ident] = army
    number = int(ident[len(owner):])
    state.kingdoms[owner].armies_raised = max(state.kingdoms[owner].armies_raised, number)
    return army


def view_of(state: MKState, gmap: HexMap, rules: RuleBook | None = None) -> MKView:
    return View(settings(state.kingdoms), state, gmap, rules or book(), NOW)


def item(text: str, *units: str, name: str = "") -> dict[str, Any]:
    """A purchase item as the window stores it, from its line: `BUILD village E`, `RECRUIT F DISBAND A4`,
    `TITHE a 0g 1f message`."""
    words = text.split()
    verb = words[0].upper()
    if verb == "BUILD":
        return {"verb": verb, "settlement": words[1], "tile": words[2]}
    if verb == "RECRUIT":
        disband = words[3] if len(words) > 3 else ""
        return {"verb": verb, "tile": words[1], "disband": disband, "name": name, "units": list(units or (INFANTRY,))}
    return {"verb": verb, "to": words[1], "gold": int(words[2][:-1]), "food": int(words[3][:-1]),
            "message": " ".join(words[4:])}
