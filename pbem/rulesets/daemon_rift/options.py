"""The Daemon Rift rule book, checked where one key depends on another.

`pbem.kit.rulebook` already refuses unknown keys, values of the wrong kind and text
options outside the choices their comment lists. What no single comment can say
is checked here, all at once: dice written `NdS`, massacre faces that split the
die between "eliminated" and "survives", experience tables that give a row for
every total the experience dice can roll, and the one list per side that the
battles are built on (DR-LST-5).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import dice_spec as dice_spec  # one reading of dice for every rule system
from pbem.kit.rulebook import RuleBook, RulesError, load_rules, shipped_only_problems

# Keys whose shipped value is the only reading the processor plays, with why (each also in the
# comment next to the key in rules/daemon_rift.toml): another value is refused, not ignored.
SHIPPED_ONLY: dict[str, str] = {
    "campaign.game_system": "it names the tabletop game every rule and briefing is written for (descriptive)",
    "setup.original_territories_per_faction": "each faction's original territories are its home realm in the map "
                                              "file ([homes.N]), which decides their number (DR-SET-1)",
    "setup.start_tokens": "the opening position places exactly one list token per faction (DR-SET-3)",
    "setup.start_token_location": "the first list token stands on the faction's stronghold (DR-SET-3)",
    "tokens.removal_default": "it is the only default removal order the catalog gives; a faction ranks its own "
                              "with its removal preference (DR-TOK-5)",
    "tokens.defensive_battles": "defensive tokens can only roll off (DR-ROL-6)",
    "placement.growth": "a growth token goes to any unoccupied original territory (DR-TOK-9)",
    "placement.default_preference": "it is the only default placement the catalog gives; a faction ranks its own "
                                    "with PLACE (DR-TOK-9)",
    "movement.fast_min_move": "the processor cannot read unit Move values: the player declares a fast army "
                              "when registering the list and the GM checks it (DR-LST-9)",
    "battle.champion_default": "it is the only default the catalog gives: the principal, else the first "
                               "eligible supporter (DR-BAT-3)",
    "retreat.tiers": "retreats look at own territories first, then the others, as the source orders them "
                     "(DR-RET-4, DR-RET-5)",
    "rolloff.neutral_first_side_wins": "with no favoured side the later faction in faction order wins on 4+ "
                                       "(DR-ROL-2)",
    "rolloff.counts_for_pair_count": "roll-offs never add to the pair count (DR-ROL-12)",
    "home.swap_home_side": "an enemy swap battle has no home side (DR-HOME-9)",
    "control.retreat_claims": "a retreat never claims the territory it ends in (DR-CTL-5)",
    "control.multi_space_claims_only_destination": "a move over several territories claims only where it ends "
                                                   "(DR-CTL-4)",
}
_CHECKED: weakref.WeakSet[RuleBook] = weakref.WeakSet()


def load(overrides: Mapping[str, Any] | None = None) -> RuleBook:
    book = load_rules("daemon_rift", overrides)
    if book not in _CHECKED:          # load_rules hands out one book per overrides: check it once
        problems = check(book)
        if problems:
            raise RulesError(problems)
        _CHECKED.add(book)
    return book


def check(rules: RuleBook) -> list[str]:
    return (_dice(rules) + _massacre(rules) + _swap_die(rules) + _experience(rules) + _lists(rules)
            + shipped_only_problems("daemon_rift", rules, SHIPPED_ONLY))


def _dice(rules: RuleBook) -> list[str]:
    out = []
    for key in ("experience.dice", "massacre.die"):
        try:
            dice_spec(rules[key])
        except ValueError as exc:
            out.append(f"rules: {key!r}: {exc}")
    return out


def _massacre(rules: RuleBook) -> list[str]:
    """DR-BAT-11: every face either eliminates the massacred army or lets it survive."""
    try:
        _, sides = dice_spec(rules["massacre.die"])
    except ValueError:
        return []
    eliminate, survive = set(rules["massacre.eliminate_on"]), set(rules["massacre.survive_on"])
    faces = set(range(1, sides + 1))
    if eliminate & survive or eliminate | survive != faces:
        split = f"the faces 1-{sides} between them, each face in exactly one"
        return [f"rules: 'massacre.eliminate_on' and 'massacre.survive_on' must split {split}"]
    return []


def _swap_die(rules: RuleBook) -> list[str]:
    """DR-TER-9: the swap battle's terrain die gives every face to one of the two territories; the
    processor reads `lower_id`, so `higher_id` must hold exactly the other faces."""
    faces = rules["terrain.swap_terrain_die"]
    low, high = set(faces.get("lower_id", [])), set(faces.get("higher_id", []))
    if low & high or low | high != set(range(1, 7)):
        return ["rules: 'terrain.swap_terrain_die' lower_id and higher_id must split the faces 1-6 between them, "
                "each face in exactly one"]
    return []


def _experience(rules: RuleBook) -> list[str]:
    """DR-EXP-2, DR-EXP-6: a row for every total of the experience dice."""
    try:
        count, sides = dice_spec(rules["experience.dice"])
    except ValueError:
        return []
    out = []
    for key in ("experience.unit_table", "experience.character_table"):
        rows = rules[key]
        missing = [t for t in range(count, count * sides + 1) if not any(r["min"] <= t <= r["max"] for r in rows)]
        if missing:
            out.append(f"rules: {key!r} has no row for {', '.join(map(str, missing))} "
                       f"(experience.dice = {rules['experience.dice']!r})")
    return out


def _lists(rules: RuleBook) -> list[str]:
    if int(rules["lists.lists_per_side_per_battle"]) != 1:
        return ["rules: 'lists.lists_per_side_per_battle' can only be 1: each side fields one list (DR-LST-5)"]
    return []
