"""One registry of rule systems, found by name or alias.

Built-in systems are listed here; third-party ones register through the
`pbem.rulesets` entry point group exactly like the built-ins do in pyproject.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from pbem.rulesets.base import AnyRuleset

BUILTIN = {
    "daemon_rift": "pbem.rulesets.daemon_rift.ruleset:RULESET",
    "diplomacy": "pbem.rulesets.diplomacy.ruleset:RULESET",
    "conquest": "pbem.rulesets.conquest.ruleset:RULESET",
}


def _load(target: str) -> AnyRuleset:
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)  # type: ignore[no-any-return]


def available() -> dict[str, str]:
    found = dict(BUILTIN)
    for ep in entry_points(group="pbem.rulesets"):
        found.setdefault(ep.name, ep.value)
    return found


def get(name: str) -> AnyRuleset:
    """The rule system called `name` (or an alias, e.g. "dr", "daemon-rift")."""
    key = name.strip().lower().replace("-", "_")
    systems = available()
    if key in systems:
        return _load(systems[key])
    for target in systems.values():
        ruleset = _load(target)
        if key in ruleset.aliases:
            return ruleset
    raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(systems))}")
