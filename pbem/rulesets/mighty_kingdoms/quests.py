"""Wizard's quests (MK-QST-1..18): parsed in window W1, run after the purchase cycles."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.rulesets.base import Player
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MKView
from pbem.rulesets.phases import Submissions


def parse(view: MKView, player: Player, words: Sequence[str]) -> dict[str, Any]:
    """One `QUEST ...` line (the words after QUEST) as a payload entry; raises InvalidOrder."""
    raise NotImplementedError("quests")


def run(view: MKView, submissions: Submissions, dice: Dice, sections: list[Section]) -> None:
    """The quests of every player in player order, one per player per round (MK-QST-18)."""
    raise NotImplementedError("quests")
