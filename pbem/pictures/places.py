"""`PlaceMap` views of the three map kinds, for maps that do not implement the protocol
themselves. Each is a thin read-only wrapper; `place_map` returns a map that already is a
`PlaceMap` unchanged, so the wrappers step aside as the map classes grow the protocol."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.kit.hexes import HexMap
from pbem.kit.maps import Edge, Geometry, PlaceMap, geometry_of, read_map_file
from pbem.kit.territories import GameMap, natural_key
from pbem.rulesets.diplomacy.board import Board

RULES_MAPS = Path(__file__).resolve().parents[2] / "rules" / "maps"


class _Wrapped:
    """What every wrapper shares: ids in natural order, names, adjacency from `neighbours`."""

    name: str

    def __init__(self, name: str, geometry: Geometry) -> None:
        self.name = name
        self._geometry = geometry

    def places(self) -> Sequence[str]:
        raise NotImplementedError

    def neighbours(self, place: str) -> frozenset[str]:
        raise NotImplementedError

    def name_of(self, place: str) -> str:
        raise NotImplementedError

    def label(self, place: str) -> str:
        name = self.name_of(place)
        return place if name == place else f"{place} {name}"

    def adjacent(self, a: str, b: str) -> bool:
        return b in self.neighbours(a)

    def edges(self) -> Iterable[Edge]:
        order = {p: i for i, p in enumerate(self.places())}
        for a in self.places():
            for b in sorted(self.neighbours(a), key=order.__getitem__):
                if order[a] < order[b]:
                    yield Edge(a, b, self.edge_kinds(a, b))

    def edge_kinds(self, a: str, b: str) -> frozenset[str]:
        return frozenset()

    def geometry(self) -> Geometry:
        return self._geometry


class TerritoryPlaces(_Wrapped):
    """A territory map (Daemon Rift): strongholds and realms from its homes, rivers and roads on borders."""

    def __init__(self, gmap: GameMap, geometry: Geometry) -> None:
        super().__init__(gmap.name, geometry)
        self.map = gmap
        self._strongholds = {h.stronghold for h in gmap.homes.values()}
        self._homes = {t for h in gmap.homes.values() for t in h.originals}

    def places(self) -> Sequence[str]:
        return sorted(self.map.territories, key=natural_key)

    def lookup(self, text: str) -> str:
        return self.map.lookup(text)

    def name_of(self, place: str) -> str:
        return self.map.name_of(place)

    def neighbours(self, place: str) -> frozenset[str]:
        return self.map.neighbours(place)

    def terrain(self, place: str) -> str:
        return self.map.terrain(place)

    def features(self, place: str) -> frozenset[str]:
        marks = {"stronghold"} if place in self._strongholds else set()
        marks |= {"home"} if place in self._homes else set()
        marks |= {"special"} if place in self.map.special else set()
        marks |= {"objective"} if place == self.map.objective else set()
        return frozenset(marks)

    def edge_kinds(self, a: str, b: str) -> frozenset[str]:
        border = self.map.border(a, b)
        flags = {"river": border.river, "bridge": border.bridge or (border.river and border.road), "road": border.road}
        return frozenset(k for k, on in flags.items() if on)


class HexPlaces(_Wrapped):
    """A hex map (Campaigns of Conquest): drawn from its tiles' axial coordinates."""

    def __init__(self, hmap: HexMap, geometry: Geometry | None = None) -> None:
        placed = {t.id: (t.q, t.r) for t in hmap.tiles.values() if t.placed}
        super().__init__(hmap.name, geometry or Geometry(hexes=placed))
        self.map = hmap

    def places(self) -> Sequence[str]:
        return sorted(self.map.tiles, key=natural_key)

    def lookup(self, text: str) -> str:
        return self.map.lookup(text)

    def name_of(self, place: str) -> str:
        return self.map.name_of(place)

    def neighbours(self, place: str) -> frozenset[str]:
        return self.map.neighbours(place)

    def terrain(self, place: str) -> str:
        return self.map.tiles[place].terrain

    def features(self, place: str) -> frozenset[str]:
        tile = self.map.tiles[place]
        marks = {tile.building} if tile.building else set()
        marks |= {"objective", tile.objective} if tile.objective else set()
        marks |= {"sea"} if tile.has("sea") else set()
        return frozenset(marks)


class BoardPlaces(_Wrapped):
    """The Diplomacy board: provinces, supply centres and home centres; sea provinces are sea."""

    def __init__(self, board: Board, geometry: Geometry) -> None:
        super().__init__(board.name, geometry)
        self.board = board
        self._homes = {p for power in board.powers.values() for p in power.home}
        self._near = {p: board.army_adj.get(p, frozenset()) | self._fleet_near(p) for p in board.provinces}

    def _fleet_near(self, prov: str) -> frozenset[str]:
        return frozenset(t for loc in (prov, *self.board.locations(prov)) for t in self.board.fleet_reach.get(loc, ()))

    def places(self) -> Sequence[str]:
        return sorted(self.board.provinces)

    def lookup(self, text: str) -> str:
        return self.board.province(text)

    def name_of(self, place: str) -> str:
        return self.board.provinces[place].name

    def neighbours(self, place: str) -> frozenset[str]:
        return self._near[place]

    def terrain(self, place: str) -> str:
        return self.board.provinces[place].kind

    def features(self, place: str) -> frozenset[str]:
        prov = self.board.provinces[place]
        marks = {"supply_centre"} if prov.supply else set()
        marks |= {"home"} if place in self._homes else set()
        marks |= {"sea"} if prov.kind == "sea" else set()
        return frozenset(marks)

    def edge_kinds(self, a: str, b: str) -> frozenset[str]:
        army = b in self.board.army_adj.get(a, frozenset())
        return frozenset({"army"} if army else {"fleet"})


def map_file(name: str) -> Path:
    """A map named in campaign.toml: a path to a .toml file, or a map in rules/maps/."""
    return Path(name) if name.endswith(".toml") else RULES_MAPS / f"{name}.toml"


def file_geometry(name: str) -> Geometry:
    """The `[geometry]` a map file carries (empty when it has none or cannot be read)."""
    try:
        data: Mapping[str, Any] = read_map_file(map_file(name))
    except ValueError:
        return Geometry()
    return geometry_of(data)


def place_map(gmap: object, map_name: str = "") -> PlaceMap:
    """`gmap` as a `PlaceMap`: every map kind of pbem is one (with the geometry its file carries);
    a rule system's own map object that is not gets the nearest adapter here."""
    if isinstance(gmap, PlaceMap):
        return gmap
    raise TypeError(f"no map picture for a {type(gmap).__name__}: it does not implement pbem.kit.maps.PlaceMap")
