"""One interface for every kind of campaign map: territory maps, hex maps, the Diplomacy board,
and the square-tile and region maps of later rule systems.

Rule systems keep their own map classes (they know their own terrain and rules); each
implements `PlaceMap`, which is all the map pictures and the generic tools read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

Point = tuple[float, float]


@dataclass(frozen=True)
class Edge:
    """A border between two places, with what runs along or across it."""

    a: str
    b: str
    kinds: frozenset[str] = frozenset()     # "river", "bridge", "road", "sea", "coast", "pass", ...


@dataclass(frozen=True)
class Geometry:
    """Where places lie, when the map says so. At most one of the three is the map's own drawing:
    hex coordinates (axial q, r), polygons in map units, or centre points (a schematic)."""

    hexes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    polygons: Mapping[str, Sequence[Point]] = field(default_factory=dict)
    points: Mapping[str, Point] = field(default_factory=dict)

    @property
    def empty(self) -> bool:
        return not (self.hexes or self.polygons or self.points)


@runtime_checkable
class PlaceMap(Protocol):
    """A campaign map as places and the borders between them."""

    name: str

    def places(self) -> Sequence[str]:
        """Every place id, in the map's reading order."""
        ...

    def lookup(self, text: str) -> str:
        """The place an id, name or alias means; raises KeyError with a suggestion when none."""
        ...

    def name_of(self, place: str) -> str:
        ...

    def label(self, place: str) -> str:
        """Id and name as reports show them: "T27 Cinder Reach"."""
        ...

    def neighbours(self, place: str) -> frozenset[str]:
        ...

    def adjacent(self, a: str, b: str) -> bool:
        ...

    def terrain(self, place: str) -> str:
        ...

    def features(self, place: str) -> frozenset[str]:
        """What the map marks there: "stronghold", "capital", "settlement", "mine", "port",
        "objective", "supply_centre", "home", "sea", "tower", ..."""
        ...

    def edges(self) -> Iterable[Edge]:
        """Every border once."""
        ...

    def geometry(self) -> Geometry:
        """The map's own drawing, or an empty `Geometry` (pictures then lay it out from the borders)."""
        ...
