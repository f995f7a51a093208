"""Exploration (MK-EXP-1..9): a Move into an unexplored tile rolls on the 2D6 table.

The table lives in `[exploration]` of the rule book: 2 a wizard's tower, 3-6 empty, 7-9 a
village, 10 a city, 11-12 a fortress. A tower needs fewer than `max_wizard_towers` on the
board, else the roll counts as `tower_overflow_result` (MK-EXP-4). A tower is never
controlled or entered: the explorer goes back, and every unresolved Move into the tile is
cancelled, whoever gave it (MK-EXP-5..7). Any other result is placed under the explorer's
control whatever the printed terrain (`on_unbuildable_terrain = "place"`, A12), or, with
`"empty"`, a settlement rolled on a swamp, all-mountains or sea tile becomes an empty tile.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice, dice_spec
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms.chronicle import dice_text
from pbem.rulesets.mighty_kingdoms.model import SETTLEMENTS, MKState, TileState
from pbem.rulesets.mighty_kingdoms.summer_state import Order

TOWER, EMPTY = "wizard_tower", "empty"
NAMES = {TOWER: "a wizard's tower", EMPTY: "an empty tile", "village": "a village", "city": "a city",
         "fortress": "a fortress"}


def table_result(rules: RuleBook, total: int) -> str:
    """The exploration table's result for a total (MK-EXP-1)."""
    row = next((r for r in rules["exploration.table"] if r["min"] <= total <= r["max"]), None)
    if row is None:
        raise ValueError(f"rules: exploration.table has no row for a roll of {total}")
    return str(row["result"])


def explore(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice, order: Order) -> str:
    """Resolve `order`, a Move into an unexplored tile: roll, place the result, move the army
    (or send it back from a tower); returns the outcome line for the report."""
    tile, army = order.tile, state.armies[order.army]
    count, sides = dice_spec(rules["exploration.dice"])
    roll = dice.roll(f"exploration of {tile} by {army.id}", count, sides)
    result, note = _placed(state, gmap, rules, tile, table_result(rules, roll.total))
    said = f"{tile} explored, {dice_text(roll)}: {NAMES[result]}{note}"
    if result == TOWER:
        state.tiles[tile] = TileState(tower=True)
        cancelled = cancel_moves_into(state.month.orders, tile, order)
        gone = f"; cancelled: {', '.join(o.army + ' MOVE ' + tile for o in cancelled)}" if cancelled else ""
        return f"{said}; {army.id} goes back to {gmap.label(army.tile)} (MK-EXP-5){gone}"
    state.tiles[tile] = TileState(owner=army.owner, settlement="" if result == EMPTY else result)
    army.tile = tile
    return f"{said}, controlled by {state.kingdoms[army.owner].name}; {army.id} enters"


def _placed(state: MKState, gmap: HexMap, rules: RuleBook, tile: str, result: str) -> tuple[str, str]:
    """What the table's result becomes on this board: the tower cap (MK-EXP-4) and the terrain
    option (A12); with a note saying why it changed."""
    cap = rules["exploration.max_wizard_towers"]
    if result == TOWER and len(state.towers()) >= cap:
        return str(rules["exploration.tower_overflow_result"]), f" ({cap} towers are already on the board)"
    unbuildable = gmap.terrain(tile) in rules["settlement_costs.terrain_columns"]
    if result in SETTLEMENTS and unbuildable and rules["exploration.on_unbuildable_terrain"] == EMPTY:
        return EMPTY, f" (a {result} cannot stand on {gmap.terrain(tile).replace('_', ' ')})"
    return result, ""


def cancel_moves_into(orders: Sequence[Order], tile: str, explorer: Order) -> list[Order]:
    """MK-EXP-6/7: every unresolved Move into a new tower is cancelled, whoever gave it; the
    armies stay where they are and the orders leave the round robin."""
    cancelled = [o for o in orders if o is not explorer and not o.done and o.verb == "move" and o.tile == tile]
    for o in cancelled:
        o.done = o.cancelled = True
        o.end = o.start
        o.outcome = f"cancelled: {tile} became a wizard's tower"
    return cancelled


def rule_problems(rules: RuleBook) -> list[str]:
    """Every exploration total without a row, every result the processor cannot place."""
    try:
        count, sides = dice_spec(rules["exploration.dice"])
    except ValueError:
        return []               # reported with the dice specs (rules.DICE)
    problems = [f"rules: exploration.table: unknown result {row.get('result')!r}; results are {', '.join(NAMES)}"
                for row in rules["exploration.table"] if row.get("result") not in NAMES]
    gaps = [str(t) for t in range(count, count * sides + 1)
            if not any(r.get("min", 0) <= t <= r.get("max", -1) for r in rules["exploration.table"])]
    if gaps:
        problems.append(f"rules: exploration.table has no row for {', '.join(gaps)}; every total of the "
                        f"exploration dice needs one")
    if rules["exploration.tower_overflow_result"] not in set(NAMES) - {TOWER}:
        problems.append("rules: exploration.tower_overflow_result must be a result other than the tower: "
                        + ", ".join(n for n in NAMES if n != TOWER))
    return problems
