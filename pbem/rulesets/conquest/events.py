"""Step A.1: event picks in ascending order, each taking effect at once (COC-EVT).

Each player sends a ranked list; at his turn he gets the first entry he may
still take (COC-EVT-5). Building Boom places its first legal building and a
Disaster rolls for the target's markers before the next player picks
(COC-EVT-8), so a Disaster can destroy what a Building Boom just placed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.kit.sequential import ranked_choices
from pbem.kit.territories import natural_key
from pbem.rulesets.conquest import tiles as tilesmod
from pbem.rulesets.conquest.empire import GAIN_BUILD, declare_winner, size_victory
from pbem.rulesets.conquest.model import (
    EVENTS,
    TARGETED_EVENTS,
    ConquestState,
    DisasterRoll,
    EventPick,
    Placement,
)
from pbem.rulesets.conquest.rules import dice_spec, event_names


@dataclass
class EventEntry:
    """One line of a window-1 event list."""

    event: str
    target: str = ""
    placements: list[Placement] = field(default_factory=list)   # Building Boom, in order of preference


def taken_by_others(state: ConquestState, player: str, rules: RuleBook) -> set[str]:
    """Events others took within the uniqueness scope (COC-EVT-3)."""
    picks = {(e.player, e.event) for e in state.round.events}
    if rules["events.unique_scope"] == "campaign":
        picks |= {(who, event) for who, _, event in (x.partition(":") for x in state.events_taken)}
    return {ev for who, ev in picks if who != player}


def all_taken(state: ConquestState, rules: RuleBook) -> bool:
    """COC-EVT-4: once every event was taken at least once in the scope, any may be taken again."""
    seen = {e.event for e in state.round.events}
    if rules["events.unique_scope"] == "campaign":
        seen |= {x.split(":", 1)[1] for x in state.events_taken}
    return set(EVENTS) <= seen


def entry_reason(state: ConquestState, rules: RuleBook, player: str, entry: EventEntry) -> str:
    """Why `player` may not take `entry` now ("" if he may)."""
    names = event_names(rules)
    if entry.event not in names:
        return f"unknown event {entry.event!r}"
    if not all_taken(state, rules) and entry.event in taken_by_others(state, player, rules):
        return f"{names[entry.event]} was already taken"
    if entry.event in TARGETED_EVENTS:
        if not entry.target:
            return f"{names[entry.event]} needs a target player"
        if entry.target == player and not rules["events.allow_self_target"]:
            return f"{names[entry.event]} cannot target yourself"
        if entry.target not in state.active() or (entry.target == player and not rules["events.allow_self_target"]):
            return f"{entry.target} is not an active player"
    return ""


def fallback_entry(state: ConquestState, rules: RuleBook, player: str) -> EventEntry | None:
    """COC-EVT-6: "none", or the lowest-numbered event still allowed (targets the largest other empire)."""
    if rules["events.fallback"] != "lowest_available":
        return None
    others = [p for p in reversed(state.round.order) if p != player and p in state.active()]
    for event in event_names(rules):
        entry = EventEntry(event, others[0] if event in TARGETED_EVENTS and others else "")
        if not entry_reason(state, rules, player, entry):
            return entry
    return None


def run_events(state: ConquestState, gmap: HexMap, rules: RuleBook, lists: Mapping[str, Sequence[EventEntry]],
               dice: Dice) -> None:
    """Hand out events in ascending order (COC-EVT-2) and apply each at once."""
    def take(player: str, entry: EventEntry) -> None:
        pick = EventPick(player, entry.event, entry.target)
        state.round.events.append(pick)
        if rules["events.unique_scope"] == "campaign":
            state.events_taken.append(f"{player}:{entry.event}")
        if entry.event == "building_boom":
            building_boom(state, gmap, rules, pick, entry.placements)
        elif entry.event == "disaster":
            disaster(state, rules, entry.target, dice)

    turns = ranked_choices([p for p in state.round.order if p in state.active()], lists,
                           lambda p, e: entry_reason(state, rules, p, e), take,
                           fallback=lambda p: fallback_entry(state, rules, p))
    for turn in turns:
        if turn.fallback:
            for pick in state.round.events:
                if pick.player == turn.player:
                    pick.note = "; ".join(filter(None, ["fallback (events.fallback)", pick.note]))
        if not turn.chosen:
            state.round.log.append(f"{state.empires[turn.player].name} takes no event")


def placement_reason(state: ConquestState, gmap: HexMap, rules: RuleBook, player: str, place: Placement) -> str:
    """COC-EVT-10: a castle, mine or port on a controlled tile without a building, or a castle turned city."""
    tile = state.tiles.get(place.tile)
    if tile is None:
        return f"{place.tile} is not a land tile"
    if tile.owner != player:
        return f"you do not control {gmap.label(place.tile)}"
    if state.siege_at(place.tile):
        return f"{gmap.label(place.tile)} is under siege"
    if place.building == "city":
        if tile.building != "castle":
            return f"a city needs a castle on {gmap.label(place.tile)}"
    elif place.building in ("castle", "mine", "port"):
        if tile.building:
            return f"{gmap.label(place.tile)} already has a {tile.building}"
    else:
        return f"Building Boom cannot place {place.building!r}"
    if not tilesmod.building_allowed(gmap, place.tile, place.building, rules):
        return f"a {place.building} cannot stand on {'/'.join(gmap.tiles[place.tile].terrains)}"
    return ""


def building_boom(state: ConquestState, gmap: HexMap, rules: RuleBook, pick: EventPick,
                  placements: Sequence[Placement]) -> None:
    """COC-EVT-11: the first legal placement; none legal uses the event up for nothing."""
    reasons = []
    for place in placements:
        reason = placement_reason(state, gmap, rules, pick.player, place)
        if reason:
            reasons.append(reason)
            continue
        state.tiles[place.tile].building = place.building
        pick.placement = Placement(place.building, place.tile)
        if place.building == "city" and size_victory(state, pick.player, GAIN_BUILD, rules):
            declare_winner(state, pick.player, f"a city on {gmap.label(place.tile)} (Building Boom) brings "
                                               f"the empire to the victory size")
        return
    pick.note = "no legal placement" + (f": {'; '.join(reasons)}" if reasons else "")


def disaster(state: ConquestState, rules: RuleBook, target: str, dice: Dice) -> None:
    """COC-EVT-12: one die per castle, city, port and mine of the target; a 1 removes it, the banner stays."""
    count, sides = dice_spec(rules["events.disaster_die"])
    destroy_on = set(rules["events.disaster_destroy_on"])
    for ident in sorted(state.tiles, key=natural_key):
        tile = state.tiles[ident]
        if not tile.building or state.fortification_owner(ident) != target:
            continue
        die = dice.roll(f"Disaster on {target}: {tile.building} at {ident}", count, sides).total
        destroyed = die in destroy_on
        state.round.disaster.append(DisasterRoll(target, ident, tile.building, die, destroyed))
        if not destroyed:
            continue
        if tile.building == "city" and rules["events.disaster_city_result"] == "castle":
            tile.building = "castle"
        else:
            tile.building = ""
        siege = state.siege_at(ident)
        if siege and not tile.building:
            state.sieges.remove(siege)    # COC-SIE-16: the tile is fully the besieger's
            state.round.log.append(f"the siege of {ident} ends: the fortification was destroyed")
