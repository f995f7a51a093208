"""Hex tile maps: tiles on axial coordinates, adjacency by shared edge, hex distance.

A map is TOML a game master can edit. Each tile has axial coordinates (q, r);
two tiles are adjacent when their hexes share an edge, so adjacency never has
to be typed by hand. Maps cut into irregular tiles instead list their borders
(`[[links]]`), and may also remove an edge (`[[cuts]]`, e.g. an impassable
cliff); a map may mix both.

    name = "Three Crowns"
    [tiles]
    T1 = { q = 0, r = 0, name = "Ashford", terrain = "countryside", building = "city" }
    T2 = { q = 1, r = 0, terrain = ["river", "mountain"] }    # several types on one tile
    S1 = { q = 2, r = 0, terrain = "sea", water = "north" }
    [[links]]
    between = ["T1", "T9"]

What the terrain, building and objective names mean is the rule system's
business; this module only checks the shape. Tile ids sort naturally (T2
before T10); that order breaks ties everywhere.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.maps import Edge, Geometry, MapError, MapKind, load, register
from pbem.kit.places import PlaceIndex

__all__ = ["AXIAL_STEPS", "HexMap", "HexTile", "MapError", "hexmap_from_dict", "load_hexmap"]

AXIAL_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
NO_COORD = -10**6


@dataclass(frozen=True)
class HexTile:
    id: str
    name: str
    terrains: tuple[str, ...]
    q: int = NO_COORD
    r: int = NO_COORD
    building: str = ""
    objective: str = ""
    water: str = ""               # body of water a river, shore or sea tile belongs to ("" = none given)
    aliases: tuple[str, ...] = ()

    @property
    def terrain(self) -> str:
        """The main terrain (the first listed)."""
        return self.terrains[0]

    def has(self, *terrains: str) -> bool:
        return any(t in self.terrains for t in terrains)

    @property
    def placed(self) -> bool:
        return self.q != NO_COORD and self.r != NO_COORD


@dataclass
class HexMap(PlaceIndex):
    name: str
    tiles: dict[str, HexTile]
    players: int = 0              # how many players the map was drawn for (0 = any)
    _adjacent: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        self._index(self.tiles.values(), "tile")

    # -- queries ------------------------------------------------------------------
    def neighbours(self, tile: str) -> frozenset[str]:
        return self._adjacent[tile]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent.get(a, ())

    def distance(self, start: str, goal: str) -> int:
        """Fewest steps from hex to hex over every tile (sea included); -1 if unreachable.

        On a plain hex grid this is the hex distance (COC-SET-6's "gap")."""
        if start == goal:
            return 0
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self._adjacent[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    if nxt == goal:
                        return seen[nxt]
                    queue.append(nxt)
        return -1

    def with_terrain(self, *terrains: str) -> list[str]:
        return self.sorted(t for t, tile in self.tiles.items() if tile.has(*terrains))

    # -- the PlaceMap protocol (pbem.kit.maps) ---------------------------------------
    def terrain(self, tile: str) -> str:
        """The main terrain; `tiles[tile].terrains` has them all."""
        return self.tiles[tile].terrain

    def features(self, tile: str) -> frozenset[str]:
        """The building ("city", "castle", "mine", "port"), "objective" and the objective's name,
        and any terrain after the main one ("river" on a river mountain)."""
        spot = self.tiles[tile]
        marks = {spot.building, *spot.terrains[1:]}
        if spot.objective:
            marks |= {"objective", spot.objective}
        return frozenset(marks - {""})

    def edges(self) -> Iterator[Edge]:
        for a in self.places():
            for b in self.sorted(self._adjacent[a]):
                if self.order(a) < self.order(b):
                    yield Edge(a, b)

    def geometry(self) -> Geometry:
        """Axial (q, r) of every tile placed on the grid."""
        return Geometry(hexes={t.id: (t.q, t.r) for t in self.tiles.values() if t.placed})



# -- loading ---------------------------------------------------------------------
def load_hexmap(path: Path | str) -> HexMap:
    """A hex map by name (rules/maps/) or path; raises MapError listing every problem."""
    gmap = load(path, "hexes")
    assert isinstance(gmap, HexMap)
    return gmap


def hexmap_from_dict(data: Mapping[str, Any], source: str = "map") -> HexMap:
    """Build a map, collecting every problem before raising one MapError."""
    problems: list[str] = []
    tiles = {str(k): _tile(str(k), v, problems) for k, v in data.get("tiles", {}).items()}
    if not tiles:
        problems.append("tiles: missing; expected [tiles] with T1 = { q = 0, r = 0, terrain = ... }")
    adjacency = _adjacency(tiles, data.get("links", []), data.get("cuts", []), problems)
    if problems:
        raise MapError(source, problems)
    gmap = HexMap(str(data.get("name", source)), tiles, int(data.get("players", 0)))
    gmap._adjacent = adjacency
    return gmap


def _tile(ident: str, spec: Any, problems: list[str]) -> HexTile:
    if not isinstance(spec, Mapping):
        problems.append(f"tiles.{ident}: expected a table like {{ q = 0, r = 0, terrain = \"countryside\" }}")
        return HexTile(ident, ident, ("countryside",))
    raw = spec.get("terrain", "countryside")
    terrains = tuple(raw) if isinstance(raw, list) else (str(raw),)
    if not terrains:
        problems.append(f"tiles.{ident}.terrain: empty; give at least one terrain")
        terrains = ("countryside",)
    q, r = spec.get("q", NO_COORD), spec.get("r", NO_COORD)
    if ("q" in spec) != ("r" in spec) or not all(isinstance(v, int) for v in (q, r)):
        problems.append(f"tiles.{ident}: give both q and r as whole numbers, or neither")
        q = r = NO_COORD
    return HexTile(ident, str(spec.get("name", ident)), terrains, q, r, str(spec.get("building", "")),
                   str(spec.get("objective", "")), str(spec.get("water", "")), tuple(spec.get("aliases", ())))


def _adjacency(tiles: Mapping[str, HexTile], links: list[Any], cuts: list[Any],
               problems: list[str]) -> dict[str, frozenset[str]]:
    adj: dict[str, set[str]] = {t: set() for t in tiles}
    at: dict[tuple[int, int], str] = {}
    for tile in tiles.values():
        if not tile.placed:
            continue
        if (tile.q, tile.r) in at:
            problems.append(f"tiles.{tile.id}: {at[(tile.q, tile.r)]} and {tile.id} are both at q={tile.q}, r={tile.r}")
        at[(tile.q, tile.r)] = tile.id
    for (q, r), ident in at.items():
        for dq, dr in AXIAL_STEPS:
            other = at.get((q + dq, r + dr))
            if other:
                adj[ident].add(other)
    for kind, entries in (("link", links), ("cut", cuts)):
        for n, spec in enumerate(entries):
            pair = list(spec.get("between", [])) if isinstance(spec, Mapping) else []
            if len(pair) != 2 or pair[0] == pair[1] or any(t not in tiles for t in pair):
                problems.append(f"{kind}s[{n}].between: {pair!r} needs two different known tiles")
                continue
            a, b = pair
            if kind == "link":
                adj[a].add(b)
                adj[b].add(a)
            else:
                adj[a].discard(b)
                adj[b].discard(a)
    return {t: frozenset(n) for t, n in adj.items()}


KIND = register(MapKind("hexes", "tiles", hexmap_from_dict))
