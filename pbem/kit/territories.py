"""Land maps: territories with terrain, borders with rivers, bridges and roads.

A map is TOML a game master can edit:

    name = "Rift Valley"
    special = ["T12", "T14"]          # scoring territories (rule systems decide what they mean)
    objective = "T13"
    [territories]
    T1 = { name = "Ashford", terrain = "clear" }
    [[borders]]
    between = ["T1", "T2"]
    road = true                       # optional: road, river, bridge
    [homes.1]                         # home realms, assigned to players at campaign creation
    stronghold = "T1"
    originals = ["T1", "T2", "T4"]

Territory ids sort naturally (T2 before T10); that order breaks ties everywhere.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.maps import Edge, Geometry, MapError, MapKind, geometry_of, load, register
from pbem.kit.places import PlaceIndex, natural_key

__all__ = ["TERRAINS", "Border", "GameMap", "Home", "MapError", "Territory", "load_map", "map_from_dict",
           "natural_key"]

TERRAINS = ("clear", "woods", "hills", "swamp", "mountain")


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    terrain: str
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Border:
    a: str
    b: str
    river: bool = False
    bridge: bool = False
    road: bool = False

    @property
    def unbridged_river(self) -> bool:
        """A river crossing without a bridge; a road across a river is a bridge."""
        return self.river and not (self.bridge or self.road)


@dataclass(frozen=True)
class Home:
    key: str
    stronghold: str
    originals: tuple[str, ...]


@dataclass
class GameMap(PlaceIndex):
    name: str
    territories: dict[str, Territory]
    borders: dict[frozenset[str], Border]
    homes: dict[str, Home]
    special: tuple[str, ...] = ()
    objective: str = ""
    drawing: Geometry = field(default_factory=Geometry, repr=False, compare=False)   # the file's [geometry]
    _adjacent: dict[str, frozenset[str]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        adj: dict[str, set[str]] = {t: set() for t in self.territories}
        for pair in self.borders:
            a, b = sorted(pair)
            adj[a].add(b)
            adj[b].add(a)
        self._adjacent = {t: frozenset(n) for t, n in adj.items()}
        self._index(self.territories.values(), "territory")

    # -- queries -------------------------------------------------------------
    def neighbours(self, territory: str) -> frozenset[str]:
        return self._adjacent[territory]

    def adjacent(self, a: str, b: str) -> bool:
        return b in self._adjacent.get(a, ())

    def border(self, a: str, b: str) -> Border:
        return self.borders[frozenset((a, b))]

    def terrain(self, territory: str) -> str:
        return self.territories[territory].terrain

    # -- the PlaceMap protocol (pbem.kit.maps) ----------------------------------
    def features(self, territory: str) -> frozenset[str]:
        """"stronghold" and "home" of a home realm, "special" and "objective" of the scoring ones."""
        marks = {"special"} if territory in self.special else set()
        if territory == self.objective:
            marks.add("objective")
        for home in self.homes.values():
            if territory == home.stronghold:
                marks.add("stronghold")
            if territory in home.originals:
                marks.add("home")
        return frozenset(marks)

    def edges(self) -> Iterator[Edge]:
        for border in self.borders.values():
            kinds = {k for k in ("river", "bridge", "road") if getattr(border, k)}
            yield Edge(border.a, border.b, frozenset(kinds))

    def geometry(self) -> Geometry:
        """The centre points or outlines the map file carries (`[geometry]`); without them
        pictures lay the map out from its borders."""
        return self.drawing

    def distance(self, start: str, goal: str) -> int:
        """Fewest adjacency steps, ignoring occupation and terrain (-1 if unreachable)."""
        return self.distances(start).get(goal, -1)

    def distances(self, start: str) -> dict[str, int]:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self._adjacent[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        return seen


# -- loading -----------------------------------------------------------------
def load_map(path: Path | str) -> GameMap:
    """A territory map by name (rules/maps/) or path; raises MapError listing every problem."""
    gmap = load(path, "territories")
    assert isinstance(gmap, GameMap)
    return gmap


def map_from_dict(data: Mapping[str, Any], source: str = "map") -> GameMap:
    problems: list[str] = []
    territories = _territories(data.get("territories", {}), problems)
    borders = _borders(data.get("borders", []), territories, problems)
    homes = _homes(data.get("homes", {}), territories, problems)
    special = tuple(data.get("special", ()))
    objective = str(data.get("objective", ""))
    for key, t in (*(("special", t) for t in special), *((("objective", objective),) if objective else ())):
        if t not in territories:
            problems.append(f"{key}: scoring territory {t!r} is not a territory")
    if problems:
        raise MapError(source, problems)
    return GameMap(str(data.get("name", source)), territories, borders, homes, special, objective,
                   geometry_of(data))


def _territories(raw: Mapping[str, Any], problems: list[str]) -> dict[str, Territory]:
    out = {}
    for ident, spec in raw.items():
        if not isinstance(spec, Mapping):
            problems.append(f"territories.{ident}: expected a table like {{ name = \"Ashford\", terrain = \"clear\" }}")
            continue
        terrain = spec.get("terrain", "clear")
        if terrain not in TERRAINS:
            problems.append(f"territories.{ident}.terrain: {terrain!r} is not one of {', '.join(TERRAINS)}")
        out[ident] = Territory(ident, spec.get("name", ident), terrain, tuple(spec.get("aliases", ())))
    if not out:
        problems.append("territories: missing; expected [territories] with T1 = { name = ..., terrain = ... }")
    return out


def _borders(raw: list[Mapping[str, Any]], terr: Mapping[str, Territory],
             problems: list[str]) -> dict[frozenset[str], Border]:
    out: dict[frozenset[str], Border] = {}
    for n, spec in enumerate(raw):
        pair = list(spec.get("between", [])) if isinstance(spec, Mapping) else []
        if len(pair) != 2 or pair[0] == pair[1] or any(t not in terr for t in pair):
            problems.append(f"borders[{n}].between: {pair!r} needs two different known territories")
            continue
        key = frozenset(pair)
        if key in out:
            problems.append(f"borders[{n}].between: border {pair[0]}-{pair[1]} is listed twice")
        flags = {k: bool(spec.get(k, False)) for k in ("river", "bridge", "road")}
        out[key] = Border(pair[0], pair[1], **flags)
    return out


def _homes(raw: Mapping[str, Any], terr: Mapping[str, Territory], problems: list[str]) -> dict[str, Home]:
    out = {}
    for key, spec in raw.items():
        if not isinstance(spec, Mapping):
            problems.append(f"homes.{key}: expected a table with stronghold and originals")
            continue
        stronghold = spec.get("stronghold", "")
        originals = tuple(spec.get("originals", ()))
        unknown = [t for t in (stronghold, *originals) if t not in terr]
        if unknown:
            problems.append(f"homes.{key}: unknown territory {unknown[0]!r}")
        elif stronghold not in originals:
            problems.append(f"homes.{key}.stronghold: the stronghold must be one of its originals")
        out[str(key)] = Home(str(key), stronghold, originals)
    return out


KIND = register(MapKind("territories", "territories", map_from_dict))
