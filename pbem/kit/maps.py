"""One interface for every kind of campaign map: territory maps, hex maps, the Diplomacy board,
and the square-tile and region maps of later rule systems.

Rule systems keep their own map classes (they know their own terrain and rules); each
implements `PlaceMap`, which is all the map pictures and the generic tools read.

Every map file is read by `load`, by name (a ready-made map in rules/maps/) or by path. Each kind
of map registers how it is built (`register`) and the top-level table that marks its files
(`[territories]`, `[tiles]`, `[provinces]`); every problem of a file comes back at once in one
`MapError`, each problem led by its key.
"""

from __future__ import annotations

import importlib
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from pbem.errors import UserError

MAPS_DIR = Path(__file__).resolve().parents[2] / "rules" / "maps"

Point = tuple[float, float]


@dataclass(frozen=True)
class Edge:
    """A border between two places, with what runs along or across it."""

    a: str
    b: str
    kinds: frozenset[str] = frozenset()     # "river", "bridge", "road", "army", "fleet", "pass", ...


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
        """The place an id, name or alias means; raises an OrderProblem (InvalidOrder with a
        suggestion, or AmbiguousOrder) when none or several."""
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


class MapError(UserError):
    """A map that cannot be used: one line naming the file, then every problem found, each led
    by its key (`territories.T3.terrain: ...`)."""

    def __init__(self, source: str, problems: Sequence[str]) -> None:
        self.source = source
        self.problems = list(problems)
        super().__init__(f"{source}: " + "; ".join(self.problems))


@dataclass(frozen=True)
class MapKind:
    """How one kind of map file is built: `table` is the top-level table only its files have."""

    name: str
    table: str
    build: Callable[[Mapping[str, Any], str], PlaceMap]


_KINDS: dict[str, MapKind] = {}
BUILT_IN = ("pbem.kit.territories", "pbem.kit.hexes")
"""The kit's own kinds; rule systems with a map of their own register it when imported."""


def register(kind: MapKind) -> MapKind:
    _KINDS[kind.name] = kind
    return kind


def kinds() -> dict[str, MapKind]:
    """Every kind registered so far, the kit's own first."""
    for module in BUILT_IN:
        importlib.import_module(module)
    return dict(_KINDS)


def map_path(path_or_name: str | Path) -> Path:
    """A ready-made map by name (`rift_valley`), or a file by path (`maps/mine.toml`)."""
    if isinstance(path_or_name, Path) or path_or_name.endswith(".toml"):
        return Path(path_or_name)
    return MAPS_DIR / f"{path_or_name}.toml"


def ready_made() -> list[str]:
    return sorted(p.stem for p in MAPS_DIR.glob("*.toml"))


