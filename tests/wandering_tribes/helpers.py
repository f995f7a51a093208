"""Small worlds for Wandering Tribes tests: rows and grids of square tiles, players and stacks
built from type names, and 2D6 totals turned into the faces the dice API rolls."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pbem.kit.dice import ScriptedDice
from pbem.rulesets.wandering_tribes import rules as wt_rules
from pbem.rulesets.wandering_tribes.model import Lock, Player, Stack, State
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SquareMap, squaremap_from_dict


def faces(*totals: int) -> list[int]:
    """2D6 totals as the two faces each: 7 -> 6, 1; 2 -> 1, 1."""
    out: list[int] = []
    for total in totals:
        high = min(6, total - 1)
        out += [high, total - high]
    return out


def dice(*totals: int) -> ScriptedDice:
    """Scripted dice rolling these 2D6 totals in order."""
    return ScriptedDice(faces(*totals))


def row(n: int = 5, terrain: Mapping[str, str] | None = None, campfires: Iterable[str] = (),
        routes: Mapping[str, list[str]] | None = None) -> SquareMap:
    """The catalog's test row: T1..Tn west to east, each with W>E, T1 with origin>E too; the last
    tile has no exit (a road leaving the map would be refused)."""
    terrain, routes, fires = dict(terrain or {}), dict(routes or {}), set(campfires)
    tiles = {}
    for i in range(1, n + 1):
        tile = f"T{i}"
        default = ["origin>E"] if i == 1 else (["W>E"] if i < n else [])
        tiles[tile] = {"x": i - 1, "y": 0, "terrain": terrain.get(tile, "plains"), "campfire": tile in fires,
                       "roads": routes.get(tile, default)}
    return squaremap_from_dict({"squares": tiles})


def grid(width: int, height: int, terrain: Mapping[str, str] | None = None) -> SquareMap:
    """Tiles T1.. row by row, every road open both ways: any entry may leave by any other side."""
    terrain = dict(terrain or {})
    tiles = {}
    for y in range(height):
        for x in range(width):
            tile = f"T{y * width + x + 1}"
            sides = [s for s, ok in (("N", y > 0), ("E", x < width - 1), ("S", y < height - 1), ("W", x > 0)) if ok]
            roads = [f"origin>{s}" for s in sides] + [f"{a}>{b}" for a in sides for b in sides if a != b]
            tiles[tile] = {"x": x, "y": y, "terrain": terrain.get(tile, "plains"), "roads": roads}
    return squaremap_from_dict({"squares": tiles})


def world(players: Mapping[str, str], seats: Sequence[str] | None = None) -> State:
    """Players by name -> nation key, seated in the order given."""
    order = list(seats or players)
    return State(seats=order, players={p: Player(p, nation) for p, nation in players.items()})


def put(state: State, rules: Rules, stack_id: str, owner: str, tile: str, types: Sequence[str]) -> Stack:
    nation = rules.nations[state.players[owner].nation]
    stack = Stack(stack_id, owner, tile, [state.new_marker(t, nation.points(t)) for t in types])
    state.stacks[stack_id] = stack
    return stack


def lock(state: State, defender: str, attacker: str) -> None:
    state.locks.append(Lock(defender, attacker, state.stacks[defender].tile))


def rules(**changes: object) -> Rules:
    """The shipped rules with dotted keys changed: rules(**{"campaign.mode": "one_on_one"})."""
    data = wt_rules.load().book.as_dict()
    for dotted, value in changes.items():
        node = data
        *path, last = dotted.split(".")
        for part in path:
            node = node[part]
        node[last] = value
    return wt_rules.from_data(data)


def no_minimums(nation: str, **changes: object) -> Rules:
    """The catalog's fixtures "with no <nation> minimums"."""
    base = wt_rules.load().book.as_dict()
    for entry in base["nations"][nation]["list"].values():
        entry["min"] = 0
    for dotted, value in changes.items():
        node = base
        *path, last = dotted.split(".")
        for part in path:
            node = node[part]
        node[last] = value
    return wt_rules.from_data(base)

