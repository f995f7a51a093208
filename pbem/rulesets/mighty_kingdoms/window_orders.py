"""Window O: the month's orders (MK-ORD, MK-PBM-2), then resolution (MK-RES, MK-EXP).

Each player sends an ordered list of `A1 MOVE T5`, `A1 DEFEND`, `A1 RAZE`; the first N
entries that are legal on the board of the month's start and name different armies are
taken, in the list's sequence, which is also his resolution sequence (MK-ORD-2, MK-ORD-13,
MK-RES-2). The acknowledgement names every entry refused and why, those over the allowance
included. Standing-preference lines are handed to `standing`. A short or missing list is
filled with Defend for the lowest army ids (MK-PBM-2).

With `orders.window_mode = "per_cycle"` (A5) the window runs N times, one order per player
each, the orders of earlier cycles published; the last cycle resolves the month.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, OrderProblem
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms import chronicle, orders, resolution, standing, steps
from pbem.rulesets.mighty_kingdoms.chronicle import Section, when
from pbem.rulesets.mighty_kingdoms.model import ORDERS, MKState, MKView
from pbem.rulesets.mighty_kingdoms.summer_state import MonthScratch, Order
from pbem.rulesets.phases import Lines, Outcome, Payload, Phase, Submissions

PER_CYCLE = "per_cycle"


def per_cycle(view: MKView) -> bool:
    return bool(view.rules["orders.window_mode"] == PER_CYCLE)


def month(view: MKView) -> MonthScratch:
    """This month's scratch: last month's is left for the picture until this month's orders come."""
    state = view.state
    if state.month.turn != state.calendar.turn:
        return MonthScratch(allowance=orders.allowance(state, view.rules), turn=state.calendar.turn)
    return state.month


def owing(view: MKView) -> list[str]:
    """Every player with an army, in player order."""
    return [p for p in view.state.order if view.state.armies_of(p)]


# -- reading a player's mail -------------------------------------------------------------------
def parse(view: MKView, player: Player, lines: Lines) -> Parsed:
    """The player's orders, each refused entry with its reason; standing lines to `standing`."""
    state, limit, earlier = view.state, _limit(view), _earlier(view, player.id)
    taken: dict[str, tuple[int, Order]] = {}
    parsed = Parsed(payload={"orders": []})
    for no, line in lines:
        words = line.split()
        if words[0].upper() in standing.VERBS:
            _standing(view, player, parsed, no, line)
            continue
        try:
            order = orders.read(state, view.map, view.rules, player.id, line)
            _may_take(order, taken, earlier, limit, view)
        except OrderProblem as problem:
            parsed.problems.append(problem.at(no, line))
            continue
        taken[order.army] = (no, order)
        parsed.payload["orders"].append({"army": order.army, "verb": order.verb, "tile": order.tile})
        parsed.accepted.append((no, orders.text(order)))
    return parsed


def _limit(view: MKView) -> int:
    """How many orders one mail may give: N, or one per cycle (A5)."""
    return min(1, month(view).allowance) if per_cycle(view) else month(view).allowance


def _earlier(view: MKView, player: str) -> dict[str, Order]:
    """The player's orders of earlier cycles this month (per_cycle mode only)."""
    return {o.army: o for o in month(view).orders if o.player == player}


def _may_take(order: Order, taken: Mapping[str, tuple[int, Order]], earlier: Mapping[str, Order],
              limit: int, view: MKView) -> None:
    """Raise why a legal entry is not taken: its army already has an order, or the allowance is used."""
    if order.army in earlier:
        raise IllegalOrder(f"{order.army} already has an order this month ({orders.text(earlier[order.army])}, an "
                           "earlier cycle); an army takes one order a month (MK-ORD-3)")
    if order.army in taken:
        no, first = taken[order.army]
        raise IllegalOrder(f"{order.army} already has an order on line {no} ({orders.text(first)}); an army takes "
                           "one order a month (MK-ORD-3)")
    if len(taken) >= limit:
        raise IllegalOrder(_over(view, limit, [orders.text(o) for _, o in taken.values()]))


def _over(view: MKView, limit: int, used: Sequence[str]) -> str:
    if not limit:
        return "over the allowance: no army may be ordered this month (N = 0, MK-ORD-2)"
    if per_cycle(view):
        return f"over the allowance: one order per cycle, and {used[0]} is this cycle's (orders.window_mode)"
    return (f"over the allowance: N = {limit} this month (the fewest armies any player has, MK-ORD-2), and "
            f"{', '.join(used)} use{'s' if limit == 1 else ''} it")


