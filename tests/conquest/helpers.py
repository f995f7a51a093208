"""Small maps and states for Campaigns of Conquest tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.model import (
    ConquestState,
    Empire,
    RoundState,
    TileState,
    Win,
)


def book(**sections: Mapping[str, Any]) -> RuleBook:
    """The shipped rules with overrides, e.g. book(plunder={"limit_per_win": 0})."""
    return rulesmod.load(dict(sections))


def graph_map(terrain: Mapping[str, Any], links: Iterable[tuple[str, str]]) -> HexMap:
    """A map cut into tiles joined by explicit links (no coordinates needed)."""
    return hexmap_from_dict({"tiles": {t: {"terrain": v} for t, v in terrain.items()},
                             "links": [{"between": [a, b]} for a, b in links]})


def state_of(gmap: HexMap, players: Iterable[str], owners: Mapping[str, str] = {},
             buildings: Mapping[str, str] = {}, order: Iterable[str] = (), treasury: Mapping[str, int] = {},
             wins: Iterable[tuple[str, str]] = ()) -> ConquestState:
    """A state in round 1 with the given holdings; `order` is ascending."""
    state = ConquestState()
    for pid in players:
        state.empires[pid] = Empire(pid, pid.title(), treasury=treasury.get(pid, 0))
    for t in gmap.tiles:
        if "sea" not in gmap.tiles[t].terrains:
            state.tiles[t] = TileState(owners.get(t, ""), buildings.get(t, gmap.tiles[t].building))
    state.round = RoundState(number=1, window="conquest", order=list(order or players))
    state.round.largest = state.round.order[-1] if state.round.order else ""
    state.round.wins = [Win(w, l) for w, l in wins]
    return state


def line(*tiles: str) -> list[tuple[str, str]]:
    """Links joining the tiles one after another: a path."""
    return list(pairwise(tiles))
