"""The Resolution phase (MK-RES-1..14): the month's orders carried out one army at a time.

Orders resolve in round robin in player order, each player taking his next order in the
sequence of his list (MK-RES-1, MK-RES-2); an order cancelled by a new tower leaves the
round robin (MK-EXP-7). Each order is judged against the board as it stands when it
resolves (MK-RES-3): the row of `[resolution] table` that matches its verb and what its
target is at that moment names the effect. An army counts in its start tile until its own
Move resolves (MK-ORD-9, MK-RES-7): armies change tile only as their order resolves.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import artefacts, exploration
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import CITY, Army, MKState
from pbem.rulesets.mighty_kingdoms.orders import MOVE, RAZE, text
from pbem.rulesets.mighty_kingdoms.summer_state import Order

Effect = Callable[[MKState, HexMap, RuleBook, Dice, Order], str]


def run(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice) -> list[str]:
    """Resolve `state.month.orders` (each player's in his sequence); returns the report lines, one
    per order, and leaves the orders in the order they resolved or were cancelled."""
    month = state.month
    for tile in {state.armies[o.army].tile for o in month.orders if o.verb == RAZE}:
        if state.tile(tile).settlement:
            state.tiles[tile].razed = True          # upside down: a Raze is pending (MK-ORD-11)
    sequence: list[Order] = []
    lines: list[str] = []
    while any(_next(state, p) for p in state.order):
        for player in state.order:
            order = _next(state, player)        # asked at his turn: an order cancelled this round is passed
            if order is not None:
                lines.append(f"({len(lines) + 1}) {_one(state, gmap, rules, dice, order)}")
                sequence.append(order)
                sequence += [o for o in month.orders if o.cancelled and o not in sequence]
    month.orders = sequence + [o for o in month.orders if o not in sequence]
    month.resolved = True
    month.log = lines
    return lines


def _next(state: MKState, player: str) -> Order | None:
    """The player's next order that is neither resolved nor cancelled (MK-RES-1, MK-EXP-7)."""
    return next((o for o in state.month.orders if o.player == player and not o.done), None)


def _one(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice, order: Order) -> str:
    """Resolve one order by the table row that applies now (MK-RES-3); the report line."""
    army = state.armies[order.army]
    kind = target_kind(state, order)
    row = next((r for r in rules["resolution.table"] if r["order"] == order.verb and r["target"] == kind), None)
    head = f"{state.kingdoms[order.player].name} {text(order)}" + (" (default)" if order.default else "")
    if row is None:
        order.outcome = _no_row(order, kind)
    else:
        order.outcome = EFFECTS[str(row["effect"])](state, gmap, rules, dice, order)
    order.done, order.end = True, army.tile
    return f"{head}: {order.outcome}"


def target_kind(state: MKState, order: Order) -> str:
    """What the order's target is at this moment, as the resolution table's `target` column names it."""
    if order.verb == MOVE:
        spot = state.tile(order.tile)
        return "tower" if spot.tower else "controlled" if state.explored(order.tile) else "unexplored"
    here = state.tile(state.armies[order.army].tile)
    if order.verb == RAZE:
        return "settlement" if here.settlement else "empty"
    return "controlled"


def _no_row(order: Order, kind: str) -> str:
    if order.verb == RAZE:
        return "nothing left to raze: the settlement there is already gone (A32)"
    return f"no effect: the resolution table has no row for {order.verb.upper()} with a {kind} target"


# -- the effects of the resolution table's rows ------------------------------------------------
def explore(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice, order: Order) -> str:
    """Move into an unexplored tile (MK-RES-4): roll on the exploration table."""
    return exploration.explore(state, gmap, rules, dice, order)


def enter(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice, order: Order) -> str:
    """Move into a controlled tile: enter; with no enemy army there, take or keep it (MK-RES-5/6)."""
    army, tile = state.armies[order.army], order.tile
    army.tile = tile
    enemies = state.enemies_in(tile, army.owner)
    owner = state.owner(tile)
    if enemies:
        held = "stays yours" if owner == army.owner else f"stays {state.kingdoms[owner].name}'s"
        return f"{army.id} enters {tile}; enemy {_ids(enemies)} there, so {tile} {held} (MK-RES-6)"
    if owner == army.owner:
        return f"{army.id} enters {tile}, its own kingdom's tile"
    return f"{army.id} enters {tile} with no enemy army there: " + take(state, tile, army)


def take(state: MKState, tile: str, army: Army) -> str:
    """Control of `tile`, with any settlement, passes to the army's player (MK-RES-5, MK-GEN-6); a
    capital taken so hands the artefacts held there to the taking army (MK-ART-9, `artefacts.capital_taken`)."""
    owner, spot = state.owner(tile), state.tiles[tile]
    was_capital = bool(owner) and state.capital_of(owner) == tile
    spot.owner = army.owner
    taker, loser = state.kingdoms[army.owner].name, state.kingdoms[owner].name
    what = f" and its {spot.settlement}" if spot.settlement else ""
    said = f"{tile}{what} pass from {loser} to {taker}"
    if not was_capital:
        return said
    notes = Section("artefacts")
    if any(h.owner == owner and not h.army for h in state.artefacts.values()):
        artefacts.capital_taken(state, tile, army.id, notes)        # MK-ART-9, A32
    return f"{said}; {loser}'s capital falls (MK-GEN-9)" + "".join(f"; {line}" for line in notes.lines)


def raze(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice, order: Order) -> str:
    """Raze (MK-RES-8/9, MK-RES-14): the settlement goes unless an enemy army is in the tile."""
    army = state.armies[order.army]
    tile, spot = army.tile, state.tiles[army.tile]
    enemies = state.enemies_in(tile, army.owner)
    if enemies:
        return (f"the Raze fails: enemy {_ids(enemies)} in {tile}; the {spot.settlement} stays upside down "
                "until Reform (MK-RES-9)")
    kind, capital_of = spot.settlement, state.original_owner(tile)
    was_capital = kind == CITY and bool(capital_of) and state.capital_of(capital_of) == tile
    spot.settlement, spot.razed = "", False
    said = f"the {kind} in {tile} is razed; {tile} stays {state.kingdoms[spot.owner].name}'s and is empty"
    if was_capital:
        said += (f"; {state.kingdoms[capital_of].name} has no capital until a city stands in {tile} again "
                 "(MK-RES-14)")
    return said


def defend(state: MKState, gmap: HexMap, rules: RuleBook, dice: Dice, order: Order) -> str:
    """Defend (MK-RES-11): the army stays and carries a defend marker, with no other effect (A7)."""
    army = state.armies[order.army]
    army.defend = True
    return f"{army.id} stays in {army.tile} with a defend marker"


def _ids(armies: list[Army]) -> str:
    return "army " + armies[0].id if len(armies) == 1 else "armies " + ", ".join(a.id for a in armies)


EFFECTS: dict[str, Effect] = {
    "enter_explore_control": explore,
    "enter_control_if_no_enemy_army": enter,
    "remove_if_no_enemy_army": raze,
    "stay": defend,
}


def contested(state: MKState, gmap: HexMap) -> list[str]:
    """The report's list of contested tiles after resolution (MK-BAT-1): each with the kingdoms
    whose armies are there, in player order."""
    lines = []
    for tile in gmap.sorted({a.tile for a in state.armies.values()}):
        here = state.armies_in(tile)
        if len({a.owner for a in here}) > 1:
            names = [f"{state.kingdoms[p].name} ({', '.join(a.id for a in here if a.owner == p)})"
                     for p in state.order if any(a.owner == p for a in here)]
            lines.append(f"{tile}: {', '.join(names)}")
    return lines or ["none: no tile holds armies of two kingdoms"]


def rule_problems(rules: RuleBook) -> list[str]:
    """What in `[resolution]` and `[exploration]` the processor could not play by, each with its key."""
    problems = [f"rules: resolution.table: unknown effect {row.get('effect')!r}; effects are {', '.join(EFFECTS)}"
                for row in rules["resolution.table"] if row.get("effect") not in EFFECTS]
    return problems + exploration.rule_problems(rules)
