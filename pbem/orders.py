"""Moved to `pbem.kit.orders`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.orders import (
    MAX_CHOICES,
    MAX_LINE_CHARS,
    MAX_ORDER_LINES,
    MAX_SUGGEST_CHARS,
    AmbiguousOrder,
    IllegalOrder,
    InvalidOrder,
    NameIndex,
    NotAnOrder,
    OrderProblem,
    normalise,
    quoted,
    significant_lines,
    too_long,
    trailing,
)

__all__ = [
    "MAX_CHOICES", "MAX_LINE_CHARS", "MAX_ORDER_LINES", "MAX_SUGGEST_CHARS", "AmbiguousOrder", "IllegalOrder",
    "InvalidOrder", "NameIndex", "NotAnOrder", "OrderProblem", "normalise", "quoted", "significant_lines",
    "too_long", "trailing",
]
