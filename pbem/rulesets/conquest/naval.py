"""Naval Advantage after the round's sea battles (optional module, `naval.enabled`; COC-NAV-5, -9..11).

`update(state)` runs in step C once every sea battle is settled. Every loser's
Advantages end (COC-NAV-9), then every winner gains Advantage over each player
he defeated (COC-NAV-5); a draw changes nothing (COC-NAV-11). Losses are taken
first so that sea battles of one round, fought in no set order (COC-NAV-4), do
not depend on their numbering; and two players never hold Advantage over each
other at once (COC-NAV-10). An abstract sea result counts like a played one
(COC-ABR-10). What Advantage does to conquest costs is part of the window-4
actions in `spending.py` (COC-NAV-6..8, -12, -14).
"""

from __future__ import annotations

from pbem.rulesets.conquest.model import SEA, ConquestState, NavalAdvantage, other_side


def update(state: ConquestState) -> list[str]:
    """Naval Advantage after this round's sea battles; returns lines for the report."""
    names = {p: e.name for p, e in state.empires.items()}
    gains: list[tuple[str, str]] = []
    losers: set[str] = set()
    lines = []
    for battle in state.round.battles:
        outcome = state.round.outcome(battle.id)
        if battle.kind != SEA or outcome is None:
            continue
        if not outcome.winner:
            lines.append(f"{battle.id}: a draw at sea; Naval Advantage stays as it was")
            continue
        winners, beaten = battle.members(outcome.winner), battle.members(other_side(outcome.winner))
        losers.update(beaten)
        gains += [(w, b) for w in winners for b in beaten]
    for loser in sorted(losers):
        for n in state.naval:
            if n.holder == loser:
                lines.append(f"{names[n.holder]} loses Naval Advantage over {names[n.subject]}")
        state.naval = [n for n in state.naval if n.holder != loser]
    for holder, subject in gains:
        state.naval = [n for n in state.naval if (n.holder, n.subject) != (subject, holder)]
        if not state.has_advantage(holder, subject):
            state.naval.append(NavalAdvantage(holder, subject))
            lines.append(f"{names[holder]} gains Naval Advantage over {names[subject]}")
    return lines
