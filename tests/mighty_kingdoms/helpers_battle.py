"""Small boards for the battle phase's tests: tiles joined by explicit links, kingdoms a, b, c.

Player "a" rules kingdom "Red" with armies A1, A2...; "b" is "Blue", "c" is "Green". Every
army has two 250-point units (U1 spearmen, U2 archers) unless told otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.rulesets.mighty_kingdoms import armylist
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Army, Calendar, Kingdom, MKState, MKView, TileState
from pbem.rulesets.phases import View
from pbem.state.campaign import Player, Settings
from pbem.state.schedule import Schedule

NAMES = {"a": "Red", "b": "Blue", "c": "Green"}
NOW = datetime(2026, 6, 1, 12, 0, tzinfo=UTC)
UNITS = ("Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 250",
         "Archers | Inf | 5 5+ 5+ 3+ 10 10/12 | | 250")


def board(links: Iterable[tuple[str, str]], terrain: Mapping[str, Any] | None = None) -> HexMap:
    """A map of the linked tiles (all land unless `terrain` says otherwise)."""
    pairs = list(links)
    ids = sorted({t for pair in pairs for t in pair})
    spec = terrain or {}
    return hexmap_from_dict({"tiles": {t: {"terrain": spec.get(t, "land")} for t in ids},
                             "links": [{"between": [x, y]} for x, y in pairs]})


def state_of(order: Iterable[str], owners: Mapping[str, str], settlements: Mapping[str, str] | None = None,
             month: int = 1) -> MKState:
    state = MKState(calendar=Calendar(1, month, "orders"), order=list(order))
    for pid in state.order:
        state.kingdoms[pid] = Kingdom(pid, NAMES[pid])
    for tile, owner in owners.items():
        state.tiles[tile] = TileState(owner, settlement=(settlements or {}).get(tile, ""))
    return state


def army(state: MKState, ident: str, tile: str, upright: bool = True, units: Iterable[str] = UNITS) -> Army:
    owner = ident[0].lower()
    roster, problems = armylist.read(ident, "", enumerate(units, start=1))
    assert not problems
    made = Army(ident, owner, tile, upright, roster=roster)
    state.armies[ident] = made
    return made


def settings(players: Iterable[str] = ("a", "b", "c")) -> Settings:
    people = tuple(Player(p, NAMES[p], (f"{p}@pbem.test",), "", NAMES[p].lower(), NAMES[p]) for p in players)
    return Settings("mk", "Mighty Test", "mighty_kingdoms", "", "mk@pbem.test", "pbem.test",
                    Schedule.from_settings({}), {}, {}, {}, Player("gm", "GM", ("gm@pbem.test",), ""), people)


def view_of(state: MKState, gmap: HexMap, now: datetime = NOW, deadline: datetime | None = None,
            **rules: Mapping[str, Any]) -> MKView:
    return View(settings(state.order), state, gmap, rulesmod.load(dict(rules)), now, deadline)


def player(pid: str) -> Player:
    return Player(pid, NAMES[pid], (f"{pid}@pbem.test",), "", NAMES[pid].lower(), NAMES[pid])


def lines(text: str) -> list[tuple[int, str]]:
    return [(n, line.strip()) for n, line in enumerate(text.strip().splitlines(), start=1) if line.strip()]


def texts(sections: Iterable[Section]) -> list[str]:
    return [line for s in sections for line in s.lines]
