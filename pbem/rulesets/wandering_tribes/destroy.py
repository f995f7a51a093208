"""Destruction (WT-DES): stacks without a character, Bretonnian stacks without Knights, and after
a battle stacks of characters only, are removed; a player left with no stack drops out.

Catalog A17: the no-character and Bretonnian checks run at every change of a stack's markers
(after a battle only once the winner has recruited); the character-only check runs after battles
(`destruction.character_only_after_battle`) and, with `destruction.character_only_anytime = true`
(A8/A17), at every one of those changes too: after a division, after recruiting, after combining
(its removals), after a battle and after a retreat that combined stacks. Each of those steps ends
with `sweep` over the stacks it may have changed."""

from __future__ import annotations

from collections.abc import Iterable

from pbem.rulesets.wandering_tribes.armylist import characters, has_units
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.rules import Rules


def reason(state: State, rules: Rules, stack_id: str, after_battle: bool) -> str:
    """Why the stack is destroyed now, or ""."""
    stack = state.stacks[stack_id]
    nation = rules.nations[state.players[stack.owner].nation]
    types = stack.types()
    if characters(nation, types) == 0:
        return "it has no character marker"                                     # WT-DES-1/3
    if nation.key in rules["destruction.knight_rule_nations"] and not any(
            t in rules["destruction.knight_rule_types"] for t in types):
        return f"a {nation.name} stack without {' or '.join(rules['destruction.knight_rule_types'])}"  # WT-DES-4
    character_check = rules["destruction.character_only_anytime"] or (
        after_battle and rules["destruction.character_only_after_battle"])
    if character_check and not has_units(nation, types):
        return "it holds characters only"                                       # WT-DES-2
    return ""


def check(state: State, rules: Rules, stack_id: str, after_battle: bool = False) -> list[str]:
    """Remove the stack if a destruction rule applies; returns the log lines."""
    if stack_id not in state.stacks:
        return []
    why = reason(state, rules, stack_id, after_battle)
    if not why:
        return []
    return [f"{stack_id} is destroyed: {why}", *state.remove_stack(stack_id)]


def sweep(state: State, rules: Rules, stack_ids: Iterable[str], after_battle: bool = False) -> list[str]:
    """`check` on each of the stacks (those already gone are skipped), in the order given."""
    return [line for stack_id in list(stack_ids) for line in check(state, rules, stack_id, after_battle)]
