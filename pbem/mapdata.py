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

import re
import tomllib
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.orders import NameIndex, OrderProblem

TERRAINS = ("clear", "woods", "hills", "swamp", "mountain")


class MapError(ValueError):
    """A map file that cannot be used; lists every problem found."""

    def __init__(self, source: str, problems: list[str]) -> None:
        self.problems = problems
        super().__init__(f"{source}: " + "; ".join(problems))


def natural_key(ident: str) -> tuple[Any, ...]:
    """Sort key so that T2 < T10 and X1 < X2."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", ident))


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


class PlaceIndex:
    """Natural id order, lookup of typed names and labels: what every kind of map (territories
    here, hex tiles in pbem.hexmap) offers about its places. `_index` builds it."""

    _order: dict[str, int]
    _names: NameIndex | None
    _titles: dict[str, str]

    def _index(self, places: Iterable[Any], what: str) -> None:
        """`places` have `id`, `name` and `aliases`."""
        places = list(places)
        self._titles = {p.id: p.name for p in places}
        self._order = {t: i for i, t in enumerate(sorted(self._titles, key=natural_key))}
        self._names = NameIndex({p.id: (p.name, *p.aliases) for p in places}, what=what)

    def order(self, place: str) -> int:
        """Position in the natural id order, for deterministic tie-breaks."""
        return self._order[place]

    def sorted(self, places: Iterable[str]) -> list[str]:
        return sorted(places, key=self._order.__getitem__)

    def lookup(self, text: str) -> str:
        """Id for an id, name or alias typed by a player (raises OrderProblem)."""
        assert self._names is not None
        return self._names.lookup(text)

    def longest(self, words: Sequence[str], start: int = 0) -> tuple[str, int] | None:
        """The place the longest run of `words` from `start` names, and where it ends (NameIndex.longest)."""
        assert self._names is not None
        return self._names.longest(words, start)

    def unknown(self, words: Sequence[str], first: int, bad: int) -> OrderProblem:
        """The problem of a word that starts no place name, judged with its neighbours (NameIndex.unknown)."""
        assert self._names is not None
        return self._names.unknown(words, first, bad)

    def name_of(self, place: str) -> str:
        return self._titles[place]

    def label(self, place: str) -> str:
        """`T5 (Ashford)` or just `T5` when the name is the id."""
        name = self.name_of(place)
        return place if name == place else f"{place} ({name})"


@dataclass
class GameMap(PlaceIndex):
    name: str
    territories: dict[str, Territory]
    borders: dict[frozenset[str], Border]
    homes: dict[str, Home]
    special: tuple[str, ...] = ()
    objective: str = ""
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
def load_map(path: Path) -> GameMap:
    return map_from_dict(read_map_file(path), source=str(path))


def read_map_file(path: Path) -> dict[str, Any]:
    """A map's TOML; an unreadable file is a MapError naming it."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise MapError(str(path), [str(exc)]) from exc


def map_from_dict(data: Mapping[str, Any], source: str = "map") -> GameMap:
    problems: list[str] = []
    territories = _territories(data.get("territories", {}), problems)
    borders = _borders(data.get("borders", []), territories, problems)
    homes = _homes(data.get("homes", {}), territories, problems)
    special = tuple(data.get("special", ()))
    objective = str(data.get("objective", ""))
    for t in (*special, *([objective] if objective else [])):
        if t not in territories:
            problems.append(f"scoring territory {t!r} is not a territory")
    if problems:
        raise MapError(source, problems)
    return GameMap(str(data.get("name", source)), territories, borders, homes, special, objective)


def _territories(raw: Mapping[str, Any], problems: list[str]) -> dict[str, Territory]:
    out = {}
    for ident, spec in raw.items():
        terrain = spec.get("terrain", "clear")
        if terrain not in TERRAINS:
            problems.append(f"territory {ident}: terrain {terrain!r} is not one of {', '.join(TERRAINS)}")
        out[ident] = Territory(ident, spec.get("name", ident), terrain, tuple(spec.get("aliases", ())))
    if not out:
        problems.append("no [territories]")
    return out


def _borders(raw: list[Mapping[str, Any]], terr: Mapping[str, Territory], problems: list[str]) -> dict[frozenset[str], Border]:
    out: dict[frozenset[str], Border] = {}
    for spec in raw:
        pair = spec.get("between", [])
        if len(pair) != 2 or pair[0] == pair[1] or any(t not in terr for t in pair):
            problems.append(f"border {pair!r}: needs two different known territories")
            continue
        key = frozenset(pair)
        if key in out:
            problems.append(f"border {pair[0]}-{pair[1]} is listed twice")
        flags = {k: bool(spec.get(k, False)) for k in ("river", "bridge", "road")}
        out[key] = Border(pair[0], pair[1], **flags)
    return out


def _homes(raw: Mapping[str, Any], terr: Mapping[str, Territory], problems: list[str]) -> dict[str, Home]:
    out = {}
    for key, spec in raw.items():
        stronghold = spec.get("stronghold", "")
        originals = tuple(spec.get("originals", ()))
        if stronghold not in terr or any(t not in terr for t in originals):
            problems.append(f"home {key}: unknown territory")
        elif stronghold not in originals:
            problems.append(f"home {key}: the stronghold must be one of its originals")
        out[str(key)] = Home(str(key), stronghold, originals)
    return out
