"""The Star Wars Miniatures region map: territories with income, a stacking limit of 1 or 2,
capitals, fortifications and minefields, grouped into start regions (SWM-GEN-1, SWM-SET-6).

A map is TOML a game master can edit (the catalog's schema; `[[region]]` and `[[territory]]`
are singular so the file is told apart from the kit's `[territories]` maps):

    name = "Ten Factions"
    [[region]]
    id = "R1"
    name = "Core Worlds"
    capital = "T01"
    [[territory]]
    id = "T01"
    name = "Coruscant"
    region = "R1"
    income = 60
    stacking = 2             # 1 or 2; capitals should be 2 (SWM-STK-1)
    capital = true           # capitals start fortified (SWM-SET-11)
    minefield = false
    mapboards = ["Cantina"]  # boards a battle here may use (SWM-BAT-11)
    scenario = ""            # "" = the default meeting engagement (SWM-BAT-10)
    grants = ""              # a special territory's advantage key (SWM-ADV-17)
    owner_of_start = ""      # only for setup.start_location_unit = "territory" (A7): the capital
                             # whose player holds it from setup; none = inactive
    adjacent = ["T02"]       # symmetric; checked
    [geometry]               # optional: centre points, outlines or hexes for the picture
    points = { T01 = [100, 80] }     # or hexes = { T01 = [0, 0] } (axial q, r)

Every problem of a file comes back at once (`MapError`); `warnings` keeps what the loader
only warns about (income 0, a capital with limit 1).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.kit.maps import Edge, Geometry, MapError, MapKind, geometry_of, load, register
from pbem.kit.places import PlaceIndex

GRANTABLE = ("intelligence_officer", "logistics_officer", "training_officer", "medical_officer")
DEFAULT_SCENARIO = "meeting_engagement"


@dataclass(frozen=True)
class Territory:
    id: str
    name: str
    region: str
    income: int
    stacking: int
    capital: bool = False
    minefield: bool = False
    mapboards: tuple[str, ...] = ()
    scenario: str = ""
    grants: str = ""
    aliases: tuple[str, ...] = ()
    owner_of_start: str = ""


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    capital: str
    territories: tuple[str, ...]


@dataclass
class RegionMap(PlaceIndex):
    name: str
    territories: dict[str, Territory]
    regions: dict[str, Region]
    links: dict[str, frozenset[str]]
    drawing: Geometry = field(default_factory=Geometry, repr=False, compare=False)
    warnings: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self._index(self.territories.values(), "territory")

    # -- the PlaceMap protocol ------------------------------------------------------------
    def neighbours(self, place: str) -> frozenset[str]:
        return self.links[place]

    def adjacent(self, a: str, b: str) -> bool:
        """SWM-GEN-1: the map's relation; never a territory with itself."""
        return a != b and b in self.links.get(a, ())

    def terrain(self, place: str) -> str:
        return "clear"          # SWM has no terrain on the campaign map; pictures need a word

    def features(self, place: str) -> frozenset[str]:
        t = self.territories[place]
        marks = {"capital"} if t.capital else set()
        if t.minefield:
            marks.add("mine")
        if t.grants:
            marks.add("special")
        return frozenset(marks)

    def edges(self) -> Iterator[Edge]:
        for a in self.places():
            for b in sorted(self.links[a]):
                if self.order(a) < self.order(b):
                    yield Edge(a, b)

    def geometry(self) -> Geometry:
        return self.drawing

    # -- queries ------------------------------------------------------------------------
    def region_of(self, place: str) -> str:
        return self.territories[place].region

    def capitals(self) -> list[str]:
        return [t for t in self.places() if self.territories[t].capital]

    def regions_adjacent(self, a: str, b: str) -> bool:
        """SWM-SET-5: two regions touch when any territory of one borders any of the other."""
        return any(self.links[t] & set(self.regions[b].territories) for t in self.regions[a].territories)


def load_map(path: Path | str) -> RegionMap:
    """A region map by name (rules/maps/) or path; raises MapError listing every problem."""
    found = load(path, KIND.name)
    assert isinstance(found, RegionMap)
    return found


def map_from_dict(data: Mapping[str, Any], source: str = "map") -> RegionMap:
    problems: list[str] = []
    warnings: list[str] = []
    territories = _territories(data.get("territory"), problems, warnings)
    regions = _regions(data.get("region"), territories, problems)
    links = _links(data.get("territory"), territories, problems)
    if not problems:
        problems += _unconnected(links) + _start_owners(territories)
    if problems:
        raise MapError(source, problems)
    return RegionMap(str(data.get("name", source)), territories, regions, links, _drawing(data), tuple(warnings))


def _drawing(data: Mapping[str, Any]) -> Geometry:
    """`[geometry]`: centre points or outlines (the kit reads them), or hexes = { T01 = [q, r] }
    for a map laid on a hex grid (the ready-made one), whose bordering hexes are its neighbours."""
    raw = data.get("geometry")
    hexes = raw.get("hexes") if isinstance(raw, Mapping) else None
    if not isinstance(hexes, Mapping):
        return geometry_of(data)
    cells = {str(k): (int(v[0]), int(v[1])) for k, v in hexes.items()
             if isinstance(v, list) and len(v) == 2 and all(isinstance(c, int) for c in v)}
    return Geometry(hexes=cells)


