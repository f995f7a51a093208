"""Classic Diplomacy plugged into the engine: one stage per phase that needs orders.

Stages and their `[schedule]` windows: `movement` (Spring and Fall orders),
`retreats` (only powers with a dislodged unit that can retreat owe orders) and
`adjustments` (only powers with builds or removals due). A turn is one season:
Spring (movement, retreats) or Fall (movement, retreats, then the Winter
adjustments). A new mail replaces the power's earlier orders for the phase as a
whole. Without orders units hold, dislodged units are disbanded, builds are
waived and removals follow the civil disorder rule; the report names every
power that sent nothing. The game master ends the game in a draw with
`DRAW <power> <power> ...` (or `DRAW ALL`) among the surviving powers.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.campaign import Player, Settings
from pbem.dice import Dice
from pbem.orders import IllegalOrder, OrderProblem
from pbem.rulesets.base import Context, Parsed, Resolution, Ruleset, Stage
from pbem.rulesets.diplomacy import cycle, reporting, submit
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.cycle import ADJUSTMENT, MOVEMENT, OVER, RETREAT
from pbem.rulesets.diplomacy.game import Game, assign_powers, board_named, new_game

KINDS = {MOVEMENT: "movement", RETREAT: "retreats", ADJUSTMENT: "adjustments", OVER: "over"}
WINDOWS = {MOVEMENT: "orders", RETREAT: "retreats", ADJUSTMENT: "adjustments", OVER: "orders"}


class Diplomacy(Ruleset):
    name = "diplomacy"
    title = "Diplomacy"
    aliases = ("dip", "classic", "standard_diplomacy")
    templates = "diplomacy"
    default_map = "standard"
    windows = {"orders": "3d", "retreats": "1d", "adjustments": "1d"}

    def assign(self, map_name: str, players: list[dict[str, str]]) -> list[dict[str, str]]:
        """Each player's faction becomes the power played (see `game` for the rule)."""
        board = board_named(map_name)
        misspelt = [f"player {p['id']!r}: no power is called {p['faction_name']!r}; did you mean {close}?"
                    for p in players if (close := _misspelt(board, p.get("faction_name", "")))]
        if misspelt:            # refused: dealing "Frnace" another power would go unnoticed
            raise ValueError("; ".join(misspelt))
        powers = assign_powers(board, [(p["id"], [p.get("faction", ""), p.get("faction_name", ""), p["id"]])
                                       for p in players])
        by_player = {pid: power for power, pid in powers.items() if pid}
        return [p | {"faction": by_player[p["id"]], "faction_name": by_player[p["id"]]} for p in players]

    def create(self, settings: Settings) -> dict[str, Any]:
        return new_game(settings)

    # -- what we wait for ---------------------------------------------------------
    def stage(self, ctx: Context) -> Stage:
        game = Game(ctx.game, ctx.settings)
        state = game.state
        if state.phase == OVER:
            return Stage("over", "Game over", game.turn + 1, (), WINDOWS[OVER], over=True)
        powers = cycle.owing(game.board, state)
        players = tuple(game.player_of(p) for p in powers if game.player_of(p))
        draw = bool(game.data.get("draw_pending"))
        unattended = bool(powers) and not players and state.phase != MOVEMENT
        return Stage(KINDS[state.phase], state.title, game.turn, players, WINDOWS[state.phase],
                     ready=draw or unattended)

    # -- reading mail -------------------------------------------------------------
    def parse(self, ctx: Context, player: Player, lines: Sequence[tuple[int, str]]) -> Parsed:
        game = Game(ctx.game, ctx.settings)
        power = game.power_of(player)
        if game.state.phase == OVER or not power:
            reason = "the game is over; no orders are read" if power else "you play no power in this game"
            return Parsed(payload={}, problems=[IllegalOrder(reason, n, line) for n, line in lines])
        checked = submit.check_lines(game.board, game.state, power, lines, game.edition)
        payload: dict[str, Any] = {"orders": checked.orders} if checked.accepted else {}
        return Parsed(payload=payload, accepted=checked.accepted, problems=checked.problems)

    def canonical(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        return [str(line) for line in payload.get("orders", [])]

    def missing(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        game = Game(ctx.game, ctx.settings)
        power = game.power_of(player)
        if not power or game.state.phase == OVER:
            return []
        return submit.missing(game.board, game.state, power, payload.get("orders", []))

    def help_text(self, ctx: Context, player: Player) -> str:
        return reporting.help_text(Game(ctx.game, ctx.settings), player)

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        from pbem.rulesets.diplomacy.welcome import welcome

        return welcome(Game(ctx.game, ctx.settings), player)

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        return reporting.status(Game(ctx.game, ctx.settings), player)

    # -- resolving -----------------------------------------------------------------
    def resolve(self, ctx: Context, submissions: Mapping[str, Mapping[str, Any]], dice: Dice) -> Resolution:
        game = Game(ctx.game, ctx.settings)
        turn = game.turn
        if game.data.get("draw_pending"):
            return self._draw(game)
        sent = {power: sub for pid, sub in submissions.items() if (power := game.powers_by_player.get(pid))}
        orders = [(power, text) for power, sub in sent.items() for text in sub.get("orders", [])]
        silent = [p for p in cycle.owing(game.board, game.state) if p not in sent]
        step = cycle.advance(game.board, game.state, orders, game.edition, game.victory)
        game.set_state(step.after)
        reports = reporting.phase_reports(game, step, orders, silent)
        finished = game.turn != turn or step.after.phase == OVER
        return Resolution(game.dump(), reports, turn_finished=finished)

    def _draw(self, game: Game) -> Resolution:
        before = game.state
        game.set_state(cycle.declare_draw(game.board, before, game.data.pop("draw_pending")))
        game.data["draw_pending"] = []
        step = cycle.Step(before, game.state)
        return Resolution(game.dump(), reporting.phase_reports(game, step, [], []), turn_finished=True)

    # -- the game master -----------------------------------------------------------
    def standings(self, ctx: Context) -> list[str]:
        """For the final report of a game the GM ended: supply centres and units per power."""
        game = Game(ctx.game, ctx.settings)
        return [f"{row.power}: {len(row.centres)} supply centres, {row.units} units"
                + (" (eliminated)" if row.eliminated else "") for row in reporting.centre_table(game, game.state)]

    def gm_command(self, ctx: Context, words: Sequence[str]) -> tuple[dict[str, Any], str]:
        game = Game(ctx.game, ctx.settings)
        verb = words[0].upper() if words else ""
        if verb != "DRAW":
            raise ValueError(f"unknown command {verb}; GM commands: RESOLVE, EXTEND, PAUSE, RESUME, "
                             "DRAW <power> <power> ... | DRAW ALL")
        drawn = cycle.declare_draw(game.board, game.state, list(words[1:])).draw
        game.data["draw_pending"] = list(drawn)
        return game.dump(), f"draw declared among {', '.join(drawn)}; the game ends with the next report"


RULESET = Diplomacy()


def _misspelt(board: Board, name: str) -> str:
    """The power a faction name written at `pbem new` was likely meant to be, when it names none
    but comes close ("" for a name that matches, or is far from every power, like a colour)."""
    if not name.strip():
        return ""
    try:
        board.power_names.lookup(name)
    except OrderProblem:
        return board.power_names.suggest(name)
    return ""
