"""A test-only rule system that hides something on the map: Tally on the Rift Valley map, where
each player's scout stands on a territory of its own (the n-th player's on T24 + n) and nobody sees
another's scout. The public picture shows no scout; each player's private report shows his own
(`Ruleset.private_scene`). Registered by tests through the registry."""

from __future__ import annotations

from pathlib import Path
from types import MappingProxyType
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RULES_DIR
from pbem.kit.scene import Piece, Scene, Side
from pbem.kit.territories import GameMap, load_map
from pbem.rulesets.base import Player, Report, Settings
from pbem.rulesets.phases import Outcome, Phase, Submissions, View
from tests.support.tally_ruleset import ORDERS, Tally, TallyRules
from tests.support.tally_ruleset import resolve as tally_resolve

TEMPLATES = Path(__file__).resolve().parents[1] / "plugins" / "pbem_skirmish" / "templates"


def scout_of(settings: Settings, player: Player) -> Piece:
    index = [p.id for p in settings.players].index(player.id)
    return Piece(f"scout {player.id}", f"T{24 + index}", player.id, "token")


def resolve(view: View[Tally, Any], submissions: Submissions, dice: Dice) -> Outcome[Tally]:
    """Tally's turn, with a public report and one private report per player."""
    turn = view.state.turn
    out = tally_resolve(view, submissions, dice)
    out.reports.append(Report("turn_report", f"Turn {turn} report", ("*",), {"turn": turn, "lines": []},
                              public=True, key="report"))
    for p in view.settings.players:
        out.reports.append(Report("turn_report", f"Turn {turn}: your scout", (p.id,),
                                  {"turn": turn, "lines": [f"your scout stands on {scout_of(view.settings, p).place}"]},
                                  key=f"private-{p.id}"))
    return out


class HiddenScouts(TallyRules):
    name = "hidden_scouts"
    title = "Hidden Scouts"
    templates = str(TEMPLATES)
    phases = MappingProxyType({"orders": Phase(ORDERS.title, ORDERS.window, ORDERS.parse, resolve, owing=ORDERS.owing)})

    def load_map(self, settings: Settings) -> GameMap:  # type: ignore[override]
        return load_map(RULES_DIR / "maps" / "rift_valley.toml")

    def _scene(self, view: View[Tally, Any], pieces: tuple[Piece, ...]) -> Scene:
        sides = tuple(Side(p.id, p.name) for p in view.settings.players)
        return Scene(f"{view.settings.name}: Turn {view.state.turn}", "orders", sides, pieces=pieces)

    def scene(self, view: View[Tally, Any]) -> Scene:
        return self._scene(view, ())

    def private_scene(self, view: View[Tally, Any], player: Player) -> Scene:
        return self._scene(view, (scout_of(view.settings, player),))


RULESET = HiddenScouts()
