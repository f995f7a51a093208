"""Star Wars Miniatures plugged into the engine: what holds whatever the window.

The windows (pick order, S1, S2, CI, E, A, B, over) are declared in `windows`, the rules that
run between them in `turn`. The engine's turn is the campaign turn: setup is turn 0, and the
turn moves on when a turn's Initiative Phase runs (S2 for turn 1, CI for the others).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pbem.kit.maps import map_path
from pbem.kit.rulebook import RuleBook
from pbem.kit.scene import Scene
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Context, Player, Ruleset, Settings
from pbem.rulesets.phases import Phase
from pbem.rulesets.star_wars_miniatures import gm, late, picture, report, victory
from pbem.rulesets.star_wars_miniatures import position as positionmod
from pbem.rulesets.star_wars_miniatures import rules as rulesmod
from pbem.rulesets.star_wars_miniatures import windows as windowsmod
from pbem.rulesets.star_wars_miniatures.catalog import catalog_of
from pbem.rulesets.star_wars_miniatures.model import PICK, Land, SWMState
from pbem.rulesets.star_wars_miniatures.model import Player as Side
from pbem.rulesets.star_wars_miniatures.regions import RegionMap, load_map

STORED = "star_wars_miniatures"
READY = {"swm_ten_factions": Path(__file__).resolve().parents[3] / "rules" / "star_wars_miniatures" /
         "ten_factions.toml"}


class StarWarsMiniatures(Ruleset[SWMState, RegionMap]):
    name = "star_wars_miniatures"
    title = "Star Wars Miniatures"
    aliases = ("swm",)
    templates = "star_wars_miniatures"
    default_map = "swm_ten_factions"
    windows: Mapping[str, str] = {"factions": "4d", "squads": "5d", "initiative": "3d", "economics": "3d",
                                  "action": "4d", "battle": "7d"}
    phases: Mapping[str, Phase[SWMState, RegionMap]] = windowsmod.PHASES
    state_keys = frozenset({STORED})
    gm_verbs = gm.VERBS

    def own_ids(self, view: windowsmod.SWMView, player: Player) -> Sequence[str]:
        """His squads and troops: order lines name them."""
        mine = view.state.squads_of(player.id)
        return [s.id for s in mine] + [t.id for s in mine for t in s.troops]

    def create(self, settings: Settings) -> dict[str, Any]:
        """Players without factions and every territory waiting for setup; the first tick rolls
        the pick order (SWM-SET-3)."""
        book, places = self.load_rules(settings), self.load_map(settings)
        catalog_of(book)                       # a catalog with mistakes is refused now, every one at once
        count = len(settings.players)
        if not book["campaign.min_players"] <= count <= book["campaign.max_players"]:
            raise ValueError(f"players: {count}; the campaign takes {book['campaign.min_players']} to "
                             f"{book['campaign.max_players']} players, one per faction (SWM-GEN-3)")
        if count > len(places.regions):
            raise ValueError(f"players: {count}, but the map has only {len(places.regions)} start regions")
        state = SWMState(window=PICK, players={p.id: Side(p.id) for p in settings.players},
                         lands={t: Land() for t in places.places()})
        return self.dump_state(state)

    def creation_warnings(self, settings: Settings) -> list[str]:
        """SWM-WIN-6 at `pbem new`: capitals to win that so few players can never hold."""
        warning = victory.creation_warning(self.load_map(settings), self.load_rules(settings), len(settings.players))
        return [warning] if warning else []

    def position(self, settings: Settings, data: Mapping[str, Any], source: str) -> dict[str, Any]:
        """A hand-run campaign moved in: docs/positions/star_wars_miniatures.md."""
        state = positionmod.read([p.id for p in settings.players], self.load_map(settings),
                                 self.load_rules(settings), data, source)
        return self.dump_state(state)

    def export_position(self, view: windowsmod.SWMView) -> dict[str, Any]:
        return positionmod.export(view.state)

    def load_state(self, game: Mapping[str, Any]) -> SWMState:
        return from_data(SWMState, game[STORED])

    def dump_state(self, state: SWMState) -> dict[str, Any]:
        return {STORED: to_data(state)}

    def phase_of(self, state: SWMState) -> str:
        return state.window

    def turn_of(self, state: SWMState) -> int:
        return state.turn

    def stage_title(self, view: windowsmod.SWMView, phase: Phase[SWMState, RegionMap]) -> str:
        turn = view.state.turn + (1 if view.state.window == "initiative" else 0)
        return f"Turn {turn}: {phase.title}" if turn else f"Setup: {phase.title}"

    def ready_maps(self) -> list[str]:
        return list(READY)

    def load_map(self, settings: Settings) -> RegionMap:
        return load_map(READY.get(settings.map, map_path(settings.map)))

    def load_rules(self, settings: Settings) -> RuleBook:
        return rulesmod.load(settings.rules)

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        view = self.view(ctx)
        if view.state.turn:
            return {}
        regions = ", ".join(f"{r} {g.name}" for r, g in view.map.regions.items())
        return {"first_title": "Setup: factions and start regions",
                "first_step": "First the processor rolls the pick order. Then rank the factions and the start "
                              "regions you want, best first, one per line: PICK Imperial, PICK Rebel, "
                              f"REGION R1, REGION R2 IF Sith. Regions: {regions}."}

    def gm_pending(self, ctx: Context) -> list[str]:
        return late.gm_pending(self.view(ctx))

    def scene(self, view: windowsmod.SWMView) -> Scene:
        return picture.scene(view)

    def standings(self, ctx: Context) -> list[str]:
        """The victors, or each player's squads and treasury, players by name."""
        state, names = self.load_state(ctx.game), report.names_of(ctx.settings)
        if state.winners:
            return [f"Victors: {', '.join(names.get(p, p) for p in state.winners)}"]
        return [f"{names.get(p, p)}: {len(state.squads_of(p))} squads, treasury {me.treasury}"
                for p, me in state.players.items()]


RULESET = StarWarsMiniatures()
