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
from pbem.kit.rulebook import RuleBook, RulesError, load_rules, shipped_only_problems
from pbem.rulesets.wandering_tribes.nations import NO_LIMIT, Nation, read_nations

SYSTEM = "wandering_tribes"
MODES = ("together", "one_on_one")
DICE = ("setup.dice", "order_roll.dice", "command_test.dice", "battle.location_die", "retreat.draw_rolloff")
COUNTS = {"campaign.stack_points_cap": 1, "campaign.end_after_rounds": 0, "division.min_markers": 1,
          "division.min_characters": 0, "movement.max_steps": 1, "battle_trigger.max_non_resting": 0,
          "battle_trigger.rounds_after_first_rest": 1, "battle.ambush_points_margin": 0,
          "battle.max_turns": 1, "battle.deadline_days_one_on_one": 1}
SIDES = ("N", "E", "S", "W")
# Keys with one reading the processor plays (the catalog's), with why: another value is refused
# rather than silently ignored (pbem.kit.rulebook.shipped_only_problems).
FIXED: dict[str, str] = {
    "setup.tie": "tied players re-roll, the only reading the catalog gives (A7, WT-SET-6)",
    "setup.missing_nation": "the GM assigns a missing nation; a player cannot start without one (W0)",
    "order_roll.tie": "tied players re-roll and the re-roll sets the order (A7, WT-ORD-3)",
    "command_test.pass_if": "a command test passes on a total at or under the target (WT-CMD-3)",
    "movement.no_exit": "an attempt with no exit fails without dice (A5, WT-MOV-10)",
    "movement.dead_end": "a road move stops at a dead end (A5, WT-ROAD-5)",
    "battle.paired_defender": "the host tile's owner defends a paired battle (A13, WT-BAT-13)",
    "battle.ambush_defender": "the ambushed stack defends (A13, WT-BAT-13)",
    "battle.ambush_attacker": "a volunteer ambushes, else one is drawn at random (WT-BAT-7)",
    "retreat.draw_tie": "a tied draw roll-off is re-rolled (A7)",
    "retreat.default_choice": "without a choice the retreat goes to a random free tile (WT-RES-11)",
    "retreat.battle_order": "retreats are settled in battle id order (A12, WT-RES-15)",
    "battle.deadline_together": "played together, the reports are due at the end of the session (Window B)",
    "defaults.attempt_order": "without orders stacks attempt in stack id order, the only default given",
    "defaults.recruit": "without orders only compulsory recruits are made, the only default given",
    "tables.recruit_columns": "it only records the source table's column order; each nation's [recruit] table "
                              "is read by terrain name, so the order changes nothing",
}


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
    problems += shipped_only_problems(SYSTEM, book, FIXED)
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
