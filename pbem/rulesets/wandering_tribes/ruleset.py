"""Wandering Tribes plugged into the engine: setup (W0), strategic orders (S), battle reports (B)
and the end. The engine's turn counts resolved windows."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RuleBook
from pbem.kit.scene import Scene
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Context, Player, Ruleset, Settings
from pbem.rulesets.phases import Outcome, Phase, Submissions, View
from pbem.rulesets.wandering_tribes import position as positionmod
from pbem.rulesets.wandering_tribes import rules as rulesmod
from pbem.rulesets.wandering_tribes import table, window_battle, window_orders, window_setup
from pbem.rulesets.wandering_tribes.battle_results import ranking
from pbem.rulesets.wandering_tribes.game import BATTLE, ORDERS, OVER, SETUP, WTGame, WTView
from pbem.rulesets.wandering_tribes.squares import SquareMap, load_squares, ready_made

STORED = "wandering_tribes"


def _over_resolve(view: WTView, submissions: Submissions, dice: Any) -> Outcome[WTGame]:
    return Outcome(view.state)


def _over_parse(view: WTView, player: Player, lines: Any) -> Any:
    from pbem.rulesets.base import Parsed

    return Parsed(payload={})


OVER_PHASE = Phase[WTGame, SquareMap](title="campaign over", window=ORDERS, parse=_over_parse,
                                      resolve=_over_resolve, over=True)


class WanderingTribes(Ruleset[WTGame, SquareMap]):
    name = "wandering_tribes"
    title = "Wandering Tribes"
    aliases = ("wt", "warmaster_tribes")
    templates = "wandering_tribes"
    default_map = "wt_four_tribes"
    windows: Mapping[str, str] = {SETUP: "5d", ORDERS: "4d", BATTLE: "7d"}
    phases: Mapping[str, Phase[WTGame, SquareMap]] = {SETUP: window_setup.PHASE, ORDERS: window_orders.PHASE,
                                                      BATTLE: window_battle.PHASE, OVER: OVER_PHASE}
    state_keys = frozenset({STORED})

    def own_ids(self, view: WTView, player: Player) -> Sequence[str]:
        state = view.state.state
        return [s.id for s in state.stacks_of(player.id)] + [m.id for s in state.stacks_of(player.id)
                                                             for m in s.markers]

    def create(self, settings: Settings) -> dict[str, Any]:
        """Setup waits for every player's nation and towns (window W0)."""
        gmap, rules = self.load_map(settings), rulesmod.from_book(self.load_rules(settings))
        if len(gmap.towns()) < len(settings.players):
            raise ValueError(f"map: {len(gmap.towns())} town tiles for {len(settings.players)} players (WT-SET-10)")
        del rules
        return self.dump_state(WTGame())

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        """docs/positions/wandering_tribes.md."""
        rules = rulesmod.from_book(self.load_rules(settings))
        game = positionmod.read([p.id for p in settings.players], self.load_map(settings), rules, data, source)
        return self.dump_state(game)

    def position_opening(self, settings: Settings, game: Mapping[str, Any], dice: Dice) -> dict[str, Any]:
        rules = rulesmod.from_book(self.load_rules(settings))
        return {**game, **self.dump_state(positionmod.opening(self.load_state(game), rules, dice))}

    def export_position(self, view: WTView) -> dict[str, Any]:
        return positionmod.export(view.state)

    def load_state(self, game: Mapping[str, Any]) -> WTGame:
        return from_data(WTGame, game[STORED])

    def dump_state(self, state: WTGame) -> dict[str, Any]:
        return {STORED: to_data(state)}

    def phase_of(self, state: WTGame) -> str:
        return state.phase

    def turn_of(self, state: WTGame) -> int:
        return state.turn

    def stage_title(self, view: View[WTGame, SquareMap], phase: Phase[WTGame, SquareMap]) -> str:
        game = view.state
        if game.phase == ORDERS:
            return f"Strategic round {game.state.round}: orders"
        return "Setup" if game.phase == SETUP else f"After round {game.state.round}: {phase.title}"

    def ready_maps(self) -> list[str]:
        return ready_made()

    def load_map(self, settings: Settings) -> SquareMap:
        return load_squares(settings.map)

    def load_rules(self, settings: Settings) -> RuleBook:
        return rulesmod.load(settings.rules).book

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        view = self.view(ctx)
        if view.state.phase != SETUP:
            return {}
        return {"first_step": window_setup.help_text(view, player)}

    def gm_pending(self, ctx: Context) -> list[str]:
        """Players setup waits for a nation for (`setup.missing_nation = "gm"`); a round under way at the table."""
        game = self.load_state(ctx.game)
        first = next(iter(rulesmod.from_book(self.load_rules(ctx.settings)).nations))
        tasks = [f"assign a nation to {p}: NATION {p} {first}" for p in game.lacking] if game.phase == SETUP else []
        return tasks + table.gm_tasks(game, ctx.settings.name)

    def scene(self, view: WTView) -> Scene:
        from pbem.rulesets.wandering_tribes import picture

        return picture.scene(view)

    def standings(self, ctx: Context) -> list[str]:
        """WT-VIC-3..5: the ranking by marker points (before deployment nobody has a stack yet)."""
        state = self.load_state(ctx.game).state
        if not state.seats:
            return [f"{p.name or p.id}: no stack yet (the campaign ended during setup)" for p in ctx.settings.players]
        names = ctx.settings.names()
        return [f"{place}. {names.get(pid, pid)}: {score} pts" for place, pid, score in ranking(state)]


RULESET = WanderingTribes()
