"""What every kind of map offers about its places by id: natural id order, lookup of the names
players type, and labels. Territory maps and hex maps build it with `PlaceIndex._index`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

from pbem.kit.orders import NameIndex, OrderProblem


def natural_key(ident: str) -> tuple[Any, ...]:
    """Sort key so that T2 < T10 and X1 < X2."""
    return tuple(int(p) if p.isdigit() else p for p in re.split(r"(\d+)", ident))


class PlaceIndex:
    """Natural id order, lookup of typed names and labels: what every kind of map (territories
    in pbem.kit.territories, hex tiles in pbem.kit.hexes) offers about its places. `_index` builds it."""

    _order: dict[str, int]
    _names: NameIndex | None
    _titles: dict[str, str]

    def _index(self, places: Iterable[Any], what: str) -> None:
        """`places` have `id`, `name` and `aliases`."""
        places = list(places)
        self._titles = {p.id: p.name for p in places}
        self._order = {t: i for i, t in enumerate(sorted(self._titles, key=natural_key))}
        self._names = NameIndex({p.id: (p.name, *p.aliases) for p in places}, what=what)

    def places(self) -> list[str]:
        """Every place id in natural order."""
        return list(self._order)

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
