"""The Campaigns of Conquest map: a hex map whose tiles carry conquest terrain and markers.

On top of `pbem.kit.hexes` this checks the conquest vocabulary (terrain types,
buildings, objectives, sea areas) and answers the terrain questions the rules
ask: is a tile a mountain (COC-SPD-6), may a building stand on it (COC-BLD),
which rate does a mine pay (COC-REV-2, -3, -10), and does the map have room
for the players (COC-SET-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from pbem.kit.hexes import HexMap, load_hexmap
from pbem.kit.rulebook import RULES_DIR, RuleBook
from pbem.kit.territories import MapError
from pbem.rulesets.conquest.model import BUILDINGS, OBJECTIVES
from pbem.rulesets.conquest.rules import load as load_rules

SEA = "sea"                     # the map format's sea terrain (`terrain.sea`, fixed)


def campaign_map(name: str, rules: RuleBook | None = None) -> HexMap:
    """A ready-made map from rules/maps by name, or a map file by path, checked against the
    land terrains of `terrain.types` (the shipped rules when `rules` is None)."""
    book = rules if rules is not None else load_rules()
    return _campaign_map(name, tuple(book["terrain.types"]))


@lru_cache(maxsize=16)
def _campaign_map(name: str, terrains: tuple[str, ...]) -> HexMap:
    path = Path(name) if name.endswith(".toml") else RULES_DIR / "maps" / f"{name}.toml"
    gmap = load_hexmap(path)
    problems = check(gmap, terrains)
    if problems:
        raise MapError(str(path), problems)
    return gmap


def check(gmap: HexMap, terrains: Sequence[str]) -> list[str]:
    """Every conquest-specific problem of a map (COC-SET-2, COC-SET-3, COC-BLD-1); `terrains` are the
    land terrains the rules know (`terrain.types`)."""
    problems = []
    known = (*terrains, SEA)
    for tile in gmap.tiles.values():
        bad = [t for t in tile.terrains if t not in known]
        if bad:
            problems.append(f"tile {tile.id}: terrain {bad[0]!r} is not one of {', '.join(known)} (terrain.types)")
        if SEA in tile.terrains and (len(tile.terrains) > 1 or tile.building or tile.objective):
            problems.append(f"tile {tile.id}: a sea area has no other terrain, building or objective")
        if tile.building and tile.building not in BUILDINGS:
            problems.append(f"tile {tile.id}: building {tile.building!r} is not one of {', '.join(BUILDINGS)}")
        if tile.objective and tile.objective not in OBJECTIVES:
            problems.append(f"tile {tile.id}: objective {tile.objective!r} is not one of {', '.join(OBJECTIVES)}")
    if not land_tiles(gmap):
        problems.append("the map has no land tiles")
    return problems


def land_tiles(gmap: HexMap) -> list[str]:
    """Tiles that can carry a banner: everything but sea areas (COC-SET-2)."""
    return gmap.sorted(t for t, tile in gmap.tiles.items() if SEA not in tile.terrains)


def is_sea(gmap: HexMap, tile: str) -> bool:
    return gmap.tiles[tile].has(SEA)


def has_sea(gmap: HexMap) -> bool:
    return any(t.has(SEA) for t in gmap.tiles.values())


def check_players(gmap: HexMap, players: int, rules: RuleBook) -> list[str]:
    """COC-SET-1: at least `campaign.min_tiles_per_player` land tiles per player; COC-GEN-1: enough players."""
    problems = []
    need = players * int(rules["campaign.min_tiles_per_player"])
    have = len(land_tiles(gmap))
    if have < need:
        problems.append(f"map {gmap.name!r} has {have} land tiles; {players} players need at least {need} "
                        f"({rules['campaign.min_tiles_per_player']} per player)")
    if players < int(rules["campaign.min_players"]):
        problems.append(f"a campaign needs at least {rules['campaign.min_players']} players, not {players}")
    return problems


def is_mountain(gmap: HexMap, tile: str) -> bool:
    return gmap.tiles[tile].has("mountain")


def is_shore(gmap: HexMap, tile: str) -> bool:
    return gmap.tiles[tile].has("shore")


def building_allowed(gmap: HexMap, tile: str, building: str, rules: RuleBook) -> bool:
    """Terrain limits of a building (COC-BLD-4, -7, -9, -10): every terrain of the tile must allow it."""
    allowed = rules[f"buildings.{building}.allowed_terrain"]
    return all(t in allowed for t in gmap.tiles[tile].terrains)


def mine_rate(gmap: HexMap, tile: str, rules: RuleBook) -> str:
    """Which revenue table a mine uses: mountain beats river; elsewhere `revenue.other_terrain_mine`."""
    if gmap.tiles[tile].has("mountain"):
        return "mountain"
    if gmap.tiles[tile].has("river"):
        return "river"
    return str(rules["revenue.other_terrain_mine"])


def cities(gmap: HexMap) -> list[str]:
    """City tiles on the map as drawn: the capital candidates (COC-SET-5)."""
    return gmap.sorted(t for t, tile in gmap.tiles.items() if tile.building == "city")
