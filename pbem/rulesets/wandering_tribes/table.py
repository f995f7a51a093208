"""Club night (mode together): the strategic round played one player at a time at the table
(`pbem table`), each player's round stored in the game as soon as it is played.

The game keeps who has played this round (`WTGame.played`) with their rounds' log and alerts, so
a round interrupted at the table goes on where it stopped, and the window's resolution plays only
the players still waiting (from their mailed orders) before it closes the round as always. While a
round is under way at the table the window waits for the game master: no deadline resolves it
under the table's feet and no reminder goes out; `pbem table` finishes it, or the GM's RESOLVE has
the next tick play the rest from the orders on file.
"""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.rulesets.phases import Payload
from pbem.rulesets.wandering_tribes import orders
from pbem.rulesets.wandering_tribes.game import ORDERS, Move, WTGame, WTView
from pbem.rulesets.wandering_tribes.plan import RoundOrders
from pbem.rulesets.wandering_tribes.player_round import RoundResult, defaults, play
from pbem.rulesets.wandering_tribes.texts import rules_of

MODE = "together"
"""The mode written for players around one table (WT-GEN-2)."""


def refusal(view: WTView) -> str:
    """Why the table cannot play the campaign's open round now ("" when it can)."""
    mode = rules_of(view).mode
    if mode != MODE:
        return (f"it plays mode {mode} (campaign.mode), and only mode {MODE} is played at the table; "
                "its rounds go by mail")
    if view.state.phase != ORDERS:
        waits = "its setup" if view.state.phase == "setup" else f"its {view.state.phase} window"
        return f"no strategic round is open (the campaign waits for {waits}); play at the table once one is"
    return ""


def sequence(view: WTView) -> list[str]:
    """The round's published sequence (WT-PBEM-4)."""
    return list(view.state.sequence)


def opening(view: WTView) -> list[str]:
    """The order roll that set the sequence, as the window published it."""
    return list(view.state.opening)


def waiting(game: WTGame) -> list[str]:
    """The players of the round whose round is not played yet, in the sequence."""
    return [p for p in game.sequence if p not in game.played]


def under_way(view: WTView) -> bool:
    """A round begun at the table and not finished: the window waits for the GM, not the deadline."""
    return view.state.phase == ORDERS and bool(view.state.played)


def gm_tasks(game: WTGame, campaign: str) -> list[str]:
    """What `pbem status` lists while a round is under way at the table."""
    if game.phase != ORDERS or not game.played:
        return []
    return [f"strategic round {game.state.round} is under way at the table ({', '.join(game.played)} played; "
            f"{', '.join(waiting(game))} to play): go on with `pbem table {campaign}`, or `pbem resolve {campaign}` "
            "to play the rest from their mailed orders at the next tick"]


def sits_out(view: WTView, player: str) -> str:
    """Why `player` has no round to play now ("" when he plays one): resting by his turn, or out."""
    who = view.state.state.players.get(player)
    if who is None or who.out:
        return "out of the campaign"
    return "resting" if who.resting else ""


def plan(view: WTView, player: str, payload: Payload, log: list[str]) -> RoundOrders:
    """His order read again as his turn comes (other players acted first): lines that no longer
    hold are reported in `log` and dropped (WT-PBEM-3)."""
    lines = [(n, str(x)) for n, x in enumerate(payload.get("lines", []), 1)]
    if not lines:
        return defaults(rules_of(view), view.state.state, player)
    reading = orders.read(orders.Context(view.state.state, rules_of(view), view.map, player), lines)
    log += [f"{player}: line dropped at his turn: {p}" for p in reading.problems]
    return reading.orders


def dropped(view: WTView, player: str, payload: Payload) -> list[str]:
    """The lines of his order that no longer hold now (what `plan` would drop)."""
    log: list[str] = []
    plan(view, player, payload, log)
    return log


def play_player(view: WTView, player: str, payload: Payload, dice: Dice) -> RoundResult:
    """Play `player`'s round on `view.state` and keep it there: the state, his moves for the map,
    his log and alerts, and that he has played."""
    game = view.state
    if not game.played:
        game.moves = []
    notes: list[str] = []
    done = play(game.state, rules_of(view), view.map, player, plan(view, player, payload, notes), dice)
    game.state = done.state
    game.moves += [Move(o.stack, o.start, o.path) for o in done.outcomes if o.path]
    game.played.append(player)
    game.round_log += [*notes, *done.log]
    game.round_alerts += done.alerts
    done.log = [*notes, *done.log]
    return done


def close(game: WTGame) -> tuple[list[str], list[str]]:
    """The round's whole log (its opening first) and alerts; the table's record of it cleared."""
    log, alerts = [*game.opening, *game.round_log], list(game.round_alerts)
    game.played, game.round_log, game.round_alerts = [], [], []
    return log, alerts


def order_lines(payload: Payload) -> list[str]:
    """The canonical lines of an order on file."""
    return [str(line) for line in payload.get("lines", [])]
