"""After each tabletop battle in Step B: the sheets become loss and experience rolls.

Runs as `aftermath.step_b`'s battle hook, straight after the battle's massacre
die, so the dice fall in DR-GEN-4 order: the combat-loss dice of side 1, then
side 2 (sides in faction order, each in sheet order, a lost-item die right after
its character's death die), then the experience dice of side 1, then side 2.

For each army that fought (DR-BAT-16): an eliminated list rolls nothing
(DR-LOS-2, DR-EXP-12); the losses it carried into the battle are cleared
(DR-LOS-17, unless `losses.accumulate`); fled units count as dead only with
`losses.fled_counts_as_dead` (DR-LOS-3); with no sheet it takes no new losses and no experience, and the
GM is told.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.daemon_rift.experience import roll_experience
from pbem.rulesets.daemon_rift.losses import (
    RosterRoll,
    clear_pending,
    roll_losses,
    start_sizes,
)
from pbem.rulesets.daemon_rift.model import LIST_ELIMINATED, BattleResult, DRState
from pbem.rulesets.daemon_rift.movement import Battle
from pbem.rulesets.daemon_rift.sheets import Sheet


@dataclass
class BattleLedger:
    """What one battle did to the rosters, for the battle report (DR-TRN-4)."""

    battle: int
    rolls: list[RosterRoll] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


class PostBattle:
    """The battle hook; `sheets` maps battle number -> faction -> the sheet the window kept
    (copied: reading a sheet may mark fled units dead, which the stored sheet must not show)."""

    def __init__(self, state: DRState, rules: RuleBook, sheets: Mapping[str, Mapping[str, Sheet]]) -> None:
        self.state, self.rules = state, rules
        self.sheets = {int(n): {f: copy.deepcopy(s) for f, s in by.items()} for n, by in sheets.items()}
        self.ledgers: list[BattleLedger] = []
        self.alerts: list[str] = []

    def __call__(self, battle: Battle, result: BattleResult, dice: Dice) -> None:
        ledger = BattleLedger(battle.number)
        self.ledgers.append(ledger)
        order = self.state.faction_order
        work = []
        for side in sorted(battle.sides, key=lambda s: order.index(s.faction) if s.faction in order else len(order)):
            lst = self.state.lists.get(side.champion)
            if lst is None:
                continue
            name = self.state.factions[side.faction].name
            if lst.status == LIST_ELIMINATED:
                ledger.notes.append(f"{side.champion} ({name}) was eliminated: no losses and no experience")
                continue
            sheet = self.sheets.get(battle.number, {}).get(side.faction)
            sizes = start_sizes(lst.roster, sheet) if sheet else {}
            if not self.rules["losses.accumulate"]:
                clear_pending(lst.roster, self.state.turn, battle.number)
            if sheet is not None and self.rules["losses.fled_counts_as_dead"]:
                for line in sheet.lines:
                    line.killed = line.killed or line.fled
            if sheet is None:
                ledger.notes.append(f"{side.champion} ({name}): no post-battle sheet, "
                                    "so no new losses and no experience")
                self.alerts.append(f"Battle {battle.number}: {name} sent no post-battle sheet for {side.champion}; "
                                   "its list takes no losses and no experience this time.")
                continue
            if sheet.source == "gm":
                ledger.notes.append(f"{side.champion} ({name}): post-battle sheet entered by the game master")
            work.append((lst.roster, sheet, sizes))
        for roster, sheet, sizes in work:
            ledger.rolls += roll_losses(self.rules, roster, sheet, sizes, dice, self.state.turn)
        for roster, sheet, sizes in work:
            ledger.rolls += roll_experience(self.rules, roster, sheet, sizes, dice, self.state.turn)
