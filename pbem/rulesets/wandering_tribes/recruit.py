"""Recruiting (WT-REC): one marker type per opportunity from the nation's cell for the terrain,
cut to what keeps the stack legal, with a lacking compulsory type forced first."""

from __future__ import annotations

from pbem.rulesets.wandering_tribes.armylist import addable, lacking
from pbem.rulesets.wandering_tribes.model import Stack, State
from pbem.rulesets.wandering_tribes.nations import Nation
from pbem.rulesets.wandering_tribes.plan import Pick
from pbem.rulesets.wandering_tribes.rules import Rules


def choose(rules: Rules, nation: Nation, stack: Stack, terrain: str, picks: list[Pick]) -> Pick | None:
    """What the stack recruits in `terrain` with the player's ranked picks, or None."""
    cell = {o.type: o.max for o in nation.cell(terrain)}
    cap = rules.cap
    forced = _forced(rules, nation, stack, cell)
    if forced:
        wanted = {t: n for t, n in picks}
        type_ = next((t for t, _ in picks if t in forced), next(t for t in cell if t in forced))
        count = wanted.get(type_) or (forced[type_] if rules["recruit.forced_count"] == "deficit" else cell[type_])
        return type_, max(1, addable(nation, stack, type_, min(count, cell[type_]), cap))
    for type_, count in picks:
        if type_ in cell:
            n = addable(nation, stack, type_, min(count, cell[type_]), cap)
            if n:
                return type_, n
    return None


def _forced(rules: Rules, nation: Nation, stack: Stack, cell: dict[str, int]) -> dict[str, int]:
    """Lacking compulsory types the cell offers and at least one of which fits (WT-REC-8)."""
    short = lacking(nation, stack, bool(rules["recruit.general_is_compulsory"]))
    return {t: d for t, d in short.items() if t in cell and addable(nation, stack, t, 1, rules.cap)}


def recruit(state: State, rules: Rules, stack: Stack, terrain: str, picks: list[Pick]) -> list[str]:
    """Add what `choose` picks to the stack at once (WT-REC-13); returns the log line."""
    nation = rules.nations[state.players[stack.owner].nation]
    chosen = choose(rules, nation, stack, terrain, picks)
    if chosen is None:
        offered = ", ".join(o.type for o in nation.cell(terrain)) or "nothing"
        return [f"{stack.id} recruits nothing in {terrain} (the cell offers {offered})"]
    type_, n = chosen
    for _ in range(n):
        stack.markers.append(state.new_marker(type_, nation.points(type_)))
    return [f"{stack.id} recruits {n} {type_} in {terrain} -> {stack.points} pts"]
