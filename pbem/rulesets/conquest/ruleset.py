"""Campaigns of Conquest plugged into the engine: what holds whatever the window.

The windows themselves (S, 1, 2, 3, 4 and over) are declared in `windows`, and how
each closes into its step (0, A, B, C, D) in `steps`. The stage is the window the
round waits in (COC-TRN-1). The capital picks (window S) are turn 0, so `pbem
rollback` from round 1 goes back to them; round N is turn N.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.maps import ready_made_with
from pbem.kit.rulebook import RuleBook
from pbem.kit.scene import Resolved, Scene
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Context, Player, Ruleset, Settings
from pbem.rulesets.conquest import battle_orders, guide, order, position_export, reporting, setup
from pbem.rulesets.conquest import position as positionmod
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.empire import size_of
from pbem.rulesets.conquest.model import W_CAMPAIGN, W_CAPITALS, ConquestState, ConquestView
from pbem.rulesets.conquest.tiles import campaign_map
from pbem.rulesets.conquest.windows import PHASES
from pbem.rulesets.phases import Phase

STORED = "conquest"            # the key of the state in the stored game


class Conquest(Ruleset[ConquestState, HexMap]):
    name = "conquest"
    title = "Campaigns of Conquest"
    aliases = ("coc", "campaigns_of_conquest", "mighty_empires")
    templates = "conquest"
    default_map = "four_marches"
    windows: Mapping[str, str] = {"capitals": "3d", "campaign": "4d", "setup": "3d", "results": "10d", "conquest": "4d"}
    per_entry = frozenset({"setup", "results"})    # set-ups and results are given battle by battle
    phases = PHASES

    def ready_maps(self) -> list[str]:
        """The hex maps of rules/maps drawn for Conquest (the mk_* maps are Mighty Kingdoms')."""
        return [m for m in ready_made_with("tiles") if not m.startswith("mk_")]

    # -- the campaign's state ------------------------------------------------------------

    def create(self, settings: Settings) -> dict[str, Any]:
        rules = self.load_rules(settings)
        players = [(p.id, p.name, p.faction_name or p.name) for p in settings.players]
        state = setup.new_state(campaign_map(settings.map, rules), rules, players)
        state.round.number, state.round.window = 0, W_CAPITALS            # setup is turn 0
        return self.dump_state(state)

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        """A campaign started from a position written by hand: docs/positions/conquest.md."""
        rules = self.load_rules(settings)
        return self.dump_state(positionmod.read(settings, campaign_map(settings.map, rules), rules, data, source))

    def export_position(self, view: ConquestView) -> dict[str, Any]:
        """docs/positions/conquest.md, from the campaign as it stands."""
        return position_export.export(view.state)

    def position_opening(self, settings: Settings, game: Mapping[str, Any], dice: Dice) -> dict[str, Any]:
        """A position at window 1 without `order`: the round opens here, sizes counted and the
        tie-breaks rolled as step 0 does (COC-ORD-2)."""
        state = self.load_state(game)
        if state.round.window != W_CAMPAIGN or state.round.order:
            return dict(game)
        order.open_round(state, self.load_rules(settings), dice, state.round.number)
        return self.dump_state(state)

    def load_state(self, game: Mapping[str, Any]) -> ConquestState:
        state = from_data(ConquestState, game[STORED])
        stored_round = game[STORED].get("round", {})
        if "log_shown" not in stored_round:            # stored before the round kept its own scratch
            state.round.log_shown = int(game.get("log_shown", 0))
            state.round.standing_setups = {p: battle_orders.setup_orders({"setup": s})
                                           for p, s in game.get("standing", {}).items() if s}
        return state

    def dump_state(self, state: ConquestState) -> dict[str, Any]:
        data = to_data(state)
        if state.last == Resolved():          # no window resolved yet: no picture record
            del data["last"]
        return {STORED: data}

    def phase_of(self, state: ConquestState) -> str:
        return state.round.window

    def turn_of(self, state: ConquestState) -> int:
        return state.round.number

    def stage_title(self, view: ConquestView, phase: Phase[ConquestState, HexMap]) -> str:
        return f"{reporting.when(view.state)}: {phase.title}"

    def load_map(self, settings: Settings) -> HexMap:
        return campaign_map(settings.map, self.load_rules(settings))

    def load_rules(self, settings: Settings) -> RuleBook:
        return rulesmod.load(settings.rules)

    # -- whatever the window -----------------------------------------------------------------
    def canonical_lines(self, view: ConquestView, player: Player, payload: Mapping[str, Any]) -> list[str]:
        return reporting.canonical(view.state, view.map, view.rules, player.id, payload)

    def gm_pending(self, ctx: Context) -> list[str]:
        state = self.load_state(ctx.game)
        return [f"your ruling on {ident}: RESULT {ident} ... or ABSTRACT {ident}" for ident in state.round.disputed]

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        """The campaign opens with the capital picks: no player holds a tile before them."""
        view = self.view(ctx)
        if view.state.round.window != W_CAPITALS:
            return {}
        return {"first_step": "The campaign opens with the capital picks: send a `CAPITAL` line naming the "
                              "cities you would take as your capital, best first, like "
                              f"`{guide.capital_example(view)}` (and a `NEWCITY` line with tiles for a new city, "
                              "used only if none of them is left); How to write below lists the legal capital "
                              "cities. The picks are made in an order the dice draw, and the report that "
                              "follows names every capital. Later rounds open with events, chosen by name: "
                              f"{', '.join(guide.events_list(view))}."}

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        """STATUS replies: the shared ack lists `control`; there are no tokens in this system."""
        view = self.view(ctx)
        mine = reporting.private_context(view.state, view.map, view.rules, player.id)
        capitals = guide.legal_capitals(view) if view.state.round.window == W_CAPITALS else []
        return {**mine, "tokens": [], "control": mine["holdings"] or ["nothing"], "capitals": capitals,
                "event_names": guide.events_list(view)}

    def scene(self, view: ConquestView) -> Scene:
        """The map picture: tiles by owner, capitals, buildings, sieges and assaults, and what the last
        window did (pbem/pictures). Everything on the map is public (COC-TRN-7 publishes the map with
        every step); only treasuries, EP and permissions are private, and they are not on the map,
        so there is no private picture."""
        from pbem.rulesets.conquest import picture

        return picture.scene(view.state, view.settings.name)

    def standings(self, ctx: Context) -> list[str]:
        """For the final report of a campaign the GM ended: empire sizes, largest first (COC-WIN)."""
        state, rules = self.load_state(ctx.game), self.load_rules(ctx.settings)
        sizes = {p: size_of(state, p, rules) for p in state.empires}
        return [f"{state.empires[p].name}: empire size {sizes[p]:g}" + (" (eliminated)" if state.empires[p].eliminated
                                                                       else "")
                for p in sorted(sizes, key=lambda p: (-sizes[p], p))]


RULESET = Conquest()
