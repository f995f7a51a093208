"""The Initiative Phase (SWM-INI, SWM-ALL-1..4, SWM-ALL-11..13): alliances made final, break-up
retreats, a d20 per player plus modifiers, each alliance's result, roll-offs, stances and slots.

Every die goes through the kit's `Dice` with its purpose; dice within a group are rolled in a
fixed order (A37): initiative dice in the sides' current order, roll-offs in the same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice, dice_spec
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.model import EARLY, LATE, Squad
from pbem.rulesets.star_wars_miniatures.world import World, retreat_destination


@dataclass(frozen=True)
class Preference:
    """A side's stance preference: `STANCE early|late`, or a `PREFER` ranking of slot labels."""

    stance: str = ""
    ranking: tuple[str, ...] = ()


@dataclass
class Side:
    members: list[str]
    total: int = 0
    picked: str = ""                      # the member whose total is used (SWM-INI-8)
    preference: Preference = field(default_factory=Preference)

    @property
    def key(self) -> str:
        return "+".join(self.members)


def form_alliances(declared: Mapping[str, Sequence[str]], players: Sequence[str],
                   max_members: int = 0) -> list[list[str]]:
    """SWM-ALL-2: an alliance forms among players who all sent exactly the same member set,
    each naming himself; at least 2 members, at most `max_members` (0 = any)."""
    out: list[list[str]] = []
    taken: set[str] = set()
    for player in players:
        group = frozenset(declared.get(player, ()))
        if player in taken or player not in group or len(group) < 2 or (max_members and len(group) > max_members):
            continue
        if all(frozenset(declared.get(m, ())) == group for m in group) and not group & taken:
            out.append([p for p in players if p in group])
            taken |= group
    return out


def breakup_retreats(world: World, rankings: Mapping[str, Sequence[str]]) -> None:
    """SWM-ALL-11/12: every squad standing where a non-ally now rules must leave at once for an
    adjacent friendly territory (judged before any of them moves), or is destroyed."""
    state = world.state
    leaving = [s for s in sorted(state.squads.values(), key=lambda s: s.id)
               if not state.friendly(s.owner, s.place)]
    moves = {s.id: retreat_destination(world, s, s.place, rankings.get(s.id, ())) for s in leaving}
    for squad in leaving:
        goal = moves[squad.id]
        if goal:
            world.say(f"Break-up: {squad.id} leaves {squad.place} for {goal}.")
            state.arrive(squad, goal)
        else:
            world.eliminate(squad, f"the alliance broke up and {squad.place} has no friendly neighbour")


def modifiers(world: World, player: str) -> list[tuple[str, int]]:
    """SWM-INI-2..6: Intelligence Officer, Recon squads, Thrawn, damaged squads."""
    book, state = world.book, world.state
    out = []
    if state.held(player, "intelligence_officer"):
        out.append(("Intelligence Officer", book["initiative.modifiers.intelligence_officer"]))
    for squad in state.squads_of(player):
        if squad.damaged:
            out.append((f"{squad.id} damaged", book["initiative.modifiers.damaged_squad"]))
        elif not _blocked(world, squad):
            if any(tr.has(t, "Recon", world.catalog) for t in squad.troops):
                out.append((f"{squad.id} Recon", book["initiative.modifiers.recon_squad"]))
            if world.faction(player) == book["initiative.modifiers.thrawn_faction"] and any(
                    t.name.casefold() == str(book["initiative.modifiers.thrawn_character"]).casefold()
                    for t in squad.troops):
                out.append((f"Thrawn in {squad.id}", book["initiative.modifiers.thrawn"]))
    return out


def _blocked(world: World, squad: Squad) -> bool:
    """An enemy squad with a Disruptive troop in the same or an adjacent territory (A30)."""
    state = world.state
    near = set(world.places.neighbours(squad.place))
    if world.book["initiative.disruptive_range"] == "adjacent_or_same":
        near.add(squad.place)
    for other in state.squads.values():
        if other.owner in state.allies(squad.owner) or other.place not in near:
            continue
        if other.damaged and world.book["initiative.disruptive_requires_active"]:
            continue
        if any(tr.has(t, "Disruptive", world.catalog) for t in other.troops):
            return True
    return False


