"""Window: orders."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms.model import MKState, MKView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions


def parse(view: MKView, player: Player, lines: Lines) -> Parsed:
    raise NotImplementedError("orders window")


def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    raise NotImplementedError("orders window")


PHASE = Phase[MKState, HexMap](title="orders", window="orders", parse=parse, resolve=resolve)
