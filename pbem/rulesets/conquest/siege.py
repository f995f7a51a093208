"""Siege assaults in step C (optional module, `siege.enabled`; COC-SIE-10, COC-SIE-11).

Starting a siege, the defender's reconquest and the limits on a besieged tile
are window-4 actions and live with the other actions in `spending.py`; the
declared assaults become battles in `challenges.py`. What is left for step C is
the assault's result: a besieger who wins takes the whole tile, castle or city
included, before the Conquest & Build phase; a draw or a loss leaves the siege
as it is.
"""

from __future__ import annotations

from pbem.rulesets.conquest.model import ATTACKER, Battle, BattleOutcome, ConquestState


def apply_assault(state: ConquestState, battle: Battle, outcome: BattleOutcome) -> str:
    """Carry out one settled siege assault; returns the line for the report."""
    siege = state.siege_at(battle.tile)
    if siege is None:
        return f"{battle.id}: the siege of {battle.tile} had already ended"
    if outcome.winner == ATTACKER:
        state.sieges.remove(siege)
        state.tiles[battle.tile].owner = siege.besieger
        building = state.tiles[battle.tile].building or "ruins"
        return (f"{battle.id}: {state.empires[siege.besieger].name} storms {battle.tile}; the tile and its "
                f"{building} are his (COC-SIE-10)")
    return f"{battle.id}: the assault on {battle.tile} fails; the siege goes on (COC-SIE-11)"
