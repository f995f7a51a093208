"""The Mighty Kingdoms rule book: `rules/mighty_kingdoms.toml` merged with a campaign's overrides.

`load` refuses a rule book the processor could not play by: unknown keys, wrong kinds and
choices outside a key's documented readings (`pbem.kit.rulebook`), and here every count that
must be a whole number and every dice spec. All problems are reported at once with their key.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import dice_spec
from pbem.kit.rulebook import RuleBook, RulesError, load_rules, shipped_only_problems
from pbem.rulesets.mighty_kingdoms import artefacts, kow, quests, resolution

SYSTEM = "mighty_kingdoms"

# Whole numbers, with their least allowed value.
COUNTS: dict[str, int] = {
    "campaign.summer_months": 1, "campaign.years": 0,
    "setup.initial_armies": 1, "setup.start_gold": 0, "setup.start_food": 0,
    "army_list.points": 1, "army_list.max_armies": 1,
    "exploration.max_wizard_towers": 0,
    "battle.slaughter_removes": 1, "battle.win_free_moves": 0, "battle.wave_min_distance": 1,
    "battle.gm_grace_hours": 0, "battle.medals_per_unit_per_battle": 1, "battle.scars_per_unit_per_battle": 1,
    "resources.village_food": 0, "resources.city_gold": 0, "resources.capital_bonus_gold": 0,
    "recruit.per_fortress_per_winter": 1,
    "tithe.max_gold": 0, "tithe.max_food": 0, "tithe.per_recipient_per_winter": 1,
    "quests.max_adjust": 0, "artefacts.max_per_unit": 1,
}
DICE = ("exploration.dice", "medals.dice", "scars.dice", "quests.die")
# Keys whose shipped value is the only reading the processor plays, with why (each also in the
# comment next to the key in rules/mighty_kingdoms.toml): another value is refused, not ignored.
SHIPPED_ONLY: dict[str, str] = {
    "player_order.initial": "the initial order is set by a D6 roll-off, the only reading the catalog gives (MK-SET-1)",
    "player_order.resort": "the order is re-sorted at the end of each Reform (MK-POR-1)",
    "player_order.sort_key": "the order is re-sorted by army count, most armies first (MK-POR-1)",
    "player_order.tie_break": "tied players roll off with a D6, re-rolling ties (MK-POR-2)",
    "player_order.resort_after_winter": "the source re-sorts the player order only at Reform, so winter "
                                        "recruits never re-sort it (MK-POR-4, A25)",
    "army_list.loosening.apply_to_initial_army": "terrain loosening is not applied to the initial army, which may "
                                                 "hold no war machines or monsters anyway (MK-SET-9, MK-SET-10, A27)",
    "spend.list_policy": "by email each cycle takes the first legal, affordable item and retries skipped ones "
                         "later, the only reading the catalog gives (MK-SPD-7)",
    "quests.timing": "quests resolve after all purchase cycles, in player order, the only reading the "
                     "catalog gives (MK-QST-18, A21)",
    "kow_core.damage_roll": "the quest rolls use this one Kings of War damage model, the catalog's recommended "
                            "reading; no other is implemented (A4)",
    "kow_core.nerve_test": "the quest rolls use this one Kings of War nerve test, the catalog's recommended "
                           "reading; no other is implemented (A4)",
    "artefacts.on_other_loss": "an artefact lost outside a battle capture goes to its owner's capital if "
                               "controlled, else back to the pool, the only reading the catalog gives (A19)",
    "artefacts.capital_holder": "\"the player's Capital City\" is read as the winner's capital, the only reading "
                                "the catalog gives (MK-ART-7 to MK-ART-9, A20)",
}
_CHECKED: dict[str, tuple[str, ...]] = {}     # overrides (as JSON) -> the problems of their rule book


def load(overrides: Mapping[str, Any] | None = None) -> RuleBook:
    """The rule book, checked: every problem is reported at once."""
    book = load_rules(SYSTEM, overrides)
    key = json.dumps(overrides or {}, sort_keys=True, default=str)
    if key not in _CHECKED:          # every hook reads the rule book: check each campaign's book once
        _CHECKED[key] = tuple(_check(book))
    problems = list(_CHECKED[key])
    if problems:
        raise RulesError(problems)
    return book


def _check(book: RuleBook) -> list[str]:
    problems = []
    for key, least in COUNTS.items():
        value = book.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            problems.append(f"rules: {key!r} is {value!r}; it must be a whole number of at least {least}")
    for key in DICE:
        try:
            dice_spec(book[key])
        except ValueError as exc:
            problems.append(f"rules: {key!r}: {exc}")
    return (problems + resolution.rule_problems(book) + artefacts.pool_problems(book) + kow.problems(book)
            + quests.table_problems(book) + shipped_only_problems(SYSTEM, book, SHIPPED_ONLY))
