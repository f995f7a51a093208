"""Classic Diplomacy plugged into the engine: one stage per phase that needs orders.

Stages and their `[schedule]` windows: `movement` (Spring and Fall orders),
`retreats` (only powers with a dislodged unit that can retreat owe orders) and
`adjustments` (only powers with builds or removals due); each is declared in
`phases`. A turn is one season: Spring (movement, retreats) or Fall (movement,
retreats, then the Winter adjustments). A new mail replaces the power's earlier
orders for the phase as a whole. Without orders units hold, dislodged units are
disbanded, builds are waived and removals follow the civil disorder rule; the
report names every power that sent nothing. The game master ends the game in a
draw with `DRAW <power> <power> ...` (or `DRAW ALL`) among the surviving powers.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.maps import ready_made_with
from pbem.kit.orders import OrderProblem
from pbem.kit.rulebook import RuleBook, load_rules
from pbem.kit.scene import Scene
from pbem.rulesets.base import Context, Player, PositionError, Ruleset, Settings
from pbem.rulesets.diplomacy import reporting, start
from pbem.rulesets.diplomacy.board import Board, MapError, standard_board
from pbem.rulesets.diplomacy.cycle import opening
from pbem.rulesets.diplomacy.phases import DRAW, KINDS, PHASES
from pbem.rulesets.diplomacy.powers import assign_powers, player_names
from pbem.rulesets.diplomacy.results import EDITIONS
from pbem.rulesets.diplomacy.state import DiplomacyState, DipView, dump_state, load_state
from pbem.rulesets.phases import Phase


def board_named(name: str) -> Board:
    """A Diplomacy map in rules/maps/ (e.g. `standard`)."""
    try:
        board = standard_board(name)
    except MapError as exc:
        raise ValueError(f"map {name!r} is not a Diplomacy map ({exc}); use e.g. --map standard") from exc
    if not board.powers:
        raise ValueError(f"map {name!r} has no powers; Diplomacy needs a map like 'standard'")
    return board


class Diplomacy(Ruleset[DiplomacyState, Board]):
    name = "diplomacy"
    title = "Diplomacy"
    aliases = ("dip", "classic", "standard_diplomacy")
    templates = "diplomacy"
    default_map = "standard"
    windows: Mapping[str, str] = {"orders": "3d", "retreats": "1d", "adjustments": "1d"}
    phases = PHASES
    gm_verbs = (DRAW,)            # a draw may be declared whatever the phase (and is refused once the game is over)
    state_keys = frozenset({"last"})
    """`last` is left out of the stored game until a phase was resolved: a stored one is replaced."""

    def ready_maps(self) -> list[str]:
        """The province maps of rules/maps (Diplomacy's kind)."""
        return ready_made_with("provinces")

    def assign(self, map_name: str, players: list[dict[str, str]]) -> list[dict[str, str]]:
        """Each player's faction becomes the power played (see `powers` for the rule)."""
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
        board, year = self.load_map(settings), int(self.load_rules(settings)["start_year"])
        powers = assign_powers(board, [(p.id, player_names(p)) for p in settings.players])
        return dump_state(DiplomacyState(opening(board, year), year, powers))

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        board, rules = self.load_map(settings), self.load_rules(settings)
        powers = assign_powers(board, [(p.id, player_names(p)) for p in settings.players])
        return dump_state(start.read_position(board, rules, powers, data, source))

    def export_position(self, view: DipView) -> dict[str, Any]:
        """docs/positions/diplomacy.md; the game over (a winner or a draw) has no position to write."""
        if view.state.position.phase not in start.SEASONS:
            raise PositionError("export", ["the game is over: a position is written while a phase waits for orders"])
        return start.export_position(view.state)

    # -- the typed state ----------------------------------------------------------
    def load_state(self, game: Mapping[str, Any]) -> DiplomacyState:
        return load_state(game)

    def dump_state(self, state: DiplomacyState) -> dict[str, Any]:
        return dump_state(state)

    def phase_of(self, state: DiplomacyState) -> str:
        return KINDS[state.position.phase]

    def turn_of(self, state: DiplomacyState) -> int:
        """The over stage counts as the turn after the last one played, whose reports are history."""
        return state.turn + 1 if state.over else state.turn

    def stage_title(self, view: DipView, phase: Phase[DiplomacyState, Board]) -> str:
        """"Spring 1901 movement", "Winter 1901 adjustments"; "Game over" once it is."""
        position = view.state.position
        return phase.title if phase.over else f"{position.season.title()} {position.year} {phase.title}"

    def load_map(self, settings: Settings) -> Board:
        return board_named(settings.map)

    def load_rules(self, settings: Settings) -> RuleBook:
        rules = load_rules("diplomacy", settings.rules)
        if rules["edition"] not in EDITIONS:
            raise ValueError(f"rules.edition: {rules['edition']!r} is not one of {', '.join(EDITIONS)}")
        return rules

    # -- whatever the phase -------------------------------------------------------
    def canonical_lines(self, view: DipView, player: Player, payload: Mapping[str, Any]) -> list[str]:
        return [str(line) for line in payload.get("orders", [])]

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        from pbem.rulesets.diplomacy.welcome import welcome

        return welcome(self.view(ctx), player)

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        return reporting.status(self.view(ctx), player)

    def scene(self, view: DipView) -> Scene:
        """The map picture: supply-centre owners, every unit, and the orders of the last resolution
        (pbem/pictures). Diplomacy hides nothing on the board: orders are secret only until they are
        resolved, and every unit stands in the open, so there is no private picture."""
        from pbem.rulesets.diplomacy import picture

        return picture.scene(view.map, view.state.position, view.settings.name, view.state.last)

    def standings(self, ctx: Context) -> list[str]:
        """For the final report of a game the GM ended: supply centres and units per power."""
        view = self.view(ctx)
        return [f"{row.power}: {len(row.centres)} supply centres, {row.units} units"
                + (" (eliminated)" if row.eliminated else "")
                for row in reporting.centre_table(view, view.state.position)]


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
