"""Window 3: retreats (DR-RET-9), open only while a retreating token has more than one place to
go; then Step C ends the turn."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.territories import GameMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift import reporting, steps
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions


def owing(view: DRView) -> list[str]:
    return [view.player_of(f) for f in view.state.open_retreat_factions()]


def parse(view: DRView, player: Player, lines: Lines) -> Parsed:
    options = view.state.retreat_options(player.faction)
    choices, accepted, problems = dr_parse.parse_retreats(view.state.dr, view.map, player.faction, list(lines),
                                                          options)
    return Parsed(payload={"retreats": choices} if choices else {}, accepted=accepted, problems=problems)


def resolve(view: DRView, submissions: Submissions, dice: Dice) -> steps.Turn:
    out, turn = Outcome(view.state), view.state.dr.turn
    sent = steps.by_faction(view, submissions)
    choices = {t: c for sub in sent.values() for t, c in sub.get("retreats", {}).items()}
    steps.step_c(view, choices, out)
    steps.titled(view, turn, "retreats")
    return out


RETREATS: Phase[DRGame, GameMap] = Phase(
    title="retreats", window="retreats", parse=parse, resolve=resolve,
    words=lambda view: ("RETREAT",), owing=owing, help=reporting.help_text)
