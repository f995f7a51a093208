"""Player order: the initial roll-off (MK-SET-1) and the re-sort at every Reform (MK-POR-1..5).

Tied players roll a D6 each, higher first; players still tied roll again among themselves
(`player_order.tie_break = "d6_rolloff"`). Dice order (A32): the players of a tie group in
their current order; several groups are rolled largest army count first; re-rolls follow the
same order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.kit.dice import Dice
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MKState


def roll_off(players: Sequence[str], dice: Dice, purpose: str, section: Section,
             names: Mapping[str, str] | None = None) -> list[str]:
    """The players in roll-off order: higher D6 first, ties re-rolled among themselves. The report
    line names each player by `names` (his kingdom), the die's purpose by his id."""
    if len(players) < 2:
        return list(players)
    shown = names or {}
    rolled = {p: dice.d6(f"{purpose}: {p}") for p in players}
    section.add(purpose + ": " + ", ".join(f"{shown.get(p, p)} D6 = {v}" for p, v in rolled.items()))
    ranked: list[str] = []
    for value in sorted(set(rolled.values()), reverse=True):
        tied = [p for p in players if rolled[p] == value]
        ranked += roll_off(tied, dice, purpose, section, names) if len(tied) > 1 else tied
    return ranked


def resort(state: MKState, dice: Dice, section: Section) -> list[str]:
    """MK-POR-1/2: most armies first, ties broken by roll-off; 0-army players last (MK-END-3)."""
    counts = {p: len(state.armies_of(p)) for p in state.order}
    names = {p: k.name for p, k in state.kingdoms.items()}
    ranked: list[str] = []
    for count in sorted(set(counts.values()), reverse=True):
        tied = [p for p in state.order if counts[p] == count]
        purpose = f"player order roll-off ({count} arm{'y' if count == 1 else 'ies'})"
        ranked += roll_off(tied, dice, purpose, section, names) if len(tied) > 1 else tied
    return ranked