def _standing(view: MKView, player: Player, parsed: Parsed, no: int, line: str) -> None:
    """A standing-preference line (MK-PBM-5), read by `standing`; the entries are kept in the order
    sent, as a list under "standing", for `standing.apply`."""
    words = line.split()
    try:
        entry = standing.parse(view, player, words[0].upper(), words[1:])
    except OrderProblem as problem:
        parsed.problems.append(problem.at(no, line))
        return
    parsed.payload.setdefault("standing", []).append(entry)
    parsed.accepted.append((no, standing.canonical(entry)))


def canonical(view: MKView, player: Player, payload: Payload) -> list[str]:
    """The orders on file as the player writes them, then his standing preferences."""
    lines = [orders.text(Order(o["army"], o["verb"], o.get("tile", ""))) for o in payload.get("orders", [])]
    return lines + [standing.canonical(entry) for entry in payload.get("standing", [])]


def missing(view: MKView, player: Player, payload: Payload) -> list[str]:
    """The orders the allowance still has room for, and what they default to (MK-PBM-2)."""
    earlier = list(_earlier(view, player.id).values())
    sent = [Order(o["army"], o["verb"], o.get("tile", ""), player.id) for o in payload.get("orders", [])]
    room = len(earlier) + 1 if per_cycle(view) else month(view).allowance
    filled = defaults(view, player.id, earlier + sent, room)
    if not filled:
        return []
    return [f"{len(filled)} more order{'s' if len(filled) > 1 else ''} (left out, "
            f"{', '.join(orders.text(o) for o in filled)} by default)"]


def help_text(view: MKView, player: Player) -> str:
    """The exact syntax with the player's own armies and where each may go."""
    state, gmap, rules = view.state, view.map, view.rules
    mine = state.armies_of(player.id)
    if not mine:
        return "You have no army this month, so you send no orders."
    n = month(view).allowance
    reach = orders.reach(state, gmap, rules, mine[0])
    syntax = f"{mine[0].id} MOVE {reach[0] if reach else '<tile>'}, {mine[0].id} DEFEND or {mine[0].id} RAZE"
    head = (f"One order per line, best first: {syntax}. This month N = {n}: the first {n} legal orders "
            "naming different armies are used, in your list's sequence, which is also the order they resolve in.")
    if per_cycle(view):
        head = (f"One order this cycle ({month(view).cycle + 1} of {n}): {syntax}. Armies ordered in "
                "earlier cycles cannot be ordered again this month.")
    rows = [f"{a.id} in {gmap.label(a.tile)}: MOVE to {', '.join(orders.reach(state, gmap, rules, a)) or 'nowhere'}; "
            f"DEFEND; " + (f"RAZE the {state.tile(a.tile).settlement}" if state.tile(a.tile).settlement
                           else "no RAZE (no settlement)") for a in mine]
    tail = (f"Left out, your lowest army ids DEFEND. Standing preferences ({', '.join(standing.VERBS)}) may be sent "
            "in this window too.")
    return "\n".join([head, *(f"- {r}" for r in rows), tail])


# -- closing the window ------------------------------------------------------------------------
def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    state = view.state
    before, title = state.calendar.turn, f"{when(view)}: orders"
    sections, resolved = settle(view, submissions, dice)
    if not resolved:
        return steps.outcome(view, before, f"{title}, cycle {state.month.cycle}", sections,
                             f"orders-cycle-{state.month.cycle}")
    steps.month_goes_on(view, dice, sections)
    return steps.outcome(view, before, f"{title} and resolution", sections, "orders")


def settle(view: MKView, submissions: Submissions, dice: Dice) -> tuple[list[Section], bool]:
    """Standing preferences kept, this window's orders taken, and, once every cycle is in, the
    month's orders resolved; the report sections and whether resolution ran."""
    state = view.state
    for player in state.order:
        if "standing" in submissions.get(player, {}):
            standing.apply(state, player, submissions[player])
    state.month = month(view)
    taken = take(view, submissions)
    if per_cycle(view) and state.month.cycle < state.month.allowance:
        return [taken], False
    done = Section("Resolution", resolution.run(state, view.map, view.rules, dice))
    return [taken, done, Section("Contested tiles", resolution.contested(state, view.map))], True


