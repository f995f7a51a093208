"""Daemon Rift plugged into the engine: its phases, typed state, map and rule book.

Windows (DR-GEN-2, DR-TRN-1): `lists` (window 0, until the GM approves every
list 1), `orders` (window 1), `battles` (window 2, only with tabletop battles
pending) and `retreats` (window 3, only with an open retreat choice); each is a
`Phase` in its own module (`phase_lists`, ...). Steps A, B and C (`steps`) run at
the deadlines and chain on at once when a window is not needed. What is left
here holds whatever the window: payload lines, help, status, the GM's verbs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.kit.maps import ready_made_with
from pbem.kit.rulebook import RULES_DIR, RuleBook
from pbem.kit.scene import Scene
from pbem.kit.territories import GameMap, load_map
from pbem.rulesets.base import Context, Player, Ruleset, Settings
from pbem.rulesets.daemon_rift import (
    battle_window,
    game_state,
    options,
    phase_battles,
    phase_lists,
    phase_orders,
    phase_over,
    phase_retreats,
    position,
    position_export,
    reporting,
    scoring,
    setup,
)
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView
from pbem.rulesets.daemon_rift.players import PLAYER_FIELDS
from pbem.rulesets.phases import GMVerb, Phase


@lru_cache(maxsize=16)
def campaign_map(name: str) -> GameMap:
    path = Path(name) if name.endswith(".toml") else RULES_DIR / "maps" / f"{name}.toml"
    return load_map(path)


def home_of(player: Player) -> str:
    """The home a player chose for his faction's stronghold (`pbem new`), "" for the map's own."""
    return player.extras.get("home", "")


class DaemonRift(Ruleset[DRGame, GameMap]):
    name = "daemon_rift"
    title = "Daemon Rift"
    aliases = ("dr", "daemonrift", "daemon_rift")
    templates = "daemon_rift"
    default_map = "rift_valley"
    windows: Mapping[str, str] = {"lists": "7d", "orders": "7d", "battles": "7d", "retreats": "2d"}
    player_fields = PLAYER_FIELDS

    def ready_maps(self) -> list[str]:
        """The territory maps of rules/maps (Daemon Rift's kind)."""
        return ready_made_with("territories")

    def own_ids(self, view: DRView, player: Player) -> Sequence[str]:
        """His tokens and lists, and the entries of his lists (a post-battle sheet names them)."""
        dr = view.state.dr
        lists = [lst for lst in dr.lists.values() if lst.faction == player.faction]
        entries = [name for lst in lists for e in lst.roster.entries for name in (e.id, e.name)]
        return [*(t for t, token in dr.tokens.items() if token.faction == player.faction),
                *(lst.key for lst in lists), *(lst.name for lst in lists), *entries]

    phases: Mapping[str, Phase[DRGame, GameMap]] = {
        "lists": phase_lists.LISTS, "orders": phase_orders.ORDERS, "battles": phase_battles.BATTLES,
        "retreats": phase_retreats.RETREATS, "over": phase_over.OVER}
    gm_verbs: Sequence[GMVerb[DRGame, GameMap]] = (battle_window.RESULT, battle_window.SHEET, phase_lists.APPROVE)
    """Open whatever the window: a list for a new token waits for APPROVE in any window (DR-LST-8), and the
    GM's RESULT for a battle not pending is answered with why."""
    state_keys = game_state.GAME_KEYS

    # -- the typed state -----------------------------------------------------------
    def load_state(self, game: Mapping[str, Any]) -> DRGame:
        return game_state.load(game)

    def dump_state(self, state: DRGame) -> dict[str, Any]:
        return game_state.dump(state)

    def phase_of(self, state: DRGame) -> str:
        return state.dr.phase

    def turn_of(self, state: DRGame) -> int:
        return state.dr.turn

    def load_map(self, settings: Settings) -> GameMap:
        return campaign_map(settings.map)

    def load_rules(self, settings: Settings) -> RuleBook:
        return options.load(settings.rules)

    # -- setup -----------------------------------------------------------------
    def create(self, settings: Settings) -> dict[str, Any]:
        specs = [(p.faction, p.faction_name or p.name, p.id, home_of(p)) for p in settings.players]
        state = setup.new_state(self.load_map(settings), self.load_rules(settings), specs)
        return game_state.dump(DRGame(dr=state))

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        game = position.read(self.load_map(settings), self.load_rules(settings), settings, data, source, home_of)
        return game_state.dump(game)

    def export_position(self, view: DRView) -> dict[str, Any]:
        """docs/positions/daemon_rift.md, at the orders window."""
        return position_export.export(view.state)

    # -- whatever the window ---------------------------------------------------------
    def combine_payloads(self, previous: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
        return reporting.merge_payloads(previous, new)

    def canonical_lines(self, view: DRView, player: Player, payload: Mapping[str, Any]) -> list[str]:
        return reporting.canonical_lines(payload)

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        from pbem.rulesets.daemon_rift.welcome import welcome

        return welcome(self.view(ctx), player)

    def gm_pending(self, ctx: Context) -> list[str]:
        view = self.view(ctx)
        lists = [f"approve the list of {token}: APPROVE {token}" for token in sorted(view.state.pending_lists)]
        battles = [f"the result of battle {b.number}: RESULT {b.number} <winner|draw>"
                   for b in battle_window.tabletop_battles(view)
                   if view.state.dr.phase == "battles" and str(b.number) not in battle_window.accepted(view)
                   and battle_window.needs_gm(view)]
        return lists + battles

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        return reporting.status(self.view(ctx), player)

    def scene(self, view: DRView) -> Scene:
        """The map picture: control, strongholds, tokens with their ids, and what the last resolved
        window did (pbem/pictures). Nothing on the map is hidden from anyone: orders are secret only
        until the deadline (DR-ORD-2) and tokens stand in the open, so there is no private picture."""
        from pbem.rulesets.daemon_rift import picture

        return picture.scene(view.state.dr, view.settings.name, view.state.last)

    def standings(self, ctx: Context) -> list[str]:
        """For the final report of a campaign the GM ended: the score as if it ended now (DR-VP)."""
        view = self.view(ctx)
        return [f"{row.rank or '-'}. {row.name}: {row.total} points" + (" (eliminated)" if row.eliminated else "")
                for row in scoring.scores(view.state.dr, view.map, view.rules)]


RULESET = DaemonRift()
