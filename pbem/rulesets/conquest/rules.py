"""The Campaigns of Conquest rule book: `rules/conquest.toml` merged with a campaign's overrides.

`load` refuses a rule book the processor could not play by: unknown keys and
wrong kinds (`pbem.kit.rulebook`), and here every value outside its documented
choices, every count that must be a whole number, every list naming something
the rules do not know. All problems are reported at once with their dotted key.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import dice_spec as dice_spec  # one reading of dice for every rule system
from pbem.kit.rulebook import RuleBook, RulesError, load_rules

SYSTEM = "conquest"
BUILDING_KINDS = ("castle", "city", "mine", "port")
PHASES = ["events", "revenue", "challenge", "battle", "conquest_build"]     # COC-GEN-2: fixed by the rules
TIEBREAK_STEPS = ("cities", "castles", "die")


def load(overrides: Mapping[str, Any] | None = None) -> RuleBook:
    """The rule book, checked: unknown keys, wrong kinds and bad choices are all reported at once."""
    book = load_rules(SYSTEM, overrides)
    problems = _check(book)
    if problems:
        raise RulesError(problems)
    return book


# Every option key with the readings the catalog names (COC "Ambiguities and gaps"), default first.
CHOICES: dict[str, tuple[object, ...]] = {
    "terrain.sea": ("sea",),                                   # the map format's name for sea areas
    "events.unique_scope": ("round", "campaign"),
    "events.fallback": ("none", "lowest_available"),
    "events.disaster_city_result": ("removed", "castle"),
    "events.scouts_clash": ("cancel",),
    "revenue.other_terrain_mine": ("river", "mountain"),
    "challenge.fallback": ("none", "random"),
    "challenge.multi_default": ("team", "individual"),
    "challenge.lone_challenger_challenged": ("both", "redirect", "forbidden"),
    "battle.size_disagreement": ("smaller", "larger", "default", "gm"),
    "battle.bonus_rounding": ("down", "up", "nearest"),
    "battle.team_split_default": ("equal",),
    "battle.unreported_result": ("abstract", "gm"),
    "results.equal_vp": ("draw", "withdrawal_loses", "gm"),
    "results.team_general_killed_cap": ("draw", "team_only", "gm"),
    "results.multi_battle_average": ("floor",),
    "results.surrender": ("as_withdrawal", "minor_victory", "gm"),
    "raid.guard_scope": ("all", "tile"),
    "buildings.max_per_tile": (1,),                            # COC-BLD-1: a tile holds one building
    "buildings.city.requires": ("castle",),                    # COC-BLD-6
    "buildings.port.reach": ("any", "same_water"),
    "victory.trigger": ("any_gain", "claim_only", "claim_or_conquer"),
    "siege.destroyed_fortification": ("to_besieger",),
    "naval.no_port_effect": ("discount_requires_port", "no_shore_conquest", "reminder_only"),
    "abstract.team_bonus_mode": ("once_per_side", "sum"),
}

# Whole numbers, with their least allowed value.
COUNTS: dict[str, int] = {
    "campaign.min_players": 2, "campaign.recommended_players": 2, "campaign.min_tiles_per_player": 1,
    "setup.capital_min_gap_tiles": 0, "setup.starting_gold": 0, "setup.starting_carry_ep": 0,
    "size.tile_weight": 0, "size.city_tile_weight": 0,
    "events.all_or_nothing_bonus": 0, "events.land_grab_first_claim_base": 0,
    "battle.default_points": 1, "battle.largest_empire_bonus_divisor": 1, "battle.gold_max_per_battle": 0,
    "battle.gold_full_bonus_divisor": 1,
    "results.no_withdrawal_higher_vp_ep": 0, "results.min_ep": 0,
    "spending.carry_over_max": 0,
    "raid.free_dice": 1, "raid.player_dice": 1, "raid.sides": 2, "raid.multiplier": 0,
    "raid.guard_per_castle": 0, "raid.guard_per_city": 0, "raid.max_per_tile_per_round": 0,
    "plunder.limit_per_win": 0,
    "siege.start_cost": 0, "siege.start_mountain_extra": 0, "siege.start_fortified_extra": 0,
    "siege.assaults_per_round": 1, "siege.defender_reconquest_fortified_extra": 0,
    "naval.advantage_discount": 0, "naval.advantage_penalty": 0,
    "abstract.gold_step": 1, "abstract.gold_cap": 0,
    "victory.round_cap": 0,
}


def _check(book: RuleBook) -> list[str]:
    problems = []
    for key, allowed in CHOICES.items():
        value = book.get(key)
        if value not in allowed or isinstance(value, bool):
            problems.append(f"rules: {key!r} is {value!r}; choose one of {', '.join(map(repr, allowed))}")
    for key, least in COUNTS.items():
        value = book.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            problems.append(f"rules: {key!r} is {value!r}; it must be a whole number of at least {least}")
    for section in ("costs", "extra"):
        for name, value in book.section("spending").get(section, {}).items():
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                problems.append(f"rules: 'spending.{section}.{name}' is {value!r}; it must be a whole number of "
                                "at least 0")
    for name, value in book.section("results").get("ep", {}).items():
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            problems.append(f"rules: 'results.ep.{name}' is {value!r}; it must be a whole number of at least 0")
    for key in ("setup.capital_order_die", "size.tiebreak_die", "events.disaster_die", "abstract.dice"):
        try:
            dice_spec(book[key])
        except ValueError as exc:
            problems.append(f"rules: {key!r}: {exc}")
    problems += _check_fractions(book)
    problems += _check_lists(book)
    return problems


def _check_fractions(book: RuleBook) -> list[str]:
    """Numbers that may be fractions: loss limits (0..1), half tiles (0..a city), the victory size (> 0)."""
    ranges = {"results.major_max_lost_fraction_of_break_point": 1,
              "results.massacre_max_lost_fraction_of_break_point": 1,
              "siege.besieged_tile_weight": book["size.city_tile_weight"],
              "siege.besieged_city_weight": book["size.city_tile_weight"]}
    problems = [f"rules: {key!r} is {book[key]!r}; it must lie between 0 and {top}"
                for key, top in ranges.items() if not 0 <= book[key] <= top]
    if book["victory.target_size"] <= 0:
        problems.append(f"rules: 'victory.target_size' is {book['victory.target_size']!r}; it must be more than 0")
    return problems


def _check_lists(book: RuleBook) -> list[str]:
    problems = []
    types = list(book["terrain.types"])
    if not types or book["terrain.sea"] in types:
        problems.append("rules: 'terrain.types' lists the land terrains; it may not be empty or include the sea")

    def subset(key: str, known: list[str] | tuple[str, ...]) -> None:
        unknown = [v for v in book[key] if v not in known]
        if unknown:
            problems.append(f"rules: {key!r} names {', '.join(map(repr, unknown))}; "
                            f"known: {', '.join(known)}")

    subset("terrain.plain", types)
    for building in BUILDING_KINDS:
        subset(f"buildings.{building}.allowed_terrain", types)
    subset("buildings.port.reach_terrain", types)
    subset("plunder.blocked_by", BUILDING_KINDS)
    subset("plunder.removes_buildings", BUILDING_KINDS)
    steps = list(book["size.tiebreaks"])
    if len(set(steps)) != len(steps) or any(s not in TIEBREAK_STEPS for s in steps) or steps[-1:] != ["die"]:
        problems.append(f"rules: 'size.tiebreaks' is {steps!r}; list 'cities' and/or 'castles' in the order "
                        "they count, each once, ending with 'die' so every tie is broken (COC-ORD-4..6)")
    if list(book["campaign.phases"]) != PHASES:
        problems.append(f"rules: 'campaign.phases' is fixed by the rules as {PHASES!r} (COC-GEN-2)")
    try:
        _, sides = dice_spec(book["events.disaster_die"])
    except ValueError:
        sides = 6                                  # reported with the dice expressions
    faces = list(book["events.disaster_destroy_on"])
    if any(isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= sides for f in faces):
        problems.append(f"rules: 'events.disaster_destroy_on' is {faces!r}; give faces of the disaster die")
    for n, ability in enumerate(book["generals_abilities"], start=1):
        uses = ability.get("uses_per_battle")
        if not (ability.get("name") and ability.get("effect")) or isinstance(uses, bool) or not isinstance(uses, int) \
                or uses < 1:
            problems.append(f"rules: generals_abilities entry {n} needs a name, an effect and uses_per_battle >= 1")
    if book["challenge.fallback"] == "random" and not book["challenge.mandatory"]:
        problems.append("rules: 'challenge.fallback' = 'random' forces a challenge on a silent player, which only "
                        "makes sense with 'challenge.mandatory' = true")
    return problems


def event_names(book: RuleBook) -> dict[str, str]:
    """Event key -> display name, in chart order."""
    return {e["key"]: e["name"] for e in sorted(book["events.chart"], key=lambda e: e["number"])}
