"""Window: setup."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms.model import MKState, MKView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions


def parse(view: MKView, player: Player, lines: Lines) -> Parsed:
    raise NotImplementedError("setup window")


def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    raise NotImplementedError("setup window")


PHASE = Phase[MKState, HexMap](title="setup", window="setup", parse=parse, resolve=resolve)
