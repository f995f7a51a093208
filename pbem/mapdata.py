"""Moved to `pbem.kit.territories`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.maps import (
    MapError,
    read_map_file,
)
from pbem.kit.places import (
    PlaceIndex,
    natural_key,
)
from pbem.kit.territories import (
    TERRAINS,
    Border,
    GameMap,
    Home,
    Territory,
    load_map,
    map_from_dict,
)

__all__ = [
    "TERRAINS", "Border", "GameMap", "Home", "MapError", "PlaceIndex", "Territory", "load_map", "map_from_dict",
    "natural_key", "read_map_file",
]
