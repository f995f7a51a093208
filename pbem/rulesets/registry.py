"""One registry of rule systems, found by name or alias.

Every rule system, built-in or not, registers through the `pbem.rulesets` entry point group
(the built-ins in pyproject.toml); pbem/plugins.py says where the entries are read from and
how a test adds one (`RULESETS.extra`).
"""

from __future__ import annotations

from pbem.plugins import RULESETS
from pbem.rulesets.base import AnyRuleset

__all__ = ["RULESETS", "available", "get"]


def available() -> dict[str, str]:
    """Every rule system's name and its `module:attribute` target."""
    return RULESETS.entries()


def get(name: str) -> AnyRuleset:
    """The rule system called `name` (or an alias, e.g. "dr", "daemon-rift")."""
    found: AnyRuleset = RULESETS.find(name)
    return found
