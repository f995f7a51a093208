"""The Diplomacy map: provinces, coasts, adjacency, supply centres, powers.

Maps are TOML data (`rules/maps/*.toml`). Loading builds every lookup table the
adjudicator needs once (adjacency sets, sea regions for convoys, the name index),
so adjudicating a phase never re-reads or re-derives the map.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from pbem.kit.maps import Edge, Geometry, MapKind, geometry_of, load, register
from pbem.kit.maps import MapError as MapError  # the one map error; the Diplomacy modules import it from here
from pbem.kit.orders import NameIndex

MAPS_DIR = Path(__file__).resolve().parents[3] / "rules" / "maps"
KINDS = ("land", "coast", "sea")
MEMO_LIMIT = 50_000

COAST_NAMES: dict[str, tuple[str, ...]] = {
    "NC": ("nc", "n", "north", "northcoast"),
    "SC": ("sc", "s", "south", "southcoast"),
    "EC": ("ec", "e", "east", "eastcoast"),
    "WC": ("wc", "w", "west", "westcoast"),
}


@dataclass(frozen=True)
class Province:
    id: str
    name: str
    kind: str
    supply: bool = False
    coasts: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()


@dataclass(frozen=True)
class Power:
    name: str
    adjective: str
    home: tuple[str, ...]
    units: tuple[str, ...]


_NO_SEAS: frozenset[str] = frozenset()


def province_of(loc: str) -> str:
    """`SPA/NC` -> `SPA`: a location names a province and maybe one of its coasts."""
    return loc if "/" not in loc else loc[: loc.index("/")]


@dataclass
class Board:
    """A map with its lookup tables; read-only once built, but for its memos of
    what players typed (see `memo`)."""

    name: str
    provinces: dict[str, Province]
    powers: dict[str, Power]
    army_adj: dict[str, frozenset[str]]
    fleet_adj: dict[str, frozenset[str]]
    drawing: Geometry = field(default_factory=Geometry, repr=False, compare=False)   # the file's [geometry]
    fleet_reach: dict[str, frozenset[str]] = field(init=False)
    location_ids: dict[str, str] = field(init=False)
    coast_seas: dict[str, frozenset[str]] = field(init=False)
    seas: frozenset[str] = field(init=False)
    sea_neighbours: dict[str, frozenset[str]] = field(init=False)
    _fleet_targets: dict[tuple[str, str], tuple[str, ...]] = field(init=False, repr=False, compare=False)
    power_names: NameIndex = field(init=False)
    # Memos of what players typed -> what it means (pure functions of the map).
    _memo: dict[str, dict[str, Any]] = field(init=False, repr=False, compare=False, default_factory=dict)
    _powers: dict[str, str] = field(init=False, repr=False, compare=False, default_factory=dict)
    _places: dict[str, str] = field(init=False, repr=False, compare=False, default_factory=dict)
    _power_spellings: dict[str, str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.fleet_reach = {
            loc: frozenset(province_of(t) for t in targets) for loc, targets in self.fleet_adj.items()
        }
        self.seas = frozenset(p for p, spec in self.provinces.items() if spec.kind == "sea")
        # Inland provinces share one empty set: each set is an object the collector
        # walks at every full collection, and most provinces of a large map are inland.
        self.coast_seas = {p: frozenset(self._seas_touching(p)) or _NO_SEAS for p in self.provinces}
        self.sea_neighbours = {s: self.coast_seas[s] for s in self.seas}
        self._fleet_targets = {}
        for src, targets in self.fleet_adj.items():
            for t in sorted(targets):
                key = (src, province_of(t))
                self._fleet_targets[key] = (*self._fleet_targets.get(key, ()), t)
        self.location_ids = {loc: loc for p in self.provinces for loc in {p, *self.locations(p)}}
        self.power_names = NameIndex(
            {p.name: (p.adjective,) for p in self.powers.values()}, what="power"
        )
        self._power_spellings = {
            spelling: p.name
            for p in self.powers.values()
            for word in (p.name, p.adjective)
            for spelling in (word, word.upper(), word.lower())
        }

    @cached_property
    def names(self) -> NameIndex:
        """Province names and aliases, for what players type that is not a province's id: built
        when first needed, since orders given by id never need it (on a large map it is more than a
        third of the map's memory)."""
        return NameIndex({p.id: (p.name, *p.aliases) for p in self.provinces.values()})

    def memo(self, table: str) -> dict[str, Any]:
        """A cache of readings of player text that depend only on the map (the
        order parser keeps one per phase); emptied when it grows past
        `MEMO_LIMIT` entries, so odd input cannot fill memory."""
        found = self._memo.get(table)
        if found is None or len(found) > MEMO_LIMIT:
            found = self._memo[table] = {}
        return found

    def forget_readings(self) -> None:
        """Empty every memo of player text (to time reading from cold)."""
        self._memo.clear()
        self._powers.clear()
        self._places.clear()

    def power(self, text: str) -> str:
        """The power a player's text names (name or adjective, any case); raises InvalidOrder."""
        found = self._powers.get(text) or self._power_spellings.get(text)
        if found is None:
            found = _remember(self._powers, text, self.power_names.lookup(text))
        return found

    def province(self, text: str) -> str:
        """The province id a player's text names; raises InvalidOrder / AmbiguousOrder."""
        found = self._places.get(text)
        if found is None:
            found = _remember(self._places, text, self.names.lookup(text))
        return found

    @property
    def supply_centres(self) -> list[str]:
        return [p.id for p in self.provinces.values() if p.supply]

    def is_sea(self, prov: str) -> bool:
        return prov in self.seas

    def locations(self, prov: str) -> list[str]:
        """Where a fleet can stand in `prov`: the province, or each of its coasts."""
        p = self.provinces[prov]
        return [f"{prov}/{c}" for c in p.coasts] if p.coasts else [prov]

    def army_seas(self, prov: str) -> frozenset[str]:
        """Sea provinces touching a coastal province (where convoys start and end)."""
        return self.coast_seas[prov]

    def _seas_touching(self, prov: str) -> set[str]:
        return {
            province_of(t)
            for loc in self.locations(prov)
            for t in self.fleet_adj.get(loc, ())
            if self.is_sea(province_of(t))
        }

    def can_move(self, kind: str, src: str, dst: str) -> bool:
        """Whether a unit of `kind` at location `src` may move directly to location `dst`."""
        if kind == "A":
            return dst in self.army_adj.get(src, ())
        return dst in self.fleet_adj.get(src, ())

    def can_reach(self, kind: str, src: str, prov: str) -> bool:
        """Whether a unit could move into province `prov` by any coast (the test for support)."""
        if kind == "A":
            return prov in self.army_adj.get(src, ())
        return prov in self.fleet_reach.get(src, ())

    def fleet_targets(self, src: str, prov: str) -> tuple[str, ...]:
        """Locations of `prov` a fleet at `src` can move to."""
        return self._fleet_targets.get((src, prov), ())

    def sea_routes(self, fleet_seas: Iterable[str]) -> SeaRoutes:
        """Which convoys the fleets now at sea could make (DATC 4.E.1: orders
        impossible in the current position are illegal)."""
        return SeaRoutes(self, fleet_seas)

    # -- the PlaceMap protocol (pbem.kit.maps) -------------------------------------------
    def places(self) -> list[str]:
        """Every province, in the map file's order."""
        return list(self.provinces)

    def lookup(self, text: str) -> str:
        """The province an id, name or alias means; raises InvalidOrder / AmbiguousOrder."""
        return self.province(text)

    def name_of(self, place: str) -> str:
        return self.provinces[place].name

    def label(self, place: str) -> str:
        """`SPA (Spain)`."""
        name = self.name_of(place)
        return place if name == place else f"{place} ({name})"

    def neighbours(self, place: str) -> frozenset[str]:
        """The provinces an army or a fleet (from any of its coasts) can move to from `place`."""
        return self._crossings[place][0] | self._crossings[place][1]

    def adjacent(self, a: str, b: str) -> bool:
        return a in self.provinces and b in self.neighbours(a)

    def terrain(self, place: str) -> str:
        """"land", "coast" or "sea"."""
        return self.provinces[place].kind

    def features(self, place: str) -> frozenset[str]:
        """"supply_centre", "home" (a power's home centre), "sea"."""
        spec = self.provinces[place]
        homes = any(place in power.home for power in self.powers.values())
        marks = {"supply_centre": spec.supply, "home": homes, "sea": spec.kind == "sea"}
        return frozenset(mark for mark, there in marks.items() if there)

    def edges(self) -> Iterator[Edge]:
        """Each border once, marked with who crosses it: "army", "fleet" or both."""
        order = {p: n for n, p in enumerate(self.provinces)}
        for a, (army, fleet) in self._crossings.items():
            for b in sorted(army | fleet, key=order.__getitem__):
                if order[a] < order[b]:
                    kinds = {"army"} if b in army else set()
                    yield Edge(a, b, frozenset(kinds | ({"fleet"} if b in fleet else set())))

    def geometry(self) -> Geometry:
        """The centre points or outlines the board file carries (`[geometry]`); without them
        pictures lay the board out from its borders."""
        return self.drawing

    @cached_property
    def _crossings(self) -> dict[str, tuple[frozenset[str], frozenset[str]]]:
        """Province -> (provinces an army reaches, provinces a fleet reaches from any coast)."""
        return {p: (self.army_adj.get(p, frozenset()),
                    frozenset().union(*(self.fleet_reach.get(loc, frozenset()) for loc in self.locations(p))))
                for p in self.provinces}


def _remember(memo: dict[str, str], key: str, value: str) -> str:
    if len(memo) >= MEMO_LIMIT:
        memo.clear()
    memo[key] = value
    return value


class SeaRoutes:
    """Groups of adjacent seas holding fleets: an army can only be convoyed
    between two coasts that touch one group, through a fleet of that group.
    `fleet_seas` is read when first needed, and the groups are found only for
    routes longer than one fleet: most phases need neither."""

    def __init__(self, board: Board, fleet_seas: Iterable[str]) -> None:
        self.board = board
        self._given = fleet_seas
        self._seas: set[str] | None = None
        self._group: dict[str, int] | None = None
        self._touching: dict[str, set[int]] = {}

    @property
    def fleet_seas(self) -> set[str]:
        if self._seas is None:
            self._seas = set(self._given)
        return self._seas

    @property
    def group(self) -> dict[str, int]:
        """Sea province -> number of its group of fleet-holding seas."""
        if self._group is None:
            self._group = self._flood(self.fleet_seas)
        return self._group

    def _flood(self, seas: set[str]) -> dict[str, int]:
        group: dict[str, int] = {}
        for number, start in enumerate(seas):
            if start in group:
                continue
            stack, group[start] = [start], number
            while stack:
                for p in self.board.sea_neighbours[stack.pop()]:
                    if p in seas and p not in group:
                        group[p] = number
                        stack.append(p)
        return group

    def touching(self, prov: str) -> set[int]:
        found = self._touching.get(prov)
        if found is None:
            group = self.group
            found = {group[s] for s in self.board.army_seas(prov) if s in group}
            self._touching[prov] = found
        return found

    def possible(self, src: str, dst: str, via: str | None = None) -> bool:
        """Whether fleets at sea link coastal provinces `src` and `dst`; with `via`,
        whether that fleet is needed on some route (DATC 6.G.19: a fleet that only
        lengthens a route cannot convoy, and so cannot show intent)."""
        coastal = self.board.provinces
        if src == dst or coastal[src].kind != "coast" or coastal[dst].kind != "coast":
            return False
        shared = self.board.coast_seas[src] & self.board.coast_seas[dst]
        if via is None:
            # A fleet in a sea touching both coasts is a route by itself.
            return not self.fleet_seas.isdisjoint(shared) or bool(self.touching(src) & self.touching(dst))
        if via in shared:
            return via in self.fleet_seas
        return via in self.group and self._leg(src, via, dst) and self._leg(dst, via, src)

    def _leg(self, start: str, via: str, other: str) -> bool:
        """A chain of fleets from `start` to `via` none of which (but `via`) touches `other`."""
        reach, group = self.board.fleet_reach, self.group
        frontier = [s for s in self.board.army_seas(start) if s in group]
        seen = set(frontier)
        while frontier:
            sea = frontier.pop()
            if sea == via:
                return True
            if other in reach[sea]:
                continue
            for nxt in self.board.sea_neighbours[sea]:
                if nxt in group and nxt not in seen:
                    seen.add(nxt)
                    frontier.append(nxt)
        return False


def load_board(path: Path | str) -> Board:
    """Read and check a map file; raises MapError listing every problem found."""
    board = load(Path(path), "diplomacy")
    assert isinstance(board, Board)
    return board


def board_from_data(data: Mapping[str, Any], where: str = "map") -> Board:
    """Build a board from map data (as read from TOML), checking it all in one pass."""
    errors: list[str] = []
    provinces = {pid: _province(pid, spec, errors) for pid, spec in data.get("provinces", {}).items()}
    # Each neighbour as the very string that is the province's key: a lookup then finds it by
    # identity, without reading a second copy (a map file repeats every id in its neighbours' lists).
    same = {pid: pid for pid in provinces}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    for pid, spec in data.get("provinces", {}).items():
        army[pid] = frozenset(same.get(t, t) for t in spec.get("army", ()))
        if spec.get("coasts"):
            for coast, targets in spec["coasts"].items():
                fleet[f"{pid}/{coast}"] = frozenset(targets)
        elif spec.get("fleet"):
            fleet[pid] = frozenset(spec["fleet"])
    _check_edges(army, "army", set(provinces), errors)
    _check_edges(fleet, "fleet", set(fleet), errors)
    powers = {name: _power(name, spec, provinces, errors) for name, spec in data.get("powers", {}).items()}
    if errors:
        raise MapError(where, errors)
    return Board(str(data.get("name", where)), provinces, powers, army, fleet, geometry_of(data))


def _province(pid: str, spec: Mapping[str, Any], errors: list[str]) -> Province:
    kind = spec.get("type", "")
    if kind not in KINDS:
        errors.append(f"provinces.{pid}.type must be one of {', '.join(KINDS)}")
    coasts = tuple(spec.get("coasts", {}))
    for c in coasts:
        if c not in COAST_NAMES:
            errors.append(f"provinces.{pid}.coasts: unknown coast {c!r}")
    return Province(
        pid, str(spec.get("name", pid)), kind, bool(spec.get("supply", False)), coasts,
        tuple(spec.get("aliases", ())),
    )


def _check_edges(adj: Mapping[str, Iterable[str]], what: str, known: set[str], errors: list[str]) -> None:
    for src, targets in adj.items():
        key = _edge_key(src, what)
        for dst in sorted(targets):
            if dst not in known:
                errors.append(f"{key}: {what} adjacency to unknown {dst!r}")
            elif src not in adj.get(dst, ()):
                errors.append(f"{key}: {what} adjacency {src} -> {dst} is not listed back")


def _edge_key(src: str, what: str) -> str:
    """Where in the file a location's adjacency list is: `provinces.SPA.coasts.NC`, `provinces.PAR.army`."""
    province, _, coast = src.partition("/")
    return f"provinces.{province}.coasts.{coast}" if coast else f"provinces.{province}.{what}"


def _power(name: str, spec: Mapping[str, Any], provinces: Mapping[str, Province], errors: list[str]) -> Power:
    home = tuple(spec.get("home", ()))
    for h in home:
        if h not in provinces or not provinces[h].supply:
            errors.append(f"powers.{name}.home: {h!r} is not a supply centre")
    return Power(name, str(spec.get("adjective", name)), home, tuple(spec.get("units", ())))


@lru_cache(maxsize=8)
def standard_board(variant: str = "standard") -> Board:
    """A bundled map by name, loaded once per process."""
    path = MAPS_DIR / f"{variant}.toml"
    if not path.is_file():
        raise MapError(str(path), [f"unknown variant {variant!r}; no such map file"])
    return load_board(path)


KIND = register(MapKind("diplomacy", "provinces", board_from_data))
