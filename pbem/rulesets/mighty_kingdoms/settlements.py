"""Winter: building settlements (MK-BLD-1..9) by the settlement cost table.

The table (`[settlement_costs]`) has a row per settlement to build and a column per kind of
target tile. The column is the tile's terrain class when that class is one of
`settlement_costs.terrain_columns` (swamp, all mountains, sea: A2, the terrain wins), and
otherwise what the tile holds now: empty, village, city or fortress (MK-BLD-3). A missing
cell means "cannot be built there" (MK-BLD-4). Both readings of the collapsed source table
(A1) ship: `upgrade_chain` (recommended) and `fresh_build`, chosen by `settlement_costs.preset`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms.model import SETTLEMENTS, MKState
from pbem.rulesets.mighty_kingdoms.tiles import terrain_class

EMPTY = "empty"


@dataclass(frozen=True)
class Cost:
    gold: int = 0
    food: int = 0

    def text(self) -> str:
        """`1 gold and 1 food`, `1 gold`, `nothing`."""
        parts = [f"{n} {what}" for n, what in ((self.gold, "gold"), (self.food, "food")) if n]
        return " and ".join(parts) or "nothing"


def column(gmap: HexMap, rules: RuleBook, contents: str, tile: str) -> str:
    """The cost table's column for a tile holding `contents` ("" for none): its terrain class
    if that class has a column of its own (A2), else its contents."""
    terrain = terrain_class(gmap, tile)
    if terrain in rules["settlement_costs.terrain_columns"]:
        return terrain
    return contents or EMPTY


def table(rules: RuleBook) -> dict[str, dict[str, Cost]]:
    """The preset's table: settlement -> column -> cost (absent = not allowed)."""
    raw = rules[f"settlement_costs.{rules['settlement_costs.preset']}"]
    return {kind: {col: Cost(int(c.get("gold", 0)), int(c.get("food", 0))) for col, c in raw.get(kind, {}).items()}
            for kind in SETTLEMENTS}


def cost(rules: RuleBook, kind: str, col: str) -> Cost | None:
    """What building `kind` on a tile of column `col` costs; None where the cell is greyed (MK-BLD-4)."""
    return table(rules)[kind].get(col)


def where_allowed(rules: RuleBook, kind: str) -> str:
    """The columns a settlement may be built on, for a player: `a village or a fortress`."""
    cols = [("an empty tile" if c == EMPTY else f"a {c}") for c in table(rules)[kind]]
    if not cols:
        return "nowhere under these rules"
    return cols[0] if len(cols) == 1 else ", ".join(cols[:-1]) + " or " + cols[-1]


def never(state: MKState, gmap: HexMap, rules: RuleBook, player: str, kind: str, tile: str) -> str:
    """Why `player` can never build `kind` on `tile` this winter ("" if he might): tile control does
    not change in winter, nor does terrain (MK-BLD-1, MK-BLD-4, MK-EXP-8)."""
    spot = state.tile(tile)
    label = gmap.label(tile)
    if spot.tower:
        return f"{label} is a wizard's tower; nothing is ever built on it"
    if spot.owner != player:
        return f"{label} is not yours; you build only on tiles you control"
    terrain = terrain_class(gmap, tile)
    if terrain in rules["settlement_costs.terrain_columns"] and cost(rules, kind, terrain) is None:
        return f"{label} is {terrain.replace('_', ' ')}; no {kind} can be built on it"
    return ""


def not_now(state: MKState, gmap: HexMap, rules: RuleBook, kind: str, tile: str, contents: str | None = None) -> str:
    """Why the tile, holding `contents` (default: what it holds now), takes no `kind` ("" if it does)."""
    held = state.tile(tile).settlement if contents is None else contents
    if cost(rules, kind, column(gmap, rules, held, tile)) is not None:
        return ""
    now = f"holds a {held}" if held else "is empty"
    return (f"{gmap.label(tile)} {now}; a {kind} is built on {where_allowed(rules, kind)} "
            f"(settlement costs {rules['settlement_costs.preset']})")


def price(state: MKState, gmap: HexMap, rules: RuleBook, kind: str, tile: str) -> Cost:
    """The cost of a build `not_now` allows."""
    found = cost(rules, kind, column(gmap, rules, state.tile(tile).settlement, tile))
    assert found is not None
    return found


def build(state: MKState, kind: str, tile: str) -> str:
    """Place `kind` on the tile, replacing what stood there (MK-BLD-2, MK-BLD-9); returns what it
    replaced ("" for nothing). A city on the builder's own starting tile is his capital again
    (MK-BLD-8): `MKState.capital_of` reads it from the board."""
    spot = state.tiles[tile]
    before = spot.settlement
    spot.settlement, spot.razed = kind, False
    return before