def roll_totals(world: World, order: Sequence[str], dice: Dice) -> dict[str, int]:
    """SWM-INI-7: each player's d20 plus his modifiers, logged with every part."""
    count, sides = dice_spec(world.book["initiative.die"])
    totals = {}
    for player in order:
        die = dice.roll(f"initiative: {player}", count, sides).total
        mods = modifiers(world, player)
        totals[player] = die + sum(v for _, v in mods)
        parts = "".join(f" {v:+d} ({why})" for why, v in mods)
        world.say(f"Initiative {player}: d20 {die}{parts} = {totals[player]}")
    return totals


def make_sides(players: Sequence[str], alliances: Sequence[Sequence[str]], totals: Mapping[str, int],
               preferences: Mapping[str, Preference], pick: str = "highest") -> list[Side]:
    """SWM-GEN-6, SWM-INI-8, SWM-INI-15: one side per lone player or alliance; an alliance uses
    its highest (or lowest) member total and that member's stance, else the next member's."""
    out = []
    for player in players:
        group = next((list(a) for a in alliances if player in a), [player])
        if group[0] != player:
            continue
        ranked = sorted(group, key=lambda p: -totals[p] if pick == "highest" else totals[p])
        chosen = next((p for p in ranked if preferences.get(p, Preference()) != Preference()), ranked[0])
        out.append(Side(group, totals[ranked[0]], ranked[0], preferences.get(chosen, Preference())))
    return out


def choosing_order(sides: Sequence[Side], dice: Dice, die: str = "1d20", highest_first: bool = True,
                   world: World | None = None) -> list[Side]:
    """SWM-INI-9/10: highest total first; tied sides roll off, highest first, re-rolling ties."""
    by_total: dict[int, list[Side]] = {}
    for side in sides:
        by_total.setdefault(side.total, []).append(side)
    out: list[Side] = []
    for total in sorted(by_total, reverse=highest_first):
        out += _roll_off(by_total[total], dice, die, world)
    return out


def _roll_off(tied: list[Side], dice: Dice, die: str, world: World | None) -> list[Side]:
    if len(tied) < 2:
        return tied
    count, sides = dice_spec(die)
    rolls = {s.key: dice.roll(f"initiative roll-off: {s.key}", count, sides).total for s in tied}
    if world is not None:
        world.say("Roll-off: " + ", ".join(f"{k} {v}" for k, v in rolls.items()))
    out: list[Side] = []
    for value in sorted(set(rolls.values()), reverse=True):
        out += _roll_off([s for s in tied if rolls[s.key] == value], dice, die, world)
    return out


def assign_slots(choosers: Sequence[Side], default: str = EARLY) -> list[Side]:
    """SWM-INI-12..14: early takes the lowest free slot, late the highest; a PREFER ranking picks
    whichever of the two it lists first (neither listed: early); the last chooser takes what is left."""
    n = len(choosers)
    slots: dict[int, Side] = {}
    for side in choosers:
        free = [k for k in range(1, n + 1) if k not in slots]
        slots[_choose(side.preference, free[0], free[-1], n, default)] = side
    return [slots[k] for k in sorted(slots)]


def _choose(pref: Preference, low: int, high: int, n: int, default: str) -> int:
    if low == high:
        return low
    if pref.ranking:
        rank = {label.upper(): i for i, label in enumerate(pref.ranking)}
        far = len(rank) + 1
        score = {k: min(rank.get(f"F{k}", far), rank.get(f"B{n + 1 - k}", far)) for k in (low, high)}
        if score[low] == score[high] == far:
            return low
        return high if score[high] < score[low] else low
    return high if (pref.stance or default) == LATE else low


def declarations(sent: Mapping[str, Sequence[str]], silent: Sequence[str], previous: Sequence[Sequence[str]],
                 renews: bool) -> dict[str, list[str]]:
    """The ALLY sets that count (SWM-PBM-6): what each player sent; a silent player declares
    nothing, or, with `alliance.nmr_renews = true`, renews last turn's alliance unchanged."""
    out = {p: list(v) for p, v in sent.items()}
    for player in silent:
        old = next((list(a) for a in previous if player in a), [])
        if renews and old:
            out[player] = old
    return out