def _rows(raw: Any, what: str, problems: list[str]) -> list[Mapping[str, Any]]:
    if not isinstance(raw, list) or not raw:
        problems.append(f"{what}: missing; write [[{what}]] tables (see docs/positions/star_wars_miniatures.md)")
        return []
    return [r if isinstance(r, Mapping) else {} for r in raw]


def _territories(raw: Any, problems: list[str], warnings: list[str]) -> dict[str, Territory]:
    out: dict[str, Territory] = {}
    for n, row in enumerate(_rows(raw, "territory", problems)):
        ident = str(row.get("id", ""))
        where = f"territory.{ident or n}"
        if not ident or ident in out:
            problems.append(f"{where}.id: {'missing' if not ident else 'used twice'}")
            continue
        found = _territory(ident, row, where, problems, warnings)
        if found is not None:
            out[ident] = found
    return out


def _territory(ident: str, row: Mapping[str, Any], where: str, problems: list[str],
               warnings: list[str]) -> Territory | None:
    income, stacking = row.get("income"), row.get("stacking")
    bad = len(problems)
    if isinstance(income, bool) or not isinstance(income, int) or income < 0:
        problems.append(f"{where}.income: {income!r} is not a whole number of economic points (SWM-ECO-1)")
    if stacking not in (1, 2) or isinstance(stacking, bool):
        problems.append(f"{where}.stacking: {stacking!r}; the stacking limit is 1 or 2 (SWM-STK-1)")
    grants = str(row.get("grants", ""))
    if grants and grants not in GRANTABLE:
        problems.append(f"{where}.grants: {grants!r} is not one of {', '.join(GRANTABLE)}")
    if len(problems) > bad:
        return None
    capital = bool(row.get("capital", False))
    if income == 0:
        warnings.append(f"{where}.income is 0 (A36: the map should give every territory an income)")
    if capital and stacking != 2:
        warnings.append(f"{where}: a capital should have stacking limit 2 (SWM-STK-1)")
    return Territory(ident, str(row.get("name", ident)), str(row.get("region", "")), int(income or 0),
                     int(stacking or 1), capital, bool(row.get("minefield", False)),
                     tuple(str(b) for b in row.get("mapboards", ())), str(row.get("scenario", "")), grants,
                     tuple(str(a) for a in row.get("aliases", ())), str(row.get("owner_of_start", "")))


def _regions(raw: Any, territories: Mapping[str, Territory], problems: list[str]) -> dict[str, Region]:
    out: dict[str, Region] = {}
    for n, row in enumerate(_rows(raw, "region", problems)):
        ident = str(row.get("id", ""))
        members = tuple(t for t, spec in territories.items() if spec.region == ident)
        capitals = [t for t in members if territories[t].capital]
        if not ident or ident in out:
            problems.append(f"region.{ident or n}.id: {'missing' if not ident else 'used twice'}")
        elif row.get("capital") not in capitals or len(capitals) != 1:
            problems.append(f"region.{ident}.capital: a region has exactly one capital territory, "
                            f"marked capital = true in it (SWM-SET-6); found {', '.join(capitals) or 'none'}")
        else:
            out[ident] = Region(ident, str(row.get("name", ident)), str(row["capital"]), members)
    for t, spec in territories.items():
        if spec.region not in out and not any(p.startswith(f"region.{spec.region}.") for p in problems):
            problems.append(f"territory.{t}.region: {spec.region!r} is not a region of the map")
    return out


def _links(raw: Any, territories: Mapping[str, Territory], problems: list[str]) -> dict[str, frozenset[str]]:
    listed: dict[str, set[str]] = {t: set() for t in territories}
    rows = raw if isinstance(raw, list) else []
    declared = {str(r.get("id", "")) for r in rows if isinstance(r, Mapping)}   # refused ones too
    for row in rows:
        ident = str(row.get("id", "")) if isinstance(row, Mapping) else ""
        if ident not in territories:
            continue
        for other in map(str, row.get("adjacent", ())):
            if other == ident:
                problems.append(f"territory.{ident}.adjacent: a territory is never adjacent to itself (SWM-GEN-1)")
            elif other not in declared:
                problems.append(f"territory.{ident}.adjacent: {other!r} is not a territory")
            elif other in territories:
                listed[ident].add(other)
    for a, others in listed.items():
        for b in sorted(others):
            if a not in listed[b]:
                problems.append(f"territory.{b}.adjacent: {a} lists {b} as adjacent but {b} does not list {a}")
    return {t: frozenset(n) for t, n in listed.items()}


def _unconnected(links: Mapping[str, frozenset[str]]) -> list[str]:
    if not links:
        return []
    start = next(iter(links))
    seen, queue = {start}, deque([start])
    while queue:
        for nxt in links[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    cut = sorted(set(links) - seen)
    return [f"territory: {', '.join(cut)} cannot be reached from {start}; the map must be connected"] if cut else []


def _start_owners(territories: Mapping[str, Territory]) -> list[str]:
    """A7: `owner_of_start` names a capital territory of the map (its start location)."""
    return [f"territory.{t}.owner_of_start: {spec.owner_of_start!r} is not a capital territory of the map"
            for t, spec in territories.items() if spec.owner_of_start and not (
                spec.owner_of_start in territories and territories[spec.owner_of_start].capital)]


def names(territories: Sequence[str], places: RegionMap) -> str:
    return ", ".join(places.label(t) for t in territories)


KIND = register(MapKind("swm_regions", "region", map_from_dict))
