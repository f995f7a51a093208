"""The Mighty Kingdoms map: a hex map whose tiles carry a terrain class, features and starting marks.

What the map must provide (the catalog's "What the map must provide"): hex tiles with stable
ids and edge adjacency (`pbem.kit.hexes`), starting tiles (`objective = "start"`), and per
tile the terrain class (the first terrain: `land`, `swamp`, `all_mountains` or `sea`, used by
the settlement cost table) and the features present (`forest`, `mountains`, `swamp`, used by
recruit loosening and shown in briefings). A swamp tile has the swamp feature and an
all-mountains tile the mountains feature without listing them again:

    T7 = { q = 1, r = 2, terrain = ["land", "forest"] }
    T8 = { q = 2, r = 2, terrain = "all_mountains" }
    T9 = { q = 0, r = 3, terrain = "land", objective = "start" }
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pbem.kit.hexes import HexMap, load_hexmap
from pbem.kit.maps import MapError
from pbem.kit.rulebook import RULES_DIR

CLASSES = ("land", "swamp", "all_mountains", "sea")
FEATURES = ("forest", "mountains", "swamp")
START = "start"
_CLASS_FEATURE = {"swamp": "swamp", "all_mountains": "mountains"}


def campaign_map(name: str) -> HexMap:
    """A ready-made map from rules/maps by name, or a map file by path, checked for Mighty Kingdoms."""
    return _campaign_map(name)


@lru_cache(maxsize=16)
def _campaign_map(name: str) -> HexMap:
    path = Path(name) if name.endswith(".toml") else RULES_DIR / "maps" / f"{name}.toml"
    gmap = load_hexmap(path)
    problems = check(gmap)
    if problems:
        raise MapError(str(path), problems)
    return gmap


def check(gmap: HexMap) -> list[str]:
    """Every way the map falls short of what the rules need, each naming its tile."""
    out = []
    for ident, tile in gmap.tiles.items():
        if tile.terrain not in CLASSES:
            out.append(f"tiles.{ident}.terrain: {tile.terrain!r} is not a terrain class; the first terrain is one "
                       f"of {', '.join(CLASSES)}")
        for extra in tile.terrains[1:]:
            if extra not in FEATURES:
                out.append(f"tiles.{ident}.terrain: unknown feature {extra!r}; features are {', '.join(FEATURES)}")
        if tile.objective not in ("", START):
            out.append(f"tiles.{ident}.objective: {tile.objective!r}; the only mark is \"start\" (a starting tile)")
    if not starting_tiles(gmap):
        out.append("tiles: no starting tile; mark at least one per player with objective = \"start\"")
    return out


def terrain_class(gmap: HexMap, tile: str) -> str:
    return gmap.tiles[tile].terrain


def features(gmap: HexMap, tile: str) -> frozenset[str]:
    """The features of a tile (MK-ARM-5/6), the terrain class's own included."""
    spot = gmap.tiles[tile]
    found = set(spot.terrains[1:])
    if spot.terrain in _CLASS_FEATURE:
        found.add(_CLASS_FEATURE[spot.terrain])
    return frozenset(found)


def starting_tiles(gmap: HexMap) -> list[str]:
    """The starting tiles in tile-id order (A32: they are numbered that way)."""
    return gmap.sorted(t for t, tile in gmap.tiles.items() if tile.objective == START)


def direction(gmap: HexMap, centre: str, heading: str) -> str:
    """The tile next to `centre` in a hex direction (NE, E, SE, SW, W, NW), or "" off the map."""
    steps = {"E": (1, 0), "NE": (1, -1), "NW": (0, -1), "W": (-1, 0), "SW": (-1, 1), "SE": (0, 1)}
    spot = gmap.tiles[centre]
    dq, dr = steps[heading]
    return next((t for t in gmap.neighbours(centre)
                 if gmap.tiles[t].q == spot.q + dq and gmap.tiles[t].r == spot.r + dr), "")
