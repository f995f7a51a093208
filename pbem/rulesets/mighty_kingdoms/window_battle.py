"""Window: battle."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms.model import MKState, MKView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions


def parse(view: MKView, player: Player, lines: Lines) -> Parsed:
    raise NotImplementedError("battle window")


def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    raise NotImplementedError("battle window")


PHASE = Phase[MKState, HexMap](title="battle", window="battle", parse=parse, resolve=resolve)
