"""Magical artefacts: one campaign-wide pool, each owned by one player and one army (MK-ART-1..14).

An artefact nobody owns is in the pool (no `Holding`); a held one sits on a unit of one of
its owner's armies, or at his capital (`Holding.army == ""`).
"""

from __future__ import annotations

from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import Holding, MKState


def carried_by(state: MKState, army: str, unit: str = "") -> list[str]:
    """The artefacts on an army (or on one of its units)."""
    return [name for name, h in state.artefacts.items() if h.army == army and (not unit or h.unit == unit)]


def release(state: MKState, army: str, unit: str, section: Section) -> None:
    """MK-ART-13: the artefacts of a unit or army lost other than by capture (scar, retreat,
    slaughter, disbanding) go to the owner's capital if he controls it, else back to the pool."""
    for name in carried_by(state, army, unit):
        owner = state.artefacts[name].owner
        if state.capital_of(owner):
            state.artefacts[name] = Holding(owner)
            section.add(f"{name} is held at {state.kingdoms[owner].name}'s capital")
        else:
            del state.artefacts[name]
            section.add(f"{name} goes back to the pool ({state.kingdoms[owner].name} holds no capital)")


def capital_taken(state: MKState, tile: str, taker_army: str, section: Section) -> None:
    """MK-ART-9: the artefacts held at a capital another player just took go to the taking army."""
    raise NotImplementedError("capital takeover")
