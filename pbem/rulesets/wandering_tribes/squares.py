"""The Wandering Tribes map: square tiles with a terrain, a camp-fire flag and directed road routes.

Each tile lies at (x, y) on a grid, y growing southwards; tiles sharing an edge are adjacent,
diagonal ones are not (WT-MAP-4). Roads are stored per tile as routes "from>to" (WT-MAP-3):
`to` is the exit side the arrow points out of, `from` the side the road comes in by, or
`origin` for a road that begins in the tile. A two-way road is two routes; a fork is several
routes from one entry side:

    name = "Crossroads"
    players = 4
    [squares]
    T1 = { x = 0, y = 0, terrain = "towns", roads = ["origin>E", "W>E"] }
    T2 = { x = 1, y = 0, terrain = "plains", campfire = true, roads = ["W>E", "W>S"] }

Loading rejects a route whose exit leads off the map, and a map with fewer towns than the
players it is drawn for; `dead_ends` lists the entry sides where a road stops (WT-MAP-6), which
the GM is warned about but may keep.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.kit.maps import Edge, Geometry, MapError, MapKind, load, register
from pbem.kit.places import PlaceIndex
from pbem.rulesets.wandering_tribes.nations import TERRAINS

SIDES = ("N", "E", "S", "W")
ORIGIN = "origin"
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}
CAMPFIRE = "campfire"
ONEWAY = frozenset({"road", "oneway"})
TILE_SIZE = 100.0


@dataclass(frozen=True)
class Route:
    start: str          # entry side, or "origin"
    exit: str           # exit side the arrow points out of

    def __str__(self) -> str:
        return f"{self.start}>{self.exit}"


@dataclass(frozen=True)
class Square:
    id: str
    name: str
    terrain: str
    x: int
    y: int
    campfire: bool = False
    routes: tuple[Route, ...] = ()
    aliases: tuple[str, ...] = ()


class SquareMap(PlaceIndex):
    def __init__(self, name: str, tiles: Mapping[str, Square], players: int = 0) -> None:
        self.name = name
        self.tiles = dict(tiles)
        self.players = players
        self._at = {(t.x, t.y): t.id for t in self.tiles.values()}
        self._index(self.tiles.values(), "tile")

    # -- roads --------------------------------------------------------------------
    def toward(self, tile: str, side: str) -> str:
        """The tile across `side`, or "" at the map's edge."""
        spot = self.tiles[tile]
        dx, dy = STEP[side]
        return self._at.get((spot.x + dx, spot.y + dy), "")

    def exits(self, tile: str, entered_by: str = ORIGIN) -> list[str]:
        """The sides a stack may leave by: any route's exit on its first step (WT-ROAD-2), else
        only the exits of routes from the side it came in by (WT-ROAD-3); in N, E, S, W order."""
        routes = self.tiles[tile].routes
        found = {r.exit for r in routes if entered_by == ORIGIN or r.start == entered_by}
        return [s for s in SIDES if s in found]

    def side_of(self, tile: str, other: str) -> str:
        """The side of `tile` that `other` lies across ("" when not adjacent)."""
        return next((s for s in SIDES if self.toward(tile, s) == other), "")

    def towns(self) -> list[str]:
        return self.sorted(t for t, s in self.tiles.items() if s.terrain == "towns")

    # -- the PlaceMap protocol ------------------------------------------------------
    def neighbours(self, place: str) -> frozenset[str]:
        return frozenset(t for t in (self.toward(place, s) for s in SIDES) if t)

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def terrain(self, place: str) -> str:
        return self.tiles[place].terrain

    def features(self, place: str) -> frozenset[str]:
        return frozenset({CAMPFIRE} if self.tiles[place].campfire else set())

    def edges(self) -> Iterator[Edge]:
        """Every border once; "road" where a route crosses it, and "oneway" (from the edge's first
        tile to its second) where routes cross it in one direction only (WT-MAP-3's arrows)."""
        for a in self.places():
            for side in ("E", "S"):
                b = self.toward(a, side)
                if b:
                    out, back = side in self.exits(a), OPPOSITE[side] in self.exits(b)
                    if out != back:
                        yield Edge(a, b, ONEWAY) if out else Edge(b, a, ONEWAY)
                    else:
                        yield Edge(a, b, frozenset({"road"}) if out else frozenset())

    def geometry(self) -> Geometry:
        """Each tile a square polygon in map units."""
        size = TILE_SIZE
        return Geometry(polygons={t.id: [(t.x * size, t.y * size), ((t.x + 1) * size, t.y * size),
                                         ((t.x + 1) * size, (t.y + 1) * size), (t.x * size, (t.y + 1) * size)]
                                  for t in self.tiles.values()})


