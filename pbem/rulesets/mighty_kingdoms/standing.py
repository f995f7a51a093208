"""Standing preferences (MK-PBM-5): lines any window accepts, kept until replaced or cleared."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.rulesets.base import Player
from pbem.rulesets.mighty_kingdoms.model import MKState, MKView

VERBS = ("BATTLE", "SLAUGHTER", "RETREAT", "WINMOVE", "REFORM")


def parse(view: MKView, player: Player, verb: str, words: Sequence[str]) -> dict[str, Any]:
    """One standing-preference line (verb upper case, the words after it) as a payload entry under
    "standing"; raises InvalidOrder naming what is wrong."""
    raise NotImplementedError("standing preferences")


def apply(state: MKState, player: str, payload: Mapping[str, Any]) -> None:
    """Write a submission's standing preferences into the player's `Kingdom.standing`."""
    raise NotImplementedError("standing preferences")
