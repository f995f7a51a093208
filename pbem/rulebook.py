"""Moved to `pbem.kit.rulebook`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.rulebook import (
    RULES_DIR,
    RuleBook,
    RulesError,
    choices,
    load_rules,
)

__all__ = [
    "RULES_DIR", "RuleBook", "RulesError", "choices", "load_rules",
]
