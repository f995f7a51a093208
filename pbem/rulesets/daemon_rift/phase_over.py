"""The campaign is over (DR-VP): nothing is owed, and any lines are answered as such."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.orders import InvalidOrder
from pbem.kit.territories import GameMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.daemon_rift import reporting
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions


def parse(view: DRView, player: Player, lines: Lines) -> Parsed:
    return Parsed(payload={}, problems=[InvalidOrder("the campaign is over; no orders are read", n, l)
                                        for n, l in lines])


def resolve(view: DRView, submissions: Submissions, dice: Dice) -> Outcome[DRGame]:
    return Outcome(view.state)


OVER: Phase[DRGame, GameMap] = Phase(
    title="campaign over", window="orders", parse=parse, resolve=resolve, over=True, help=reporting.help_text)