def take(view: MKView, submissions: Submissions) -> Section:
    """The orders each player gets this window, in player order, defaults filled (MK-PBM-2)."""
    state, scratch = view.state, view.state.month
    section = Section("Orders" if not per_cycle(view) else f"Order cycle {scratch.cycle + 1} of {scratch.allowance}")
    section.add(allowance_line(state, scratch.allowance))
    for player in [p for p in state.order if state.armies_of(p)]:
        earlier = [o for o in scratch.orders if o.player == player]
        room = len(earlier) + 1 if per_cycle(view) else scratch.allowance
        sent = _sent(view, player, submissions.get(player, {}), earlier, room - len(earlier), section)
        scratch.orders += sent + defaults(view, player, earlier + sent, room)
    scratch.cycle += 1
    for player in state.order:
        given = [o for o in scratch.orders if o.player == player]
        if given:
            shown = ", ".join(orders.text(o) + (" (default)" if o.default else "") for o in given)
            section.add(f"{state.kingdoms[player].name}: {shown}")
    if not per_cycle(view) or scratch.cycle >= scratch.allowance:
        idle = [a.id for a in state.armies.values() if a.id not in {o.army for o in scratch.orders}]
        if idle:
            section.add(f"No order, staying put without a marker (MK-ORD-5): {', '.join(sorted(idle))}")
    return section


def defaults(view: MKView, player: str, given: Sequence[Order], room: int) -> list[Order]:
    """MK-PBM-2's Defends, unless `orders.missing_default = "none"` leaves a short list short (A6)."""
    if view.rules["orders.missing_default"] == "none":
        return []
    return orders.fill(view.state, player, given, room)


def _sent(view: MKView, player: str, payload: Payload, earlier: Sequence[Order], room: int,
          section: Section) -> list[Order]:
    """The player's own orders that still hold, at most `room` of them."""
    out: list[Order] = []
    named = {o.army for o in earlier}
    for raw in payload.get("orders", []):
        if len(out) >= room:
            break
        army = view.state.armies.get(raw["army"])
        if army is None or army.id in named:
            continue
        order = Order(army.id, raw["verb"], raw.get("tile", ""), player, start=army.tile)
        try:
            orders.check(view.state, view.map, view.rules, order)
        except OrderProblem as problem:
            section.add(f"{view.state.kingdoms[player].name}: {orders.text(order)} dropped: {problem.reason}")
            continue
        out.append(order)
        named.add(army.id)
    return out


def allowance_line(state: MKState, n: int) -> str:
    counts = {p: len(state.armies_of(p)) for p in state.order if state.armies_of(p)}
    fewest = [state.kingdoms[p].name for p, c in counts.items() if c == n]
    if not fewest:
        return f"Order allowance: N = {n} (MK-ORD-2)"
    has = "has" if len(fewest) == 1 else "have"
    return f"Order allowance: N = {n}, the fewest armies any kingdom has ({', '.join(fewest)} {has} {n}) (MK-ORD-2)"


def call(view: MKView) -> dict[str, Any]:
    """What the call for window O shows (`mk.call`): N, the mode, each army's reach, the orders of
    earlier cycles this month."""
    state, gmap, scratch = view.state, view.map, month(view)
    armies = [{"id": a.id, "kingdom": state.kingdoms[a.owner].name, "tile": a.tile,
               "moves": orders.reach(state, gmap, view.rules, a), "raze": state.tile(a.tile).settlement}
              for p in state.order for a in state.armies_of(p)]
    given = [{"kingdom": state.kingdoms[o.player].name, "order": orders.text(o), "default": o.default}
             for o in scratch.orders]
    return {"allowance": scratch.allowance, "per_cycle": per_cycle(view), "cycle": scratch.cycle + 1,
            "armies": armies, "given": given, "standing": list(standing.SYNTAX.values()),
            "examples": examples(armies)}


def examples(armies: list[dict[str, Any]]) -> list[dict[str, str]]:
    """One example order per kingdom with its own first army, so each reader finds his own ids."""
    first: dict[str, dict[str, Any]] = {}
    for army in armies:
        first.setdefault(army["kingdom"], army)
    return [{"kingdom": k, "id": a["id"], "move": f"{a['id']} MOVE {a['moves'][0]}" if a["moves"] else ""}
            for k, a in first.items()]


chronicle.CALLS[ORDERS] = call

PHASE = Phase[MKState, HexMap](title="orders", window=ORDERS, parse=parse, resolve=resolve, owing=owing,
                               missing=missing, canonical=canonical, help=help_text,
                               words=lambda view: (*orders.VERBS, *standing.VERBS))
