"""Step 0: empire sizes, the full tie-break and the ascending order (COC-ORD).

Sizes are counted once, when the round opens, from the map as the last round
left it (COC-ORD-2); the order then holds for the whole round (COC-ORD-7).
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.conquest.empire import holdings
from pbem.rulesets.conquest.model import ConquestState, SizeEntry
from pbem.rulesets.conquest.rules import dice_spec


def rank_empires(state: ConquestState, rules: RuleBook, dice: Dice, round_no: int) -> list[SizeEntry]:
    """Every active player, largest first, with the tie-break dice each rolled (COC-ORD-3..6, -11)."""
    entries = {}
    for player in state.active():
        h = holdings(state, player, rules)
        entries[player] = SizeEntry(player, h.size, h.tiles, h.cities, h.castles)
    steps = [s for s in rules["size.tiebreaks"] if s != "die"]     # checked by rules.load: "die" comes last

    def key(entry: SizeEntry) -> tuple[float, ...]:
        """Larger first: size, then the counted tie-breaks in `size.tiebreaks` order (COC-ORD-4, -5)."""
        return (-entry.size, *(-getattr(entry, step) for step in steps))

    keyed = sorted(entries.values(), key=key)
    ranked: list[SizeEntry] = []
    i = 0
    while i < len(keyed):
        j = i
        while j < len(keyed) and key(keyed[j]) == key(keyed[i]):
            j += 1
        ranked += roll_off([e.player for e in keyed[i:j]], entries, rules, dice, round_no)
        i = j
    for rank, entry in enumerate(ranked, start=1):
        entry.rank = rank
    return ranked


def roll_off(players: Sequence[str], entries: dict[str, SizeEntry], rules: RuleBook, dice: Dice,
             round_no: int) -> list[SizeEntry]:
    """COC-ORD-6: each rolls; the higher roll ranks larger; equal rolls re-roll among themselves."""
    if len(players) == 1:
        return [entries[players[0]]]
    count, sides = dice_spec(rules["size.tiebreak_die"])
    high_wins = bool(rules["size.tiebreak_high_is_larger"])
    rolls = {}
    for player in players:
        total = dice.roll(f"Round {round_no} size tie-break: {player}", count, sides).total
        entries[player].tiebreak.append(total)
        rolls[player] = total
    out: list[SizeEntry] = []
    for value in sorted(set(rolls.values()), reverse=high_wins):
        group = [p for p in players if rolls[p] == value]
        out += roll_off(group, entries, rules, dice, round_no)
    return out


def open_round(state: ConquestState, rules: RuleBook, dice: Dice, round_no: int) -> None:
    """Fix sizes, order and largest empire for the new round (COC-ORD-2, -8, -9)."""
    ranked = rank_empires(state, rules, dice, round_no)
    state.round.sizes = ranked
    state.round.order = [e.player for e in reversed(ranked)]
    state.round.largest = ranked[0].player if ranked else ""
