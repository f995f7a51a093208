"""Builders for battle-side tests: a small map, a state with a round's battles, events and holdings."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.model import (
    Battle,
    ConquestState,
    Empire,
    EventPick,
    RoundState,
    TileState,
)

NAMES = ("anna", "ben", "cara", "dan", "andy", "phil", "bob", "max")


def rules(**sections: Mapping[str, Any]) -> RuleBook:
    return rulesmod.load(dict(sections))


def board(terrain: Mapping[str, str] | None = None, objectives: Mapping[str, str] | None = None,
          links: Iterable[tuple[str, str]] = ()) -> HexMap:
    """Tiles T1..T80 without coordinates; adjacency only through `links`."""
    terrain, objectives = terrain or {}, objectives or {}
    tiles = {f"T{n}": {"terrain": terrain.get(f"T{n}", "countryside"), "objective": objectives.get(f"T{n}", "")}
             for n in range(1, 81)}
    return hexmap_from_dict({"name": "test", "tiles": tiles, "links": [{"between": list(l)} for l in links]})


def state(players: Iterable[str] = ("cara", "ben", "dan"), treasury: Mapping[str, int] | None = None,
          battles: Iterable[Battle] = (), largest: str = "", events: Mapping[str, str] | None = None,
          tiles: Mapping[str, tuple[str, str]] | None = None, carried: Mapping[str, int] | None = None,
          round_no: int = 1) -> ConquestState:
    """`events` player -> event key; `tiles` tile -> (owner, building)."""
    players = list(players)
    made = ConquestState(
        empires={p: Empire(p, p.title(), treasury=(treasury or {}).get(p, 0), carried_ep=(carried or {}).get(p, 0))
                 for p in players},
        tiles={f"T{n}": TileState() for n in range(1, 81)},
        round=RoundState(number=round_no, window="setup", order=players, largest=largest,
                         battles=list(battles)),
    )
    for player, event in (events or {}).items():
        made.round.events.append(EventPick(player, event))
    for tile, (owner, building) in (tiles or {}).items():
        made.tiles[tile] = TileState(owner, building)
    return made


def land(ident: str, attackers: list[str], defenders: list[str], kind: str = "") -> Battle:
    return Battle(ident, kind or ("team" if len(attackers) > 1 or len(defenders) > 1 else "land"),
                  attackers, defenders)
