"""The Campaigns of Conquest rule book: `rules/conquest.toml` merged with a campaign's overrides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.rulebook import RuleBook, RulesError, load_rules

SYSTEM = "conquest"


def load(overrides: Mapping[str, Any] | None = None) -> RuleBook:
    """The rule book, checked: unknown keys, wrong kinds and bad choices are all reported at once."""
    book = load_rules(SYSTEM, overrides)
    problems = _check(book)
    if problems:
        raise RulesError(problems)
    return book


CHOICES = {
    "events.unique_scope": ("round", "campaign"),
    "events.fallback": ("none", "lowest_available"),
    "events.disaster_city_result": ("removed", "castle"),
    "events.scouts_clash": ("cancel",),
    "revenue.other_terrain_mine": ("river", "mountain"),
    "challenge.fallback": ("none", "random"),
    "challenge.multi_default": ("team", "individual"),
    "challenge.lone_challenger_challenged": ("both", "redirect", "forbidden"),
    "battle.size_disagreement": ("smaller", "larger", "default", "gm"),
    "battle.bonus_rounding": ("down",),
    "battle.team_split_default": ("equal",),
    "battle.unreported_result": ("abstract", "gm"),
    "results.equal_vp": ("draw",),
    "results.team_general_killed_cap": ("draw",),
    "results.multi_battle_average": ("floor",),
    "results.surrender": ("as_withdrawal",),
    "raid.guard_scope": ("all", "tile"),
    "buildings.port.reach": ("any", "same_water"),
    "victory.trigger": ("any_gain", "claim_only", "claim_or_conquer"),
    "siege.destroyed_fortification": ("to_besieger",),
    "naval.no_port_effect": ("discount_requires_port", "no_shore_conquest", "reminder_only"),
    "abstract.team_bonus_mode": ("once_per_side", "sum"),
}


def _check(book: RuleBook) -> list[str]:
    problems = []
    for key, allowed in CHOICES.items():
        value = book.get(key)
        if value not in allowed:
            problems.append(f"rules: {key!r} is {value!r}; choose one of {', '.join(map(repr, allowed))}")
    for key in ("setup.capital_order_die", "size.tiebreak_die", "events.disaster_die", "abstract.dice"):
        try:
            dice_spec(book[key])
        except ValueError as exc:
            problems.append(f"rules: {key!r}: {exc}")
    return problems


def dice_spec(text: str) -> tuple[int, int]:
    """`"2d6"` -> (2, 6)."""
    count, sep, sides = str(text).lower().partition("d")
    if not sep or not sides.isdigit() or (count and not count.isdigit()):
        raise ValueError(f"{text!r} is not a dice expression like 1d6 or 2d6")
    return int(count or 1), int(sides)


def event_names(book: RuleBook) -> dict[str, str]:
    """Event key -> display name, in chart order."""
    return {e["key"]: e["name"] for e in sorted(book["events.chart"], key=lambda e: e["number"])}
