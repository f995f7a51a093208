"""Winter: recruiting armies (MK-ARM-1..10).

A fortress the player controls recruits at most `recruit.per_fortress_per_winter` army a
winter, a fortress built earlier that winter included (MK-ARM-1, MK-ARM-2), for
`recruit.cost` (1 food, MK-ARM-3). The new army appears in the fortress with the player's
next army id, never reused (MK-ARM-4, A32). Its list is checked by `armylist.problems`, loosened
by the terrain of the fortress tile and of the adjacent tiles the player controls (monsters
with mountains or swamp, war engines with forest: MK-ARM-5, MK-ARM-6), when the purchase
executes (MK-ARM-10). At `army_list.max_armies` a recruit must disband one of the player's
armies in the same purchase; below it, naming one is refused (MK-ARM-8, MK-ARM-9, A32). A
disbanded army's artefacts go to the capital or the pool (MK-ART-13).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from pbem.kit.hexes import HexMap
from pbem.kit.roster import Roster
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import armylist, artefacts
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import FORTRESS, Army, MKState, army_id
from pbem.rulesets.mighty_kingdoms.purchase import NOW, Item, Verdict, short
from pbem.rulesets.mighty_kingdoms.tiles import features


def loosening(state: MKState, gmap: HexMap, rules: RuleBook, player: str, fortress: str) -> dict[str, list[str]]:
    """Each loosened category ("monster", "war_engine") with the tiles that allow it: the fortress
    tile, or an adjacent tile the player controls, having one of its features (MK-ARM-5, MK-ARM-6)."""
    tiles = [fortress] + gmap.sorted(t for t in gmap.neighbours(fortress) if state.owner(t) == player)
    found: dict[str, list[str]] = {}
    for category, needs in sorted(rules["army_list.loosening"].items()):
        if isinstance(needs, list):
            givers = [t for t in tiles if features(gmap, t) & set(needs)]
            if givers:
                found[category] = givers
    return found


def list_of(ident: str, item: Item) -> tuple[Roster, list[str]]:
    """The item's army list read as army `ident`, and every unit line it could not read."""
    units: Sequence[str] = item.get("units", [])
    roster, unread = armylist.read(ident, str(item.get("name", "")), enumerate(units, 1))
    return roster, [f"unit {n} ({line}): {why}" for n, line, why in unread]


def list_problems(state: MKState, gmap: HexMap, rules: RuleBook, player: str, item: Item) -> list[str]:
    """Why the item's list may not be fielded at its fortress, loosening included."""
    roster, unread = list_of("new", item)
    return unread + armylist.problems(roster, rules, list(loosening(state, gmap, rules, player, item["tile"])))


def verdict(state: MKState, gmap: HexMap, rules: RuleBook, player: str, item: Item) -> Verdict:
    """Whether the recruit can be bought now; only a missing fortress, the army cap and stock may
    change later this winter."""
    never_reason = never(state, gmap, rules, player, item)
    if never_reason:
        return Verdict(never=never_reason)
    later = _later(state, gmap, rules, player, item)
    return Verdict(later=later) if later else NOW


def never(state: MKState, gmap: HexMap, rules: RuleBook, player: str, item: Item) -> str:
    """Why the recruit can never be bought this winter: control and terrain do not change in winter."""
    tile, label = item["tile"], gmap.label(item["tile"])
    if state.owner(tile) != player:
        return f"{label} is not yours; you recruit only at your own fortresses"
    if state.winter.recruited_at.count(tile) >= rules["recruit.per_fortress_per_winter"]:
        return f"{label} has already recruited this winter (one army per fortress per winter)"
    if not rules["recruit.new_fortress_can_recruit"] and tile in state.winter.fortresses_built:
        return f"{label} became a fortress this winter and may recruit only from next winter"
    disband = item.get("disband", "")
    if disband and (disband not in state.armies or state.armies[disband].owner != player):
        return f"{disband} is not one of your armies"
    problems = list_problems(state, gmap, rules, player, item)
    return "the army list is refused: " + "; ".join(problems) if problems else ""


def _later(state: MKState, gmap: HexMap, rules: RuleBook, player: str, item: Item) -> str:
    if state.tile(item["tile"]).settlement != FORTRESS:
        return f"{gmap.label(item['tile'])} holds no fortress"
    cap_problem = cap(rules, len(state.armies_of(player)), str(item.get("disband", "")))
    if cap_problem:
        return cap_problem
    kingdom, price = state.kingdoms[player], rules["recruit.cost"]
    return (short(kingdom.gold, int(price.get("gold", 0)), "gold")
            or short(kingdom.food, int(price.get("food", 0)), "food"))


def cap(rules: RuleBook, armies: int, disband: str) -> str:
    """MK-ARM-8/9: why a recruit by a player with `armies` armies, disbanding `disband`, is refused."""
    top = rules["army_list.max_armies"]
    if armies >= top and not disband:
        return f"you have {armies} armies, the most allowed; name one to disband: RECRUIT <fortress> DISBAND <army>"
    if armies < top and disband and rules["army_list.disband_only_at_cap"]:
        return (f"you have {armies} arm{'y' if armies == 1 else 'ies'}, under the cap of {top}; an army is disbanded "
                "only to recruit at the cap")
    return ""


def next_id(state: MKState, player: str) -> tuple[str, int]:
    """The player's next army id and number: one past the highest ever used (A32)."""
    used = [int(m.group(1)) for a in state.armies.values() if a.owner == player
            and (m := re.search(r"(\d+)$", a.id))]
    number = max([state.kingdoms[player].armies_raised, *used]) + 1
    return army_id(player, number), number


def recruit(state: MKState, gmap: HexMap, rules: RuleBook, player: str, item: Item, section: Section) -> str:
    """Execute a recruit the verdict allows; returns the report line."""
    kingdom, tile, price = state.kingdoms[player], item["tile"], rules["recruit.cost"]
    loosened = loosening(state, gmap, rules, player, tile)
    disband = str(item.get("disband", ""))
    if disband:
        artefacts.release(state, disband, "", section)
        del state.armies[disband]
    ident, number = next_id(state, player)
    roster, _ = list_of(ident, item)
    roster.note(state.calendar.turn, "", f"recruited at {gmap.label(tile)}")
    state.armies[ident] = Army(ident, player, tile, roster=roster)
    kingdom.armies_raised = number
    kingdom.gold -= int(price.get("gold", 0))
    kingdom.food -= int(price.get("food", 0))
    state.winter.recruited_at.append(tile)
    state.winter.recruits.append(ident)
    return (f"{kingdom.name} recruits {ident} at {gmap.label(tile)} ({roster.points} points)"
            f"{' disbanding ' + disband if disband else ''}{allowed_text(gmap, loosened)}; "
            f"now {kingdom.gold} gold and {kingdom.food} food")


def allowed_text(gmap: HexMap, loosened: Mapping[str, list[str]]) -> str:
    """`; war engines allowed by T7, monsters by T9`."""
    if not loosened:
        return ""
    parts = [f"{category.replace('_', ' ')}s allowed by {', '.join(gmap.label(t) for t in tiles)}"
             for category, tiles in loosened.items()]
    return "; " + ", ".join(parts)
