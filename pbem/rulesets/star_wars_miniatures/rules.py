"""The Star Wars Miniatures rule book: `rules/star_wars_miniatures.toml` merged with a campaign's
overrides, checked so that every problem is reported at once with its key.

Beyond the kit's checks (unknown keys, wrong kinds, choices outside a key's documented readings)
this refuses counts that are not whole numbers, dice texts that are no dice, faction tables whose
percentages are out of range, special characters pointing at unknown factions, and upgrade rows
without a name and cost, a restriction the processor cannot read or a flag only the Cyborg row
sets, the readings the catalog itself leaves unplayable (`UNPLAYABLE`), and any change to a key
whose shipped value is the only reading played (`SHIPPED_ONLY`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import dice_spec
from pbem.kit.rulebook import RuleBook, RulesError, load_rules, shipped_only_problems

SYSTEM = "star_wars_miniatures"

# Whole numbers, with their least allowed value.
COUNTS: dict[str, int] = {
    "campaign.max_players": 2, "campaign.min_players": 1,
    "setup.starting_squads": 1, "setup.starting_squad_points": 1, "setup.starting_army_xp": 0,
    "setup.starting_treasury": 0, "setup.roster_extension_hours": 1,
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
DOUBLED_AWARDS = ("kills", "training_officer")      # the XP awards SWM-XP-4 doubles
# The GM's own rows of each upgrade table (SWM-UPG-18), named whole so each key is seen read.
EXTRA_ROWS = {"stats": "upgrades.extra_stats", "force": "upgrades.extra_force", "abilities": "upgrades.extra_abilities"}
RESTRICTIONS = ("force_user", "non_force_user", "savage", "droid", "not_droid_or_cyborg", "base_2x2_plus",
                "no_lightsaber", "names_unique")
_CHECKED: dict[str, tuple[str, ...]] = {}
# Keys whose shipped value is the only reading the processor plays, with why (each also in the
# comment next to the key in rules/star_wars_miniatures.toml): another value is refused in one
# line with every other problem (pbem.kit.rulebook.shipped_only_problems), not silently ignored.
SHIPPED_ONLY: dict[str, str] = {
    "campaign.action_steps": "the Action Phase runs movement, then battles, then strategic moves in the "
                             "catalog's order (SWM-MOV-1, SWM-STR-1)",
    "setup.starting_squad_location": "the starting squad stands in the player's capital (A33, SWM-SET-8)",
    "setup.unassigned_starting_xp": "starting XP not shared out when the roster is set is lost (A33, SWM-SET-9)",
    "squad.composition_basis": "faction percentages are measured in catalog points (A26, SWM-FAC-1)",
    "economy.build_at": "a new squad is built only in the player's capital; "
                        "economy.capital_lost_can_build gives the other reading (SWM-ECO-6, A28)",
    "economy.income_collected_at": "income is collected when the side's Economics slot begins (SWM-ECO-2)",
    "factions.yuuzhan_vong.chart_bonus_non_unique": "the chart bonus is post_battle.modifiers.non_unique_yuuzhan_vong "
                                                    "(SWM-PBC-4): change that key",
    "uniques.per_squad": "a squad never holds two troops of one character name (SWM-UNQ-1)",
    "uniques.per_faction_army": "an army holds at most one copy of a unique card (SWM-UNQ-3)",
    "uniques.across_factions": "the unique limit is per faction (SWM-UNQ-4); uniques.alliances_merge "
                               "gives the alliance reading",
    "alliance.formation": "an alliance forms only when every member declares the same member set (A13, SWM-ALL-2)",
    "alliance.stance_source": "an alliance takes the stance of the member whose total it uses (A4, SWM-INI-15)",
    "alliance.donations": "members give any amount up to the whole treasury (SWM-ALL-7)",
    "alliance.breakup_timing": "break-up retreats come after the declarations and before the rolls (A14, SWM-ALL-11)",
    "advantages.special_operative.use_window": "an operative is used in the Economics step it is bought in "
                                               "(A15, SWM-ADV-8)",
    "advantages.special_operative.disrupt_blocks": "a disrupted squad may not move, reinforce, shuttle or make a "
                                                   "strategic move (A16, SWM-ADV-7)",
    "advantages.special_operative.disrupt_duration": "a disruption lasts the rest of the turn (SWM-ADV-7)",
    "advantages.special_operative.disrupt_applies_to": "a disruption affects the squads standing in the territory "
                                                       "when it succeeds (A16, SWM-ADV-7)",
    "movement.entries_count": "the entry limit counts distinct enemy territories (A9, SWM-MOV-11)",
    "movement.stop_on": "a squad stops in a territory its side does not control (SWM-MOV-9); "
                        "movement.allied_territory_stops gives the ally reading",
    "movement.transport_assignment": "carried troops go to the transports so the squad moves fastest "
                                     "(SWM-MOV-7); no order assigns them",
    "stacking.check_at_end_of": "stacking is checked at the end of each of the four phases (SWM-STK-3)",
    "battle.no_report_default": "a battle nobody reports by the grace deadline goes to the GM (SWM-PBM-10)",
    "battle.fortified.defender_setup": "the fortified setup is played at the table as the briefing states it "
                                       "(SWM-BAT-13)",
    "battle.fortified.attacker_setup": "the fortified setup is played at the table as the briefing states it "
                                       "(SWM-BAT-13)",
    "battle.fortified.defender_flee_edge": "the briefing states the flee edges of SWM-BAT-13",
    "minefield.affects": "mines roll for each troop of the attacking force (SWM-BAT-16); "
                         "minefield.affects_uncontested adds uncontested entries",
    "xp.kill_award": "a kill earns the victim's catalog point cost (SWM-XP-1)",
    "xp.credit_at": "XP earned in the Action Phase is credited in Cleanup (SWM-XP-3)",
    "victory.last_active_check": "the last-active-squad victory is checked at the end of Economics (SWM-WIN-2)",
    "victory.simultaneous": "victories at one check go to the GM (A29, SWM-WIN-7)",
    "upgrades.army_rules.yv_cost_applies_to": "the Yuuzhan Vong prices are for troops fielded under that label "
                                              "(SWM-UPG-12)",
}
# Readings the loader refuses, with why: each is written down in rules/star_wars_miniatures.toml.
UNPLAYABLE: dict[str, tuple[Any, str]] = {
    "xp.reserve_killer_keeps_xp": (True, "a reserve troop leaves when its battle ends and never joins a squad "
                                   "(SWM-SQD-2, SWM-BAT-22), so no troop could keep its XP (A21); leave it false"),
    "campaign.public_records": (False, "the catalog defines no concealed reading: it says nowhere which squads, "
                                "rosters or XP a player would not see (SWM-GEN-9); leave it true"),
    "squad.reserves_count": (True, "reserve troops are never on a roster and disappear when their battle ends "
                             "(SWM-SQD-2, SWM-ROS-7), so there is nothing to count; leave it false"),
    "xp.lost_on_elimination": (False, "an eliminated troop leaves its squad for good and a card bought again comes "
                               "back fresh (SWM-XP-10, SWM-UNQ-5, SWM-ECO-14): no troop is left to keep the XP; "
                               "leave it true"),
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
    doubled = book.get("xp.double_applies_to")
    if not isinstance(doubled, list) or not set(doubled) <= set(DOUBLED_AWARDS):
        out.append(f"rules: 'xp.double_applies_to' is {doubled!r}; list some of {', '.join(DOUBLED_AWARDS)}")
    if book.get("setup.missing_roster") != "gm":       # one reading only (SWM-PBM-12)
        out.append(f"rules: 'setup.missing_roster' is {book.get('setup.missing_roster')!r}; it must be \"gm\"")
    return (out + faction_problems(book) + special_problems(book) + upgrade_problems(book)
            + shipped_only_problems(SYSTEM, book, SHIPPED_ONLY))


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
    return list(book.get(f"upgrades.{table}", [])) + list(book.get(EXTRA_ROWS[table], []))


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
    if "sets_flag" in row and (row.get("name"), row["sets_flag"]) != ("Cyborg", "cyborg"):
        out.append(f"rules: {where}.sets_flag: only the printed Cyborg row sets a flag (cyborg, SWM-UPG-14); "
                   "pbem gives a bought upgrade no other flag; remove it")
    restriction = str(row.get("restriction", ""))
    if restriction and not _known_restriction(restriction, book):
        out.append(f"rules: {where}.restriction: {restriction!r} is not one of "
                   f"{', '.join(RESTRICTIONS)}, requires:<ability>, faction:<key>")
    return out


def _known_restriction(text: str, book: RuleBook) -> bool:
    if text.startswith("faction:"):
        return text.removeprefix("faction:") in book.section("factions")
    return text in RESTRICTIONS or (text.startswith("requires:") and len(text) > len("requires:"))
