"""The Diplomacy map: provinces, coasts, adjacency, supply centres, powers.

Maps are TOML data (`rules/maps/*.toml`). Loading builds every lookup table the
adjudicator needs once (adjacency sets, sea regions for convoys, the name index),
so adjudicating a phase never re-reads or re-derives the map.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.errors import UserError
from pbem.orders import NameIndex

MAPS_DIR = Path(__file__).resolve().parents[3] / "rules" / "maps"
KINDS = ("land", "coast", "sea")

COAST_NAMES: dict[str, tuple[str, ...]] = {
    "NC": ("nc", "n", "north", "northcoast"),
    "SC": ("sc", "s", "south", "southcoast"),
    "EC": ("ec", "e", "east", "eastcoast"),
    "WC": ("wc", "w", "west", "westcoast"),
}


class MapError(UserError):
    """A map file that does not describe a consistent board; lists every problem."""


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


def province_of(loc: str) -> str:
    """`SPA/NC` -> `SPA`: a location names a province and maybe one of its coasts."""
    return loc.split("/", 1)[0]


@dataclass
class Board:
    """A map with its lookup tables; read-only once built."""

    name: str
    provinces: dict[str, Province]
    powers: dict[str, Power]
    army_adj: dict[str, frozenset[str]]
    fleet_adj: dict[str, frozenset[str]]
    fleet_reach: dict[str, frozenset[str]] = field(init=False)
    sea_region: dict[str, int] = field(init=False)
    coast_regions: dict[str, frozenset[int]] = field(init=False)
    names: NameIndex = field(init=False)
    power_names: NameIndex = field(init=False)

    def __post_init__(self) -> None:
        self.fleet_reach = {
            loc: frozenset(province_of(t) for t in targets) for loc, targets in self.fleet_adj.items()
        }
        self.sea_region = _sea_regions(self)
        self.coast_regions = {
            p: frozenset(self.sea_region[s] for s in self.army_seas(p))
            for p, prov in self.provinces.items()
            if prov.kind == "coast"
        }
        self.names = NameIndex({p.id: (p.name, *p.aliases) for p in self.provinces.values()})
        self.power_names = NameIndex(
            {p.name: (p.adjective,) for p in self.powers.values()}, what="power"
        )

    @property
    def supply_centres(self) -> list[str]:
        return [p.id for p in self.provinces.values() if p.supply]

    def is_sea(self, prov: str) -> bool:
        return self.provinces[prov].kind == "sea"

    def locations(self, prov: str) -> list[str]:
        """Where a fleet can stand in `prov`: the province, or each of its coasts."""
        p = self.provinces[prov]
        return [f"{prov}/{c}" for c in p.coasts] if p.coasts else [prov]

    def army_seas(self, prov: str) -> set[str]:
        """Sea provinces touching a coastal province (where convoys start and end)."""
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

    def fleet_targets(self, src: str, prov: str) -> list[str]:
        """Locations of `prov` a fleet at `src` can move to."""
        return [t for t in self.fleet_adj.get(src, ()) if province_of(t) == prov]

    def convoy_possible(self, src: str, dst: str, via: str | None = None) -> bool:
        """Whether some chain of seas (through `via`, if given) links two coastal provinces."""
        if src == dst or src not in self.coast_regions or dst not in self.coast_regions:
            return False
        common = self.coast_regions[src] & self.coast_regions[dst]
        if via is None:
            return bool(common)
        return self.is_sea(via) and self.sea_region.get(via) in common


def _sea_regions(board: Board) -> dict[str, int]:
    """Number the connected groups of sea provinces: a convoy never leaves its group."""
    region: dict[str, int] = {}
    for start, prov in board.provinces.items():
        if prov.kind != "sea" or start in region:
            continue
        stack, region[start] = [start], len(region)
        number = region[start]
        while stack:
            for t in board.fleet_adj.get(stack.pop(), ()):
                p = province_of(t)
                if board.is_sea(p) and p not in region:
                    region[p] = number
                    stack.append(p)
    return region


def load_board(path: Path | str) -> Board:
    """Read and check a map file; raises MapError listing every problem found."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(f"{path}: {exc}") from exc
    return board_from_data(data, str(path))


def board_from_data(data: Mapping[str, Any], where: str = "map") -> Board:
    """Build a board from map data (as read from TOML), checking it all in one pass."""
    errors: list[str] = []
    provinces = {pid: _province(pid, spec, errors) for pid, spec in data.get("provinces", {}).items()}
    army: dict[str, frozenset[str]] = {}
    fleet: dict[str, frozenset[str]] = {}
    for pid, spec in data.get("provinces", {}).items():
        army[pid] = frozenset(spec.get("army", ()))
        if spec.get("coasts"):
            for coast, targets in spec["coasts"].items():
                fleet[f"{pid}/{coast}"] = frozenset(targets)
        elif spec.get("fleet"):
            fleet[pid] = frozenset(spec["fleet"])
    _check_edges(army, "army", set(provinces), errors)
    _check_edges(fleet, "fleet", set(fleet), errors)
    powers = {name: _power(name, spec, provinces, errors) for name, spec in data.get("powers", {}).items()}
    if errors:
        raise MapError(f"{where}: " + "; ".join(errors))
    return Board(str(data.get("name", where)), provinces, powers, army, fleet)


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
        for dst in targets:
            if dst not in known:
                errors.append(f"{src}: {what} adjacency to unknown {dst!r}")
            elif src not in adj.get(dst, ()):
                errors.append(f"{what} adjacency {src} -> {dst} is not listed back")


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
        raise MapError(f"unknown variant {variant!r} (no {path})")
    return load_board(path)
