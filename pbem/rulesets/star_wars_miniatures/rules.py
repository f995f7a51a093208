"""The Star Wars Miniatures rule book: `rules/star_wars_miniatures.toml` merged with a campaign's
overrides, checked so that every problem is reported at once with its key.

Beyond the kit's checks (unknown keys, wrong kinds, choices outside a key's documented readings)
this refuses counts that are not whole numbers, dice texts that are no dice, faction tables whose
percentages are out of range, special characters pointing at unknown factions, and upgrade rows
without a name and cost or with a restriction the processor cannot read, and the two readings
the catalog itself leaves unplayable (`UNPLAYABLE`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import dice_spec
from pbem.kit.rulebook import RuleBook, RulesError, load_rules

SYSTEM = "star_wars_miniatures"

# Whole numbers, with their least allowed value.
COUNTS: dict[str, int] = {
    "campaign.max_players": 2, "campaign.min_players": 1,
    "setup.starting_squads": 1, "setup.starting_squad_points": 1, "setup.starting_army_xp": 0,
    "setup.starting_treasury": 0,
    "squad.min_points": 0, "squad.max_points": 1,
    "economy.points_per_miniature_point": 1, "economy.carry_over_cap": 0, "economy.max_new_squads_per_turn": 0,
    "alliance.max_members": 0, "alliance.strategic_moves": 0, "alliance.duration_turns": 1,
    "movement.divisor": 1, "movement.max_rate_multiplier": 1, "movement.force_user_rate": 0,
    "movement.min_territories": 0, "movement.enemy_entries_per_turn": 0,
    "battle.max_points_per_side": 1, "battle.gm_grace_hours": 0,
    "minefield.save_target": 1, "minefield.damage_on_fail": 0, "minefield.reroll_force_cost": 0,
    "post_battle.survive_on": 1, "post_battle.max_bonus": 0,
    "victory.capitals_needed": 1,
}
DICE = ("setup.pick_order_die", "initiative.die", "initiative.rolloff_die", "minefield.save_die",
        "post_battle.die", "advantages.special_operative.save_die")
TABLES = ("stats", "force", "abilities")
RESTRICTIONS = ("force_user", "non_force_user", "savage", "droid", "not_droid_or_cyborg", "base_2x2_plus",
                "no_lightsaber", "names_unique")
_CHECKED: dict[str, tuple[str, ...]] = {}
# Readings the loader refuses, with why: each is written down in rules/star_wars_miniatures.toml.
UNPLAYABLE: dict[str, tuple[Any, str]] = {
    "xp.reserve_killer_keeps_xp": (True, "a reserve troop leaves when its battle ends and never joins a squad "
                                   "(SWM-SQD-2, SWM-BAT-22), so no troop could keep its XP (A21); leave it false"),
    "advantages.special_operative.disrupt_blocks_forced_retreat": (
        True, "a disrupted squad that lost could then neither retreat nor, by the rules, be eliminated (A16); "
        "leave it false"),
}


def load(overrides: Mapping[str, Any] | None = None) -> RuleBook:
    """The rule book, checked: every problem is reported at once (RulesError)."""
    book = load_rules(SYSTEM, overrides)
    key = json.dumps(overrides or {}, sort_keys=True, default=str)
    if key not in _CHECKED:
        _CHECKED[key] = tuple(problems(book))
    if _CHECKED[key]:
        raise RulesError(list(_CHECKED[key]))
    return book


def problems(book: RuleBook) -> list[str]:
    out = []
    for key, least in COUNTS.items():
        value = book.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            out.append(f"rules: {key!r} is {value!r}; it must be a whole number of at least {least}")
    for key in DICE:
        try:
            dice_spec(book[key])
        except ValueError as exc:
            out.append(f"rules: {key!r}: {exc}")
    out += [f"rules: {key!r} = {str(value).lower()} cannot be played: {why}" for key, (value, why) in UNPLAYABLE.items()
            if book.get(key) == value]
    return out + faction_problems(book) + special_problems(book) + upgrade_problems(book)


def faction_problems(book: RuleBook) -> list[str]:
    out = []
    for key, spec in book.section("factions").items():
        limits = spec.get("limits") if isinstance(spec, Mapping) else None
        if not isinstance(limits, list) or not limits:
            out.append(f"rules: factions.{key}.limits: a faction needs at least one label")
            continue
        for n, row in enumerate(limits):
            out += _limit_problems(f"factions.{key}.limits[{n}]", row)
    return out


def _limit_problems(where: str, row: Any) -> list[str]:
    if not isinstance(row, Mapping) or not isinstance(row.get("label"), str):
        return [f"rules: {where}: write {{ label = \"Fringe\", max_pct = 35 }}"]
    found = [k for k in ("min_pct", "max_pct") if k in row]
    if len(found) != 1:
        return [f"rules: {where}: give exactly one of min_pct and max_pct"]
    value = row[found[0]]
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 100:
        return [f"rules: {where}.{found[0]} is {value!r}; it must be a percentage from 0 to 100"]
    return []


def special_problems(book: RuleBook) -> list[str]:
    factions = book.section("factions")
    out = []
    for key, spec in book.section("faction_specials").items():
        if not isinstance(spec, Mapping) or spec.get("faction") not in factions:
            out.append(f"rules: faction_specials.{key}.faction: name one of {', '.join(factions)}")
        elif not str(spec.get("character", "")).strip():
            out.append(f"rules: faction_specials.{key}.character: name the catalog card")
        elif spec.get("effect") == "count_as" and not spec.get("count_as_label"):
            out.append(f"rules: faction_specials.{key}.count_as_label: a count_as effect needs the label")
    return out


def upgrade_rows(book: RuleBook, table: str) -> list[dict[str, Any]]:
    """One upgrade table with the GM's extra rows after the printed ones (SWM-UPG-18)."""
    return list(book.get(f"upgrades.{table}", [])) + list(book.get(f"upgrades.extra_{table}", []))


def upgrade_problems(book: RuleBook) -> list[str]:
    out = []
    seen: set[str] = set()
    for table in TABLES:
        for n, row in enumerate(upgrade_rows(book, table)):
            where = f"upgrades.{table}[{n}]"
            name = row.get("name") if isinstance(row, Mapping) else None
            if not isinstance(name, str) or not name:
                out.append(f"rules: {where}: every row needs a name")
                continue
            if name.casefold() in seen:
                out.append(f"rules: {where}: {name!r} is listed twice")
            seen.add(name.casefold())
            out += _row_problems(where, row, book)
    return out


def _row_problems(where: str, row: Mapping[str, Any], book: RuleBook) -> list[str]:
    out = []
    for key in ("cost", "yv_cost"):
        value = row.get(key, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0 or (key == "cost" and key not in row):
            out.append(f"rules: {where}.{key} is {value!r}; it must be a whole number of XP")
    restriction = str(row.get("restriction", ""))
    if restriction and not _known_restriction(restriction, book):
        out.append(f"rules: {where}.restriction: {restriction!r} is not one of "
                   f"{', '.join(RESTRICTIONS)}, requires:<ability>, faction:<key>")
    return out


def _known_restriction(text: str, book: RuleBook) -> bool:
    if text.startswith("faction:"):
        return text.removeprefix("faction:") in book.section("factions")
    return text in RESTRICTIONS or (text.startswith("requires:") and len(text) > len("requires:"))
