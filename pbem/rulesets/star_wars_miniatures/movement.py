"""The Movement step (SWM-MOV): movement allowances with transports, and a side's MOVE lines
carried out in order against the position at the moment each squad moves.

A squad's allowance is the lowest maximum rate among its troops (2 x Speed, a Force user a flat
14), troops riding a transport taking the transport's rate, divided by 4 and rounded half up,
never below 1 (A6). A path stops at the first territory the side does not control (the reply
warns); any other fault refuses the whole move and the squad holds (SWM-MOV-15).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.kit.texts import counted
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import Squad
from pbem.rulesets.star_wars_miniatures.world import World


def rate(troop: Entry, catalog: Catalog, book: RuleBook) -> int:
    """SWM-MOV-3/4: twice the Speed (upgrades included); a Force user counts 14 (flat, or at least 14)."""
    own = book["movement.max_rate_multiplier"] * tr.speed(troop, catalog)
    if tr.force(troop, catalog) < 1:
        return int(own)
    flat = int(book["movement.force_user_rate"])
    return flat if book["movement.force_user_rate_mode"] == "flat" else max(flat, int(own))


def carried(troops: Sequence[Entry], catalog: Catalog, book: RuleBook) -> dict[str, str]:
    """SWM-MOV-7: troop id -> the transport it rides: the slowest troops that fit first, and only
    where the transport is faster; a transport takes its small-or-medium troops (two for a Skiff)
    or, when empty, one large troop; huge troops never ride."""
    carriers = {t.id: t for t in troops if catalog.minis[t.name].transport}
    seats = {i: catalog.minis[t.name].carries_small for i, t in carriers.items()}
    empty = dict(seats)
    out: dict[str, str] = {}
    riders = sorted((t for t in troops if t.id not in carriers), key=lambda t: rate(t, catalog, book))
    for troop in riders:
        size = catalog.minis[troop.name].size
        for ident, carrier in carriers.items():
            if size == "huge" or rate(carrier, catalog, book) <= rate(troop, catalog, book):
                continue
            if size == "large" and catalog.minis[carrier.name].carries_large and seats[ident] == empty[ident]:
                seats[ident], out[troop.id] = -1, ident
                break
            if size != "large" and seats[ident] > 0:
                seats[ident], out[troop.id] = seats[ident] - 1, ident
                break
    return out


def allowance(troops: Sequence[Entry], catalog: Catalog, book: RuleBook) -> int:
    """SWM-MOV-2/5/6: the lowest rate (riders at their transport's) / 4, halves up, at least 1."""
    if not troops:
        return 0
    rides = carried(troops, catalog, book)
    by_id = {t.id: t for t in troops}
    lowest = min(rate(by_id[rides.get(t.id, t.id)], catalog, book) for t in troops)
    divisor = int(book["movement.divisor"])
    whole, rest = divmod(lowest, divisor)
    up = rest * 2 >= divisor if book["movement.rounding"] == "half_up" else rest * 2 > divisor
    return max(int(book["movement.min_territories"]), whole + int(up))


@dataclass
class SlotMoves:
    """What a side's movement did this slot: contested territories in order of first entry."""

    entered: list[str] = field(default_factory=list)
    attackers: dict[str, list[str]] = field(default_factory=dict)   # territory -> squads, in order of entry
    moved: set[str] = field(default_factory=set)
    uncounted: set[str] = field(default_factory=set)    # empty entries outside the limit (A8)
    entrants: dict[str, set[str]] = field(default_factory=dict)   # territory -> members who entered it
    paths: list[tuple[str, str, str]] = field(default_factory=list)  # squad, from, to (for the picture)
    replies: list[str] = field(default_factory=list)


def move(world: World, side: Sequence[str], squad_id: str, path: Sequence[str], done: SlotMoves) -> str:
    """Carry out one MOVE line of the acting side; returns what happened (a report line)."""
    squad = world.state.squads.get(squad_id)
    if squad is None or squad.owner not in side:
        return f"MOVE {squad_id}: refused, not a squad of yours"
    refusal = _refusal(world, squad, path, done)
    if refusal:
        return f"MOVE {squad_id} {' '.join(path)}: refused, {refusal}; {squad_id} holds in {squad.place}"
    stop = next((i for i, t in enumerate(path) if not world.passable(squad.owner, t)), len(path) - 1)
    goal = path[stop]
    if world.state.enemy(squad.owner, goal):
        refusal = _entry_refusal(world, squad.owner, goal, done)
        if refusal:
            return f"MOVE {squad_id} {' '.join(path)}: refused, {refusal}; {squad_id} holds in {squad.place}"
        done.entrants.setdefault(goal, set()).add(squad.owner)
        if goal not in done.entered:
            done.entered.append(goal)
            if not world.book["capture.uncontested_counts_as_entry"] and not world.state.squads_in(goal):
                done.uncounted.add(goal)
        done.attackers.setdefault(goal, []).append(squad_id)
    done.moved.add(squad_id)
    done.paths.append((squad_id, squad.place, goal))
    world.state.arrive(squad, goal)
    cut = f" (stopped in {goal}, which is not yours: the rest of the path is dropped)" if stop < len(path) - 1 else ""
    return f"{squad_id} moves to {goal}{cut}." + _taken_on_entry(world, squad, side)


def _taken_on_entry(world: World, squad: Squad, side: Sequence[str]) -> str:
    """A8 with `capture.timing = "on_entry"`: an empty enemy territory changes hands as the squad
    enters it (an entry as ever, SWM-MOV-11), so the side's later squads of this slot pass
    through it; one holding damaged squads still waits for the Battle step's walk-over. With
    "battle_step" (SWM-MOV-17, SWM-BAT-3) nothing changes hands before the Battle step."""
    goal = squad.place
    if world.book["capture.timing"] != "on_entry" or not world.state.enemy(squad.owner, goal):
        return ""
    if any(s.owner not in side for s in world.state.squads_in(goal)):
        return ""
    bt.hand_over(world, goal, squad.owner)
    return f" {goal} was empty and passes to {squad.owner} on entry (A8)."


def _refusal(world: World, squad: Squad, path: Sequence[str], done: SlotMoves) -> str:
    if squad.id in done.moved:
        return "a squad moves at most once a turn"
    if squad.damaged:
        return "a damaged squad may not move (SWM-SQD-6)"
    if squad.disrupted:
        return "its territory is disrupted this turn (SWM-ADV-7)"
    steps = allowance(squad.troops, world.catalog, world.book)
    if not path or len(path) > steps:
        return f"the path is {len(path)} territories and its allowance is {steps}"
    here = squad.place
    for place in path:
        if place not in world.places.territories or not world.places.adjacent(here, place):
            return f"{place} is not adjacent to {here}"
        if not world.state.lands[place].active:
            return f"{place} is inactive and can never be entered (SWM-MOV-10)"
        here = place
    return ""


def _entries(world: World, owner: str, done: SlotMoves) -> set[str]:
    """SWM-MOV-11, SWM-ALL-8: the enemy territories counted against the limit: the side's as a
    whole, or with `alliance.enemy_entries_shared` false only those this member entered himself."""
    mine = [t for t in done.entered if world.book["alliance.enemy_entries_shared"] or owner in done.entrants[t]]
    return set(mine) - done.uncounted


def _entry_refusal(world: World, owner: str, goal: str, done: SlotMoves) -> str:
    limit = int(world.book["movement.enemy_entries_per_turn"])
    entered = _entries(world, owner, done)
    if goal not in entered and goal not in done.uncounted and len(entered) >= limit:
        return f"it would be a third enemy territory this turn (at most {limit}, SWM-MOV-11)"
    cap = world.stacking(goal)
    if world.book["stacking.attackers_max"] == "territory_limit" and len(done.attackers.get(goal, [])) >= cap:
        return f"{goal} already holds {counted(cap, 'attacking squad')}, its stacking limit (SWM-MOV-12)"
    return ""