def dead_ends(gmap: SquareMap) -> list[str]:
    """WT-MAP-6: every entry side a road comes in by with no route going on from it."""
    out = []
    for tile in gmap.places():
        for side in gmap.exits(tile):
            other = gmap.toward(tile, side)
            entry = OPPOSITE[side]
            if other and not gmap.exits(other, entry):
                out.append(f"squares.{other}: the road from {tile} comes in by {entry} and goes no further "
                           "(a dead end: a stack entering there stops)")
    return out


def squaremap_from_dict(data: Mapping[str, Any], source: str = "map") -> SquareMap:
    """Build a map, collecting every problem before raising one MapError."""
    problems: list[str] = []
    raw = data.get("squares", {})
    tiles = {str(k): _tile(str(k), v, problems) for k, v in raw.items()} if isinstance(raw, Mapping) else {}
    if not tiles:
        problems.append('squares: missing; expected [squares] with T1 = { x = 0, y = 0, terrain = "towns" }')
    players = data.get("players", 0)
    if not isinstance(players, int) or isinstance(players, bool) or players < 0:
        problems.append(f"players: {players!r} should be a whole number (0 = any)")
        players = 0
    gmap = SquareMap(str(data.get("name", source)), tiles, players)
    problems += _placement(tiles) + _off_map(gmap)
    if players and len(gmap.towns()) < players:
        problems.append(f"squares: {len(gmap.towns())} town tiles for {players} players; every player "
                        "needs an empty town to start in")
    if problems:
        raise MapError(source, problems)
    return gmap


def _tile(ident: str, spec: Any, problems: list[str]) -> Square:
    where = f"squares.{ident}"
    if not isinstance(spec, Mapping):
        problems.append(f'{where}: expected a table like {{ x = 0, y = 0, terrain = "towns" }}')
        return Square(ident, ident, "plains", 0, 0)
    terrain = str(spec.get("terrain", ""))
    if terrain not in TERRAINS:
        problems.append(f"{where}.terrain: {terrain!r} is not one of {', '.join(TERRAINS)}")
    x, y = spec.get("x"), spec.get("y")
    if not (isinstance(x, int) and isinstance(y, int)):
        problems.append(f"{where}: give x and y as whole numbers")
        x = y = 0
    routes = tuple(r for r in (_route(where, text, problems) for text in spec.get("roads", [])) if r)
    return Square(ident, str(spec.get("name", ident)), terrain, x, y, bool(spec.get("campfire", False)),
                  routes, tuple(str(a) for a in spec.get("aliases", ())))


def _route(where: str, text: object, problems: list[str]) -> Route | None:
    parts = str(text).split(">")
    if len(parts) != 2 or parts[0] not in (*SIDES, ORIGIN) or parts[1] not in SIDES or parts[0] == parts[1]:
        problems.append(f"{where}.roads: {text!r} is not a route; write \"W>E\" (in by W, out by E) or "
                        "\"origin>S\" (a road beginning here)")
        return None
    return Route(parts[0], parts[1])


def _placement(tiles: Mapping[str, Square]) -> list[str]:
    seen: dict[tuple[int, int], str] = {}
    out = []
    for tile in tiles.values():
        if (tile.x, tile.y) in seen:
            out.append(f"squares.{tile.id}: {seen[(tile.x, tile.y)]} and {tile.id} are both at x={tile.x}, y={tile.y}")
        seen[(tile.x, tile.y)] = tile.id
    return out


def _off_map(gmap: SquareMap) -> list[str]:
    """WT-MAP-6: a route must point to an on-map neighbour."""
    return [f"squares.{t}.roads: {r} leaves the map by {r.exit}; there is no tile that way"
            for t in gmap.places() for r in gmap.tiles[t].routes if not gmap.toward(t, r.exit)]


MAPS = Path(__file__).resolve().parents[3] / "rules" / "maps" / "wandering_tribes"


def ready_made() -> list[str]:
    """The ready-made Wandering Tribes maps (rules/maps/wandering_tribes/, kept apart from the
    other systems' maps so their tests of every shipped map need not know this kind)."""
    return sorted(p.stem for p in MAPS.glob("*.toml"))


def load_squares(path: Path | str) -> SquareMap:
    """A ready-made square map by name, or a map file by path; raises MapError listing every problem."""
    name = str(path)
    chosen = MAPS / f"{name}.toml" if name in ready_made() else Path(name)
    gmap = load(chosen, "squares")
    assert isinstance(gmap, SquareMap)
    return gmap


KIND = register(MapKind("squares", "squares", squaremap_from_dict))
