"""The Diplomacy windows, each with who owes, how its lines read and how it closes.

`movement` (Spring and Fall orders, the `orders` window), `retreats` (only powers with a
dislodged unit that can retreat owe orders) and `adjustments` (only powers with builds or
removals due) all read orders the same way and resolve through the year's pipeline
(`cycle.advance`), which walks on to the next phase that needs orders. A retreat or adjustment
window that only powers without a player owe resolves at once (civil disorder decides it). A
DRAW the game master declared is settled by the next resolution, whatever the window, and makes
it due at once. `over` reads no orders.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.orders import IllegalOrder
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.diplomacy import cycle, picture, reporting, submit
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.orders import VERBS
from pbem.rulesets.diplomacy.state import DiplomacyState, DipView, edition, victory
from pbem.rulesets.diplomacy.units import KIND_WORDS
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Payload, Phase, Submissions

# ---------------------------------------------------------------- who owes


def owing_players(view: DipView) -> list[str]:
    """Players of the powers that have something to order now, in map order."""
    return [pid for power in cycle.owing(view.map, view.state.position) if (pid := view.state.player_of(power))]


def draw_declared(view: DipView) -> bool:
    return bool(view.state.draw_pending)


def unattended(view: DipView) -> bool:
    """Resolve now: a draw waits, or only powers without a player owe orders (nobody can send them)."""
    powers = cycle.owing(view.map, view.state.position)
    return draw_declared(view) or (bool(powers) and not owing_players(view))


# ---------------------------------------------------------------- reading orders


def parse_orders(view: DipView, player: Player, lines: Lines) -> Parsed:
    power = view.state.power_of(player)
    if not power:
        return refused("you play no power in this game", lines)
    checked = submit.check_lines(view.map, view.state.position, power, lines, edition(view))
    payload: dict[str, Any] = {"orders": checked.orders} if checked.accepted else {}
    return Parsed(payload=payload, accepted=checked.accepted, problems=checked.problems)


def parse_after_the_end(view: DipView, player: Player, lines: Lines) -> Parsed:
    power = view.state.power_of(player)
    return refused("the game is over; no orders are read" if power else "you play no power in this game", lines)


def refused(reason: str, lines: Lines) -> Parsed:
    return Parsed(payload={}, problems=[IllegalOrder(reason, n, line) for n, line in lines])


def missing(find: submit.Missing) -> Callable[[DipView, Player, Payload], list[str]]:
    """The phase's `missing` hook: what the player's power still has no order for."""
    def missing_orders(view: DipView, player: Player, payload: Payload) -> list[str]:
        power = view.state.power_of(player)
        return find(view.map, view.state.position, power, payload.get("orders", [])) if power else []
    return missing_orders


def help_text(view: DipView, player: Player) -> str:
    return reporting.help_text(view, player)


# ---------------------------------------------------------------- resolving


def resolve_orders(view: DipView, submissions: Submissions, dice: Dice) -> Outcome[DiplomacyState]:
    """Play the phase with the orders on file (units without orders hold, dislodged units without
    orders disband, builds not sent are waived) and move on to the next phase that needs orders."""
    state = view.state
    if state.draw_pending:
        return settle_draw(view)
    turn = state.turn
    sent = {power: sub for pid, sub in submissions.items() if (power := state.powers_by_player.get(pid))}
    orders = [(power, text) for power, sub in sent.items() for text in sub.get("orders", [])]
    silent = [p for p in cycle.owing(view.map, state.position) if p not in sent]
    step = cycle.advance(view.map, state.position, orders, edition(view), victory(view))
    state.position = step.after
    state.last = picture.marks(step)
    reports = reporting.phase_reports(view, step, orders, silent)
    return Outcome(state, reports, turn_finished=state.turn != turn or state.over)


def settle_draw(view: DipView) -> Outcome[DiplomacyState]:
    state = view.state
    before = state.position
    state.position = cycle.declare_draw(view.map, before, state.draw_pending)
    state.draw_pending = []
    step = cycle.Step(before, state.position)
    state.last = picture.marks(step)
    return Outcome(state, reporting.phase_reports(view, step, [], []), turn_finished=True)


def nothing_to_resolve(view: DipView, submissions: Submissions, dice: Dice) -> Outcome[DiplomacyState]:
    raise ValueError("the game is over")


# ---------------------------------------------------------------- the game master


def draw(view: DipView, words: Sequence[str]) -> str:
    """`DRAW <power> <power> ...` or `DRAW ALL`: checked now, settled by the next resolution."""
    drawn = cycle.declare_draw(view.map, view.state.position, list(words)).draw
    view.state.draw_pending = list(drawn)
    return f"draw declared among {', '.join(drawn)}; the game ends with the next report"


DRAW: GMVerb[DiplomacyState, Board] = GMVerb(
    "DRAW", "DRAW <power> <power> ... | DRAW ALL",
    "end the game in a draw shared by the named surviving powers (ALL: every survivor)", draw)


# ---------------------------------------------------------------- the windows


def _ordering(title: str, window: str, ready: Callable[[DipView], bool],
              find: submit.Missing) -> Phase[DiplomacyState, Board]:
    """A window in which powers send orders: the three differ in name, deadline, readiness and
    what an order set can leave out."""
    return Phase(title, window, parse=parse_orders, resolve=resolve_orders, owing=owing_players, ready=ready,
                 missing=missing(find), help=help_text, words=order_words)


def order_words(view: DipView) -> Sequence[str]:
    """Unit kinds and verbs: a line starting like none of them, naming no province, is prose."""
    return (*KIND_WORDS, *VERBS)


MOVEMENT = _ordering("movement", "orders", draw_declared, submit.missing_moves)
RETREATS = _ordering("retreats", "retreats", unattended, submit.missing_retreats)
ADJUSTMENTS = _ordering("adjustments", "adjustments", unattended, submit.missing_adjustments)
OVER: Phase[DiplomacyState, Board] = Phase("Game over", "orders", parse=parse_after_the_end,
                                           resolve=nothing_to_resolve, help=help_text, over=True)

PHASES: Mapping[str, Phase[DiplomacyState, Board]] = {
    "movement": MOVEMENT, "retreats": RETREATS, "adjustments": ADJUSTMENTS, "over": OVER}
"""By the stage kind each phase of the position (`cycle.MOVEMENT`, ...) opens."""

KINDS = {cycle.MOVEMENT: "movement", cycle.RETREAT: "retreats", cycle.ADJUSTMENT: "adjustments", cycle.OVER: "over"}
