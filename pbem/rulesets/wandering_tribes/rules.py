"""The Wandering Tribes rule book: `rules/wandering_tribes.toml` merged with a campaign's overrides.

`load` refuses a rule book the processor could not play by (unknown keys, wrong kinds, choices
outside a key's documented readings, dice specs, nation tables with a type that has no army-list
entry) with every problem at once; `warnings` lists what the GM should look at but may keep
(a starting force over 1000 points or over a maximum, WT-NAT-6).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.kit.dice import dice_spec
from pbem.kit.rulebook import RuleBook, RulesError, load_rules
from pbem.rulesets.wandering_tribes.nations import NO_LIMIT, Nation, read_nations

SYSTEM = "wandering_tribes"
MODES = ("together", "one_on_one")
DICE = ("setup.dice", "order_roll.dice", "command_test.dice", "battle.location_die", "retreat.draw_rolloff")
COUNTS = {"campaign.stack_points_cap": 1, "campaign.end_after_rounds": 0, "division.min_markers": 1,
          "division.min_characters": 0, "movement.max_steps": 1, "battle_trigger.max_non_resting": 0,
          "battle_trigger.rounds_after_first_rest": 1, "battle.ambush_points_margin": 0,
          "battle.max_turns": 1, "battle.deadline_days_one_on_one": 1}
SIDES = ("N", "E", "S", "W")
FIXED = {"setup.tie": "reroll_tied", "setup.missing_nation": "gm", "order_roll.tie": "reroll_tied",
         "command_test.pass_if": "total_le_target", "movement.no_exit": "attempt_failed", "movement.dead_end": "stop",
         "battle.paired_defender": "host_tile_owner", "battle.ambush_defender": "ambushed",
         "battle.ambush_attacker": "volunteer_else_random", "retreat.draw_tie": "reroll",
         "retreat.default_choice": "random_free", "retreat.battle_order": "battle_id",
         "battle.deadline_together": "session_end",
         "defaults.attempt_order": "stack_id", "defaults.recruit": "compulsory_only"}
"""Keys with one reading the processor plays (the catalog's default): another value is refused
rather than silently ignored."""


@dataclass(frozen=True)
class Rules:
    """The checked rule book with its nation tables read."""

    book: RuleBook
    nations: Mapping[str, Nation]

    @property
    def mode(self) -> str:
        return str(self.book["campaign.mode"])

    @property
    def cap(self) -> int:
        return int(self.book["campaign.stack_points_cap"])

    def per_mode(self, key: str) -> Any:
        """A key with one value per mode (`rest.min_locked_to_declare`): this campaign's."""
        return self.book[f"{key}.{self.mode}"]

    def __getitem__(self, key: str) -> Any:
        return self.book[key]


_CACHE: dict[str, Rules] = {}


def load(overrides: Mapping[str, Any] | None = None) -> Rules:
    """The rule book with the campaign's overrides, checked: every problem is reported at once."""
    key = json.dumps(overrides or {}, sort_keys=True, default=str)
    if key not in _CACHE:
        _CACHE[key] = from_book(load_rules(SYSTEM, overrides))
    return _CACHE[key]


def from_book(book: RuleBook) -> Rules:
    problems: list[str] = []
    nations = read_nations(book.section("nations"), book.section("aliases"), problems)
    problems += _check(book)
    if problems:
        raise RulesError(problems)
    return Rules(book, nations)


def from_data(data: Mapping[str, Any]) -> Rules:
    """Rules from a whole data dict (tests' fixtures with other army-list values)."""
    return from_book(RuleBook(data))


def _check(book: RuleBook) -> list[str]:
    problems = []
    if book.get("campaign.mode") not in MODES:
        problems.append(f"rules: 'campaign.mode' is {book.get('campaign.mode')!r}; "
                        'choose one of "together", "one_on_one"')
    for key, least in COUNTS.items():
        value = book.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            problems.append(f"rules: {key!r} is {value!r}; it must be a whole number of at least {least}")
    for key in DICE:
        try:
            dice_spec(book[key])
        except (ValueError, KeyError) as exc:
            problems.append(f"rules: {key!r}: {exc}")
    for key, only in FIXED.items():
        if book.get(key) != only:
            problems.append(f"rules: {key!r} is {book.get(key)!r}; the only reading played is {only!r}")
    if not book.get("command_test.roll_when_impossible", True):
        problems.append("rules: 'command_test.roll_when_impossible' must stay true (WT-CMD-10)")
    priority = book.get("movement.default_direction_priority", [])
    if sorted(priority) != sorted(SIDES):
        problems.append("rules: 'movement.default_direction_priority' must name N, E, S and W once each")
    return problems


def warnings(rules: Rules) -> list[str]:
    """What the GM should confirm: starting forces over the cap or over a maximum (WT-NAT-6)."""
    out = []
    for key, nation in rules.nations.items():
        total = sum(nation.points(t) * n for t, n in nation.start)
        if total > rules.cap:
            out.append(f"nations.{key}: the starting force is {total} points, over the cap of {rules.cap}")
        counts: dict[str, int] = {}
        for type_, n in nation.start:
            counts[type_] = counts.get(type_, 0) + n
        for type_, n in counts.items():
            most = nation.entries[type_].max
            if most != NO_LIMIT and n > most:
                out.append(f"nations.{key}: the starting force has {n} {type_}, over the maximum of {most}")
    return out
