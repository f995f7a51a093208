"""Battle selection (MK-BAT-1..12, MK-PBM-3): who fights where, slaughters applied at once."""

from __future__ import annotations

from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MKView


def select(view: MKView, sections: list[Section]) -> bool:
    """Run the selection loop on from `state.battle.next_chooser`: slaughters are applied and
    logged; when a tabletop battle is chosen it is recorded (pending) in `state.battle.battles`
    and True is returned (window B opens). False once no contested tile remains."""
    raise NotImplementedError("battle selection")
