"""Monthly orders: Move, Defend and Raze, read from a line and checked against the month's start.

An order reads `A1 MOVE T5`, `A1 DEFEND` or `A1 RAZE` (MK-ORD-1), and `text` writes it back
the same way. `check` judges it against the board as it stood when the Orders phase began
(MK-ORD-13): the army is the player's, a Move names an adjacent tile that is not a known
wizard's tower (MK-ORD-6, MK-ORD-7), a Raze stands on a settlement (MK-ORD-11). The allowance
N is the fewest armies any player has (MK-ORD-2, A6); `fill` tops a player's orders up to N
with Defend for his lowest army ids (MK-PBM-2).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence

from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem, normalise, quoted
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms.model import Army, MKState
from pbem.rulesets.mighty_kingdoms.summer_state import Order

MOVE, DEFEND, RAZE = "move", "defend", "raze"
VERBS = (MOVE, DEFEND, RAZE)
SYNTAX = "A1 MOVE T5, A1 DEFEND or A1 RAZE"
ELSEWHERE = {   # the first words of other windows' lines: refused here with the window they belong to
    **dict.fromkeys(("START", "RING", "ARMY"), "setup"), "LIST": "setup and winter purchases",
    **dict.fromkeys(("RESULT", "MEDALS", "SCARS", "ADVANCE", "TAKE"), "battle"),
    **dict.fromkeys(("BUILD", "RECRUIT", "TITHE", "QUEST"), "winter purchases"),
    **dict.fromkeys(("DEPLOY", "ALLOT"), "winter deployment"),
}


def allowance(state: MKState, rules: RuleBook) -> int:
    """N: the army count of the player with the fewest armies (MK-ORD-2, MK-ORD-4); players with
    none are left out unless `orders.min_excludes_armyless` is false (A6)."""
    counts = [len(state.armies_of(p)) for p in state.kingdoms]
    if rules["orders.min_excludes_armyless"]:
        counts = [c for c in counts if c]
    return min(counts, default=0)


def text(order: Order) -> str:
    """The order as a player writes it: `A2 MOVE T5`."""
    return f"{order.army} {order.verb.upper()}" + (f" {order.tile}" if order.tile else "")


def reach(state: MKState, gmap: HexMap, rules: RuleBook, army: Army) -> list[str]:
    """The tiles a Move of `army` may name (MK-ORD-6, MK-ORD-7, A12), in tile-id order."""
    return [t for t in gmap.sorted(gmap.neighbours(army.tile)) if not _barred(state, gmap, rules, t)]


def _barred(state: MKState, gmap: HexMap, rules: RuleBook, tile: str) -> str:
    """Why no Move may enter `tile`, or ""."""
    if state.tile(tile).tower:
        return "is a wizard's tower, which no army may enter (MK-ORD-7)"
    if gmap.terrain(tile) == "sea" and not rules["orders.move_into_sea"]:
        return "is sea, which this campaign's armies may not enter (orders.move_into_sea)"
    return ""


def read(state: MKState, gmap: HexMap, rules: RuleBook, player: str, line: str) -> Order:
    """One order line of `player`, checked; raises the OrderProblem to quote in the ack."""
    words = line.split()
    army = _army(state, player, words)
    verb = words[1].casefold() if len(words) > 1 else ""
    if verb not in VERBS:
        shown = quoted(words[1]) if len(words) > 1 else "nothing"
        raise InvalidOrder(f"after the army comes MOVE, DEFEND or RAZE, not {shown}",
                           suggestion=f"{army.id} DEFEND" if len(words) < 2 else _verb_hint(words[1], army.id))
    if verb != MOVE and len(words) > 2:
        raise InvalidOrder(f"{verb.upper()} takes no target: write {army.id} {verb.upper()}")
    if verb == MOVE and len(words) < 3:
        raise InvalidOrder(f"MOVE needs the tile to move to: {army.id} MOVE <tile>",
                           suggestion=", ".join(f"{army.id} MOVE {t}" for t in reach(state, gmap, rules, army)[:3]))
    target = _target(state, gmap, rules, army, " ".join(words[2:])) if verb == MOVE else ""
    order = Order(army.id, verb, target, player, start=army.tile)
    check(state, gmap, rules, order)
    return order


def _target(state: MKState, gmap: HexMap, rules: RuleBook, army: Army, typed: str) -> str:
    """The tile a Move names; a misspelt one is suggested among the tiles the army can reach."""
    try:
        return gmap.lookup(typed)
    except InvalidOrder as problem:
        options = reach(state, gmap, rules, army)
        hint = problem.suggestion or _closest(typed, options)
        raise InvalidOrder(f"{problem.reason}; {army.id} can move to {', '.join(options) or 'nowhere'}",
                           suggestion=hint) from None


def _verb_hint(word: str, army: str) -> str:
    close = NameIndex({v.upper(): () for v in VERBS}, "order").suggest(word)
    return f"{army} {close}" if close else ""


def _army(state: MKState, player: str, words: Sequence[str]) -> Army:
    """The army a line starts with; an unknown one is suggested among the player's own."""
    first = words[0]
    if first.upper() in ELSEWHERE:
        raise InvalidOrder(f"{first.upper()} is not read in the orders window: it belongs to the "
                           f"{ELSEWHERE[first.upper()]} window; orders now read {SYNTAX}")
    if first.casefold() in VERBS:
        own = state.armies_of(player)
        example = f"{own[0].id} {first.upper()}" if own else ""
        raise InvalidOrder(f"an order starts with the army, then the order: {SYNTAX}", suggestion=example)
    found = {normalise(a): a for a in state.armies}.get(normalise(first))
    if found is None:
        if len(words) > 1 and words[1].casefold() in VERBS:
            raise InvalidOrder(f"unknown army {quoted(first)}; yours are {_ids(state, player)}",
                               suggestion=_closest(first, [a.id for a in state.armies_of(player)]))
        raise NotAnOrder(f"not an order; orders read {SYNTAX}")
    return state.armies[found]


