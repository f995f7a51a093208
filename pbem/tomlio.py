"""Moved to `pbem.kit.tomlio`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.tomlio import (
    from_data,
    to_data,
)

__all__ = [
    "from_data", "to_data",
]
