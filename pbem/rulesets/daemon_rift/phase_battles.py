"""Window 2: battle results (DR-BAT-8), open only with tabletop battles pending. The reading and
deciding of results and sheets is in `battle_window`; when every battle is settled Step B runs."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.territories import GameMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.daemon_rift import battle_window, reporting, steps
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions


def owing(view: DRView) -> list[str]:
    return [view.player_of(f) for f in battle_window.factions_owing(view)]


def parse(view: DRView, player: Player, lines: Lines) -> Parsed:
    return battle_window.parse_results(view, player.faction, list(lines))


def resolve(view: DRView, submissions: Submissions, dice: Dice) -> steps.Turn:
    out, turn = Outcome(view.state), view.state.dr.turn
    out.gm_alerts += battle_window.collect(view, steps.by_faction(view, submissions), dice, final=True)
    if not battle_window.needs_gm(view):
        steps.step_b(view, dice, out)
        out.gm_alerts += view.state.postbattle.alerts
    steps.titled(view, turn, "battle results")
    return out


BATTLES: Phase[DRGame, GameMap] = Phase(
    title="battle results", window="battles", parse=parse, resolve=resolve,
    words=lambda view: ("SHEET", "RESULT", "ROLLOFF"),
    owing=owing, ready=battle_window.all_results_in, waiting_for_gm=battle_window.needs_gm,
    help=reporting.help_text)
