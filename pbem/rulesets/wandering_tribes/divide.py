"""Dividing stacks (WT-DIV): a stack shares its markers out into two or more new stacks in its
tile, each with at least three markers and a character, mounts with a character able to take
them; a division breaking any of this is refused whole."""

from __future__ import annotations

from collections import Counter

from pbem.rulesets.wandering_tribes.armylist import characters, mounts_ok
from pbem.rulesets.wandering_tribes.model import Stack, State
from pbem.rulesets.wandering_tribes.nations import Nation
from pbem.rulesets.wandering_tribes.plan import Division
from pbem.rulesets.wandering_tribes.rules import Rules


def problems(state: State, rules: Rules, player: str, division: Division, at_intake: bool = False) -> list[str]:
    """Why the division cannot be made; [] when it can. `at_intake` leaves out what only the
    moment of the player's round can judge (a lock, WT-DIV-10)."""
    stack = state.stacks.get(division.stack)
    if stack is None or stack.owner != player:
        return [f"{division.stack} is not one of your stacks"]
    out = _shape(state, stack, division)
    if out:
        return out
    if not at_intake and state.locked(stack.id) and not rules["division.allow_locked"]:
        out.append(f"{stack.id} is locked in combat and cannot be divided (WT-DIV-10)")
    nation = rules.nations[state.players[player].nation]
    by_id = {m.id: m for m in stack.markers}
    for new_id, ids in division.parts:
        types = [by_id[i].type for i in ids]
        out += _part(rules, nation, new_id, types)
    return out


def _shape(state: State, stack: Stack, division: Division) -> list[str]:
    ids = [i for _, ids in division.parts for i in ids]
    mine = {m.id for m in stack.markers}
    out = []
    if len(division.parts) < 2:
        out.append(f"DIVIDE {stack.id}: give two or more parts")
    unknown = [i for i in ids if i not in mine]
    if unknown:
        out.append(f"DIVIDE {stack.id}: {', '.join(unknown)} not in {stack.id}")
    twice = [i for i, n in Counter(ids).items() if n > 1]
    if twice:
        out.append(f"DIVIDE {stack.id}: {', '.join(twice)} given to more than one part")
    left = sorted(mine - set(ids))
    if left:
        out.append(f"DIVIDE {stack.id}: {', '.join(left)} given to no part; every marker goes to a part")
    names = [n for n, _ in division.parts]
    for name in names:
        if names.count(name) > 1 or (name in state.stacks and name != stack.id):
            out.append(f"DIVIDE {stack.id}: the new id {name} is already taken; choose another")
    return list(dict.fromkeys(out))


def _part(rules: Rules, nation: Nation, new_id: str, types: list[str]) -> list[str]:
    out = []
    counted = [t for t in types if rules["division.mounts_count_as_markers"] or not nation.is_mount(t)]
    size = len(counted) + (1 if rules["division.count_army_marker"] else 0)
    if size < rules["division.min_markers"]:
        out.append(f"part {new_id} has {size} markers; each part needs at least {rules['division.min_markers']}")
    if characters(nation, types) < rules["division.min_characters"]:
        out.append(f"part {new_id} has no character marker; each part needs one")
    if rules["division.mounts_follow_characters"] and not mounts_ok(nation, types):
        out.append(f"part {new_id} holds a mount without a character able to take it")
    knights = rules["destruction.knight_rule_types"]
    if (nation.key in rules["destruction.knight_rule_nations"] and not rules["division.allow_self_destroying"]
            and not any(t in knights for t in types)):
        out.append(f"part {new_id} would have no {' or '.join(knights)} and be destroyed")
    return out


def divide(state: State, division: Division) -> list[Stack]:
    """Make the division (already checked): the parts stand in the divided stack's tile (WT-DIV-7)."""
    old = state.stacks.pop(division.stack)
    by_id = {m.id: m for m in old.markers}
    parts = []
    for new_id, ids in division.parts:
        part = Stack(new_id, old.owner, old.tile, [by_id[i] for i in ids])
        state.stacks[new_id] = part
        parts.append(part)
    return parts
