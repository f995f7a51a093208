"""What a map's picture draws the same at every stage (where each place lies, the borders, the
areas' outlines), worked out once per process and map, and kept by the map's content.

Finding the borders two areas share is most of a picture's cost, and a map does not change
between turns, nor between the campaigns of one tick that play on it. The key is a digest of
everything of the map those layers read: the kind of map, its places in order, its geometry,
its borders with their kinds and each place's neighbours (every kind of map answers
`adjacent(a, b)` as `b in neighbours(a)`). A map rebuilt from the same file meets its layers
again; a map whose file changed, or another map of the same name, gets its own. The picture
itself is the same either way: kept layers are the ones drawing them again would make.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from pbem.kit.maps import PlaceMap

KEPT = 16
"""Maps (at a width) kept; a host's campaigns use a handful of maps."""

T = TypeVar("T")
_kept: OrderedDict[bytes, object] = OrderedDict()


def kept(places: PlaceMap, width: int, make: Callable[[], T]) -> T:
    """What `make()` gives for this map at this width, made once while the map is kept."""
    key = digest(places, width)
    found = _kept.pop(key, None)
    if found is None:
        found = make()
    _kept[key] = found                          # the most recently used last
    while len(_kept) > KEPT:
        _kept.popitem(last=False)
    return found  # type: ignore[return-value]  # each key was made by a `make` of the same type


def forget() -> None:
    """Drop every kept map (a process that wants the memory back; tests that draw from nothing)."""
    _kept.clear()


def digest(places: PlaceMap, width: int) -> bytes:
    """The map's content as the layers read it, at `width` pixels."""
    geometry = places.geometry()
    ids = list(places.places())
    content = (
        type(places).__module__, type(places).__qualname__, width, ids,
        sorted(geometry.hexes.items()),
        sorted((p, [tuple(c) for c in corners]) for p, corners in geometry.polygons.items()),
        sorted(geometry.points.items()),
        [(e.a, e.b, sorted(e.kinds)) for e in places.edges()],
        [sorted(places.neighbours(p)) for p in ids],
    )
    return hashlib.sha256(repr(content).encode("utf-8")).digest()
