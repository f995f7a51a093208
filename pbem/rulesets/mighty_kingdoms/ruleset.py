"""Mighty Kingdoms plugged into the engine: what holds whatever the window.

The windows (S, O, B, W1, W2 and over) are declared in the `window_*` modules and run
on through `steps`. The engine's turn is the calendar's: setup is turn 0, then each summer
month and each winter is a turn of its own (`Calendar.turn`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Ruleset, Settings
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms import (
    window_battle,
    window_deployment,
    window_orders,
    window_purchases,
    window_setup,
)
from pbem.rulesets.mighty_kingdoms.chronicle import when
from pbem.rulesets.mighty_kingdoms.model import (
    BATTLE,
    DEPLOYMENT,
    ORDERS,
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
    windows: Mapping[str, str] = {SETUP: "5d", ORDERS: "4d", BATTLE: "7d", PURCHASES: "4d", DEPLOYMENT: "3d"}
    phases: Mapping[str, Phase[MKState, HexMap]] = {
        SETUP: window_setup.PHASE, ORDERS: window_orders.PHASE, BATTLE: window_battle.PHASE,
        PURCHASES: window_purchases.PHASE, DEPLOYMENT: window_deployment.PHASE,
    }
    state_keys = frozenset({STORED})

    def load_state(self, game: Mapping[str, Any]) -> MKState:
        return from_data(MKState, game[STORED])

    def dump_state(self, state: MKState) -> dict[str, Any]:
        return {STORED: to_data(state)}

    def phase_of(self, state: MKState) -> str:
        return state.calendar.window

    def turn_of(self, state: MKState) -> int:
        return state.calendar.turn

    def stage_title(self, view: MKView, phase: Phase[MKState, HexMap]) -> str:
        return f"{when(view)}: {phase.title}"

    def load_map(self, settings: Settings) -> HexMap:
        return campaign_map(settings.map)

    def load_rules(self, settings: Settings) -> RuleBook:
        return rulesmod.load(settings.rules)


RULESET = MightyKingdoms()