def ready_made_with(table: str) -> list[str]:
    """The ready-made maps of one kind: those whose file has the top-level table `table`
    (`territories`, `provinces`, `tiles`); a file that cannot be read is left out."""
    out = []
    for name in ready_made():
        try:
            data = tomllib.loads(map_path(name).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue
        if isinstance(data.get(table), dict):
            out.append(name)
    return out


def read_map_file(path: Path) -> dict[str, Any]:
    """A map's TOML; a missing or unreadable file is a MapError naming it."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        ready = ", ".join(ready_made())
        raise MapError(str(path), [f"no such map file; the ready-made maps are {ready}"]) from exc
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(path), [f"cannot be read: {exc}"]) from exc


def load(path_or_name: str | Path, kind: str = "") -> PlaceMap:
    """The map a name or path means, built by `kind` (by default, the kind whose table the file
    has); raises MapError listing every problem."""
    path = map_path(path_or_name)
    return build(read_map_file(path), str(path), kind, path.parent)


def build(data: Mapping[str, Any], source: str = "map", kind: str = "", folder: Path | None = None) -> PlaceMap:
    """A map from TOML data already read (tests, positions written inline); a drawing the
    geometry names (`svg`) is read from `folder` (by default the working directory)."""
    maker = _kind_of(data, source, kind)
    built = maker.build(data, source)
    drawing = _table(data.get("geometry")).get("svg")
    if drawing is None:
        return built
    return maker.build(_with_drawing(data, drawing, built.places(), source, folder or Path()), source)


def _with_drawing(data: Mapping[str, Any], drawing: object, places: Sequence[str], source: str,
                  folder: Path) -> dict[str, Any]:
    """`data` with the outlines of the drawing `geometry.svg` names among its polygons (the
    polygons the file writes itself win)."""
    from pbem.kit.drawing import DrawingError, outlines

    if not isinstance(drawing, str) or not drawing.endswith(".svg"):
        raise MapError(source, [f"geometry.svg: {drawing!r} is not the name of an .svg file; "
                                'write svg = "drawing.svg" with the file beside the map'])
    try:
        found = outlines(folder / drawing, places)
    except DrawingError as exc:
        raise MapError(source, [f"geometry.svg: {p}" for p in exc.problems]) from exc
    geometry = dict(_table(data.get("geometry")))
    drawn = {p: [list(c) for c in corners] for p, corners in found.items()}
    geometry["polygons"] = drawn | dict(_table(geometry.get("polygons")))
    return {**data, "geometry": geometry}


def _kind_of(data: Mapping[str, Any], source: str, wanted: str) -> MapKind:
    known = kinds()
    if (wanted not in known) if wanted else not _matching(known, data):
        known = _with_rule_systems(known)
    if wanted:
        if wanted not in known:
            raise MapError(source, [f"unknown kind of map {wanted!r}; known: {', '.join(sorted(known))}"])
        return known[wanted]
    found = _matching(known, data)
    if len(found) != 1:
        tables = ", ".join(f"[{k.table}] ({k.name})" for k in known.values())
        what = "more than one" if found else "none"
        raise MapError(source, [f"a map has exactly one of the tables {tables}; this one has {what}"])
    return found[0]


def _matching(known: Mapping[str, MapKind], data: Mapping[str, Any]) -> list[MapKind]:
    return [k for k in known.values() if k.table in data]


def _with_rule_systems(known: dict[str, MapKind]) -> dict[str, MapKind]:
    """The kinds of every installed rule system too (each registers its own when imported)."""
    from pbem.plugins import RULESETS  # the kit never imports a rule system: the registry loads them

    for name in RULESETS.entries():
        RULESETS.load(name)
    return dict(_KINDS) | known


def geometry_of(data: Mapping[str, object]) -> Geometry:
    """A map file's `[geometry]` table: `points = { T1 = [x, y] }` or `polygons = { T1 = [[x, y], ...] }`
    (or `T1 = "x,y x,y ..."`) in map units, y growing downwards (`build` has already turned a
    drawing, `svg = "file.svg"`, into polygons). Malformed entries are left out (the picture then falls back)."""
    raw = data.get("geometry")
    if not isinstance(raw, Mapping):
        return Geometry()
    points: dict[str, Point] = {}
    for key, value in _table(raw.get("points")).items():
        point = _point(value)
        if point is not None:
            points[str(key)] = point
    polygons: dict[str, list[Point]] = {}
    for key, value in _table(raw.get("polygons")).items():
        corners = _corners(value)
        if len(corners) >= 3 and all(c is not None for c in corners):
            polygons[str(key)] = [c for c in corners if c is not None]
    return Geometry(points=points, polygons=polygons)


def _corners(value: object) -> list[Point | None]:
    """A polygon written as a list of [x, y] or, as SVG writes points, "x,y x,y ..." (one TOML
    string reads many times faster than as many little arrays)."""
    if not isinstance(value, str):
        return [_point(p) for p in value] if isinstance(value, list) else []
    try:
        numbers = [float(n) for n in value.replace(",", " ").split()]
    except ValueError:
        return []
    return list(zip(numbers[::2], numbers[1::2], strict=True)) if len(numbers) % 2 == 0 else []


def _table(value: object) -> Mapping[str, object]:
    return value if isinstance(value, Mapping) else {}


def _point(value: object) -> Point | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int | float) for v in value):
        return (float(value[0]), float(value[1]))
    return None
