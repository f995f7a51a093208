"""Moved to `pbem.kit.hexes`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.hexes import (
    AXIAL_STEPS,
    NO_COORD,
    HexMap,
    HexTile,
    hexmap_from_dict,
    load_hexmap,
)
from pbem.kit.maps import (
    MapError,
)

__all__ = [
    "AXIAL_STEPS", "NO_COORD", "HexMap", "HexTile", "MapError", "hexmap_from_dict", "load_hexmap",
]
