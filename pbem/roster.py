"""Moved to `pbem.kit.roster`; this module re-exports it for the rule systems that still import
it from here, and goes once every rule system imports from the kit."""

from __future__ import annotations

from pbem.kit.roster import (
    Change,
    Entry,
    Item,
    Mark,
    Roster,
    RosterError,
    format_entry,
    parse_entry,
    roster_from_data,
    roster_from_toml,
    roster_to_toml,
    toml_blocks,
)

__all__ = [
    "Change", "Entry", "Item", "Mark", "Roster", "RosterError", "format_entry", "parse_entry", "roster_from_data",
    "roster_from_toml", "roster_to_toml", "toml_blocks",
]
