"""Mighty Kingdoms plugged into the engine: what holds whatever the window.

The windows (S, O, B, W1, W2 and over) are declared in the `window_*` modules and run
on through `steps`. The engine's turn is the calendar's: setup is turn 0, then each summer
month and each winter is a turn of its own (`Calendar.turn`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.hexes import HexMap
from pbem.kit.maps import ready_made
from pbem.kit.rulebook import RuleBook
from pbem.kit.scene import Scene
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Context, Player, Ruleset, Settings
from pbem.rulesets.mighty_kingdoms import (
    final,
    position_export,
    setup,
    setup_help,
    window_battle,
    window_deployment,
    window_orders,
    window_purchases,
    window_setup,
)
from pbem.rulesets.mighty_kingdoms import position as positionmod
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.chronicle import when
from pbem.rulesets.mighty_kingdoms.model import (
    BATTLE,
    DEPLOYMENT,
    ORDERS,
    OVER,
    PURCHASES,
    SETUP,
    MKState,
    MKView,
)
from pbem.rulesets.mighty_kingdoms.tiles import campaign_map
from pbem.rulesets.phases import Phase

STORED = "mighty_kingdoms"     # the key of the state in the stored game


class MightyKingdoms(Ruleset[MKState, HexMap]):
    name = "mighty_kingdoms"
    title = "Mighty Kingdoms"
    aliases = ("mk", "kings_of_war")
    templates = "mighty_kingdoms"
    default_map = "mk_three_realms"
    windows: Mapping[str, str] = {SETUP: "5d", window_setup.LISTS: "3d", ORDERS: "4d", BATTLE: "7d",
                                  PURCHASES: "4d", DEPLOYMENT: "3d"}
    phases: Mapping[str, Phase[MKState, HexMap]] = {
        **window_setup.PHASES, ORDERS: window_orders.PHASE, BATTLE: window_battle.PHASE,
        PURCHASES: window_purchases.PHASE, DEPLOYMENT: window_deployment.PHASE, OVER: final.PHASE,
    }
    state_keys = frozenset({STORED})

    def own_ids(self, view: MKView, player: Player) -> Sequence[str]:
        """His armies: order lines start with them."""
        return [army.id for army in view.state.armies_of(player.id)]

    # -- the campaign's start ---------------------------------------------------------------
    def create(self, settings: Settings) -> dict[str, Any]:
        """Kingdoms and no tile held; the first tick rolls the initial player order (window_setup)."""
        players = [(p.id, p.faction_name or p.name) for p in settings.players]
        return self.dump_state(setup.new_state(self.load_map(settings), self.load_rules(settings), players))

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        """A hand-run campaign moved in: docs/positions/mighty_kingdoms.md."""
        state = positionmod.read(settings, self.load_map(settings), self.load_rules(settings), data, source)
        return self.dump_state(state)

    def export_position(self, view: MKView) -> dict[str, Any]:
        """docs/positions/mighty_kingdoms.md, at a summer month's Orders or a winter's W1."""
        return position_export.export(view.state)

    def load_state(self, game: Mapping[str, Any]) -> MKState:
        return from_data(MKState, game[STORED])

    def dump_state(self, state: MKState) -> dict[str, Any]:
        return {STORED: to_data(state)}

    def phase_of(self, state: MKState) -> str:
        window = state.calendar.window
        return window_setup.phase_name(state) if window == SETUP else window

    def turn_of(self, state: MKState) -> int:
        return state.calendar.turn

    def stage_title(self, view: MKView, phase: Phase[MKState, HexMap]) -> str:
        return f"{when(view)}: {phase.title}"

    def ready_maps(self) -> list[str]:
        """The Mighty Kingdoms maps of rules/maps (mk_*): the other systems' maps carry no terrain classes."""
        return [m for m in ready_made() if m.startswith("mk_")]

    def load_map(self, settings: Settings) -> HexMap:
        return campaign_map(settings.map)

    def load_rules(self, settings: Settings) -> RuleBook:
        return rulesmod.load(settings.rules)

    # -- whatever the window ---------------------------------------------------------------------
    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        """The campaign opens with setup: what window S wants, with the map's starting tiles."""
        view = self.view(ctx)
        if view.state.calendar.window != SETUP or view.state.setup.placed:
            return {}
        # the first stage is the automatic roll-off; what the player sends is for window S
        return {"first_step": setup_help.welcome_text(view), "first_title": "Setup: window S"}

    def gm_pending(self, ctx: Context) -> list[str]:
        """Army lists waiting for the GM (MK-PBM-13), lists still owed (MK-PBM-1) and battles waiting
        for his ruling or his grace (MK-PBM-7)."""
        state = self.load_state(ctx.game)
        names = {p: k.name for p, k in state.kingdoms.items()}
        battles = window_battle.gm_pending(self.view(ctx)) if state.calendar.window == BATTLE else []
        return (battles +
                [f"approve the army list of {names[p]}: APPROVE {p} (or REJECT {p} <reason>)"
                 for p in state.setup.pending] +
                [f"the army list {names[p]} still owes: SETLIST {p} <unit> ; <unit> ... or NOARMY {p} if it never "
                 "comes" for p in state.setup.missing])

    def scene(self, view: MKView) -> Scene:
        """The map picture: kingdoms, settlements, towers, armies, this month's moves and battles.
        Nothing on the map is hidden: orders are secret only until the resolution report, which
        shows every order (MK-ORD-12), and explored tiles, settlements and armies are public, so
        there is no private picture."""
        from pbem.rulesets.mighty_kingdoms import picture

        return picture.scene(view)

    def standings(self, ctx: Context) -> list[str]:
        """For the final report: kingdoms, armies with medals and scars, artefacts (A32)."""
        return final.standings(self.load_state(ctx.game))


RULESET = MightyKingdoms()