def _closest(word: str, ids: Sequence[str]) -> str:
    """The player's army id most like a mistyped one: ids are short, so one wrong character of
    two ("A9" for "A1") still counts as close."""
    close = difflib.get_close_matches(word.upper(), ids, n=1, cutoff=0.5)
    return close[0] if close else ""


def _ids(state: MKState, player: str) -> str:
    return ", ".join(a.id for a in state.armies_of(player)) or "none (you have no army)"


def check(state: MKState, gmap: HexMap, rules: RuleBook, order: Order) -> None:
    """Raise IllegalOrder if the order breaks the rules on the board of the month's start (MK-ORD-13)."""
    army = state.armies[order.army]
    if army.owner != order.player:
        owner = state.kingdoms[army.owner].name
        raise IllegalOrder(f"{army.id} is {owner}'s army, not yours; your armies are {_ids(state, order.player)}")
    if order.verb == MOVE:
        _check_move(state, gmap, rules, army, order.tile)
    elif order.verb == RAZE and not state.tile(army.tile).settlement:
        raise IllegalOrder(f"{army.id} stands on {gmap.label(army.tile)}, which holds no settlement; RAZE needs a "
                           "village, city or fortress in the army's own tile (MK-ORD-11)")


def _check_move(state: MKState, gmap: HexMap, rules: RuleBook, army: Army, tile: str) -> None:
    options = ", ".join(reach(state, gmap, rules, army)) or "nowhere"
    if not gmap.adjacent(army.tile, tile):
        raise IllegalOrder(f"{gmap.label(tile)} is not next to {gmap.label(army.tile)}, where {army.id} stands; a Move "
                           f"covers one tile (MK-ORD-6, MK-ORD-8): {army.id} can move to {options}")
    barred = _barred(state, gmap, rules, tile)
    if barred:
        raise IllegalOrder(f"{gmap.label(tile)} {barred}; {army.id} can move to {options}")


def fill(state: MKState, player: str, given: Sequence[Order], allowance: int) -> list[Order]:
    """MK-PBM-2: Defend for the player's lowest army ids not yet ordered, up to the allowance;
    they come after his own orders (A32)."""
    named = {o.army for o in given}
    free = [a for a in state.armies_of(player) if a.id not in named]
    return [Order(a.id, DEFEND, "", player, start=a.tile, default=True) for a in free[:max(0, allowance - len(given))]]


def problem_text(problem: OrderProblem) -> str:
    """A problem as one line of a report (no line number)."""
    return problem.reason + (f" (did you mean {problem.suggestion}?)" if problem.suggestion else "")

