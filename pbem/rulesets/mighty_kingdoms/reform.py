"""Reform (MK-REF-1..10, MED, SCR, POR)."""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MKView


def run(view: MKView, dice: Dice, sections: list[Section]) -> None:
    """Stand up, turn settlements upright, clear markers, occupancy control, capital artefacts,
    medal and scar rolls, removals, player order."""
    raise NotImplementedError("reform")
