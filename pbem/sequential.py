"""Moved to `pbem.kit.sequential`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.sequential import (
    Attempt,
    Cycle,
    Run,
    Turn,
    carry_out,
    ranked_choices,
)

__all__ = [
    "Attempt", "Cycle", "Run", "Turn", "carry_out", "ranked_choices",
]
