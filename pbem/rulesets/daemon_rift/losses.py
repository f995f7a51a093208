"""Combat losses, wear and tear (DR-LOS): the dice after a tabletop battle and the ledger.

A list's ledger is the marks on its roster entries (`pbem.kit.roster`):

- `missing_models` (temporary): models fewer next battle (DR-LOS-11);
- `wounds_lost` (temporary): wounds a monster, machine, character or 2-wound unit
  starts the next battle without (DR-LOS-4 to 7, DR-LOS-13);
- `lost_item` (permanent until repaired): an item a dead character's green
  replacement lacks, with its points (DR-LOS-10, DR-REP-5);
- `green` (permanent): the character really died and was replaced;
- counter `deaths`: a character's death count (DR-LOS-7);
- `upgrade`, `trauma` and `choice` (permanent): experience, see `experience`.

Temporary marks last until the list's next tabletop battle: processing that
battle's sheet clears them and writes the new results (DR-LOS-17, DR-LOS-18).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from pbem.kit.dice import Dice
from pbem.kit.roster import Entry, Mark, Roster
from pbem.kit.rulebook import RuleBook
from pbem.kit.texts import counted
from pbem.rulesets.daemon_rift.sheets import Sheet, SheetLine

MISSING = "missing_models"
WOUNDS = "wounds_lost"
LOST_ITEM = "lost_item"
GREEN = "green"
DEATHS = "deaths"
TEMPORARY = (MISSING, WOUNDS)
UPGRADE = "upgrade"                    # name: the stat, e.g. "WS" (DR-EXP-2, 6)
TRAUMA = "trauma"                      # name "Ld", value -1 (DR-EXP-7)
CHOICE = "choice"                      # name: the stat taken, value: the roll; still open to the player (DR-EXP-11)
EXPERIENCE = (UPGRADE, TRAUMA, CHOICE)


@dataclass
class RosterRoll:
    """One roll of Step B's loss or experience tables, as the battle report shows it (DR-TRN-4)."""

    battle: int
    army: str
    entry: str
    name: str
    table: str                         # monster | character | unit | lost item | experience ...
    faces: list[int] = field(default_factory=list)
    result: str = ""


# --- sizes at the start of the battle (DR-LOS-12) -------------------------------------------

def single(e: Entry) -> bool:
    """A single model, whose casualties count in wounds."""
    return e.models == 1


@dataclass(frozen=True)
class Size:
    """An entry at the start of the battle, losses carried into it included (DR-LOS-12)."""

    count: int                         # models, or wounds for a single model
    wounds: int                        # total wounds: the size band of a 2-wound unit (DR-LOS-13)


def start_size(e: Entry, line: SheetLine | None = None) -> Size:
    """Read from the ledger before the battle's sheet clears it; `start N` on the sheet wins."""
    if line is not None and line.start:
        return Size(line.start, line.start if single(e) else line.start * e.wounds)
    wounds = e.models * e.wounds - e.total(WOUNDS)
    if single(e):
        return Size(wounds, wounds)
    if e.kind == "twowound":
        return Size(e.models - e.total(WOUNDS) // e.wounds, wounds)
    return Size(e.models - e.total(MISSING), (e.models - e.total(MISSING)) * e.wounds)


def start_sizes(roster: Roster, sheet: Sheet) -> dict[str, Size]:
    out = {}
    for line in sheet.lines:
        entry = roster.get(line.entry)
        if entry is not None:
            out[entry.id] = start_size(entry, line)
    return out


def casualties(e: Entry, line: SheetLine, size: Size) -> int:
    return size.count - line.left if single(e) and line.left else line.lost


def lost_half(rules: RuleBook, e: Entry, line: SheetLine, size: Size) -> bool:
    """Casualties of half or more: in models, or in wounds for a single model (DR-LOS-11, DR-EXP-1)."""
    if line.killed or line.half:
        return True
    return casualties(e, line, size) >= Fraction(str(rules["losses.unit_half_losses_trigger"])) * size.count


# --- the rolls --------------------------------------------------------------------------------

class Losses:
    """The combat-loss dice of one sheet, in sheet order (DR-GEN-4)."""

    def __init__(self, rules: RuleBook, roster: Roster, sheet: Sheet, sizes: dict[str, Size], dice: Dice,
                 turn: int) -> None:
        self.rules, self.roster, self.sheet, self.dice, self.turn = rules, roster, sheet, dice, turn
        self.sizes = sizes
        self.rolls: list[RosterRoll] = []

    def run(self) -> list[RosterRoll]:
        for line in self.sheet.lines:
            entry = self.roster.get(line.entry)
            if entry is not None:
                self._entry(entry, line)
        return self.rolls

    def _entry(self, e: Entry, line: SheetLine) -> None:
        if e.kind == "character":
            if line.killed:
                self._character(e, line)
        elif e.kind == "monster" or (e.kind == "machine" and self.rules["losses.machine_as_monster"]):
            count = self._monster_rolls(e, line)
            for n in range(1, count + 1):
                self._monster(e, f" {n} of {count}" if e.models > 1 else "")
        elif e.kind in ("infantry", "cavalry", "twowound") and lost_half(self.rules, e, line, self.sizes[e.id]):
            self._unit(e)

    def _roll(self, e: Entry, table: str, purpose: str, sides: int = 6) -> tuple[int, RosterRoll]:
        roll = self.dice.roll(f"{purpose}, battle {self.sheet.battle}: {self.roster.army} {e.id} {e.name}",
                              sides=sides)
        record = RosterRoll(self.sheet.battle, self.roster.army, e.id, e.name, table, list(roll.faces))
        self.rolls.append(record)
        return roll.total, record

    def _note(self, e: Entry, text: str) -> None:
        self.roster.note(self.turn, e.id, text)

    # -- monsters, chariots and war machines (DR-LOS-4 to 6) --
    def _monster_rolls(self, e: Entry, line: SheetLine) -> int:
        """One die per monster, "alone or in a unit" (DR-LOS-4): each one killed, and one that
        ended on exactly 1 wound (DR-LOS-5; on a unit's line `left 1` names one such monster)."""
        one_wound_left = e.wounds >= int(self.rules["losses.monster_one_wound_left_min_wounds"]) and line.left == 1
        if single(e):
            return 1 if line.killed or one_wound_left else 0
        fielded = self.sizes[e.id].count
        if line.killed:
            return fielded
        return min(line.lost, fielded) + (1 if one_wound_left and line.lost < fielded else 0)

    def _monster(self, e: Entry, which: str) -> None:
        die, record = self._roll(e, e.kind, f"combat loss ({e.kind}{which})")
        if die in self.rules["losses.monster_wound_on"]:
            e.add_mark(Mark(WOUNDS, "", 1, permanent=False, turn=self.turn))
            record.result = ("one of them starts" if which else "starts") + " the next battle one wound down"
            if e.kind == "machine":
                record.result += " (placed at random at the table, like a shooting hit)"
        else:
            record.result = "no effect"
        self._note(e, f"battle {self.sheet.battle}: {record.result} (die {die})")

    # -- characters (DR-LOS-7, 8, 10) --
    def _character(self, e: Entry, line: SheetLine) -> None:
        e.counters[DEATHS] = deaths = e.counters.get(DEATHS, 0) + 1
        thresholds = list(self.rules["losses.character_death_thresholds"])
        threshold = thresholds[min(deaths, len(thresholds)) - 1]
        die, record = self._roll(e, "character", f"character death {deaths} (dies on {threshold} or less)")
        if die <= threshold:
            record.result = f"death {deaths}: really dies; a green {e.name} takes his place"
            self._note(e, f"battle {self.sheet.battle}: really died (death {deaths}, die {die})")
            self._replace(e, line)
        elif die in self.rules["losses.character_miracle_on"]:
            record.result = f"death {deaths}: miraculous recovery, no ill effects"
        elif die <= int(self.rules["losses.character_wounded_max"]):
            e.add_mark(Mark(WOUNDS, "", 1, permanent=False, turn=self.turn))
            record.result = f"death {deaths}: survives, starts the next battle with one wound"
        if die > threshold:
            self._note(e, f"battle {self.sheet.battle}: {record.result} (die {die})")

    def _replace(self, e: Entry, line: SheetLine) -> None:
        """DR-LOS-10: a green character of the same type, items less one, no experience, no deaths."""
        e.drop_marks(*EXPERIENCE, *TEMPORARY)
        e.counters[DEATHS] = 0
        if not e.marks_of(GREEN):
            e.add_mark(Mark(GREEN, "", 0, permanent=True, turn=self.turn))
        if not e.items:
            return
        index = self._lost_item_index(e, line)
        item = e.items.pop(index)
        e.add_mark(Mark(LOST_ITEM, item.name, item.points, permanent=True, turn=self.turn))
        self._note(e, f"battle {self.sheet.battle}: the green {e.name} lacks {item.name} ({item.points} points)")

    def _lost_item_index(self, e: Entry, line: SheetLine) -> int:
        """The player's named item (`losses.item_lost = "player_choice"`), else a die re-rolled
        above the number of items (`"random"`), each roll logged."""
        if self.rules["losses.item_lost"] == "player_choice" and line.item:
            named = [i for i, item in enumerate(e.items) if item.name.casefold() == line.item.casefold()]
            if named:
                return named[0]
        count = len(e.items)
        sides = max(6, count)
        while True:
            die, record = self._roll(e, "lost item", f"lost item (1-{count} in list order)", sides)
            if die <= count:
                item = e.items[die - 1]
                record.result = f"loses {item.name} ({item.points} points)"
                return die - 1
            record.result = f"re-rolled: only {counted(count, 'item')}"

    # -- infantry, cavalry and 2-wound units (DR-LOS-9, 11 to 15) --
    def _unit(self, e: Entry) -> None:
        twowound = e.kind == "twowound"
        size = self.sizes[e.id].wounds if twowound else self.sizes[e.id].count
        band = next(b for b in sorted(self.rules["losses.unit_band"], key=lambda b: -b["min_size"])
                    if size >= b["min_size"])
        what = "wound" if twowound else "model"
        if band["loss"] in self.rules["losses.dice_map"]:
            die, record = self._roll(e, "unit", f"combat loss ({band['loss']}, {size} {what}s at the start)")
            fewer = int(self.rules["losses.dice_map"][band["loss"]][str(die)])
        else:
            fewer = int(band["loss"])
            record = RosterRoll(self.sheet.battle, self.roster.army, e.id, e.name, "unit")
            self.rolls.append(record)
        e.add_mark(Mark(WOUNDS if twowound else MISSING, "", fewer, permanent=False, turn=self.turn))
        record.result = f"{fewer} {what}{'s' if fewer > 1 else ''} fewer next battle" + \
            ("" if record.faces else f" (under {band_floor(self.rules, size)}, no die)")
        self._note(e, f"battle {self.sheet.battle}: {record.result}")


def band_floor(rules: RuleBook, size: int) -> int:
    """The smallest size of the band above `size`, for the report's wording."""
    above = [int(b["min_size"]) for b in rules["losses.unit_band"] if int(b["min_size"]) > size]
    return min(above) if above else size + 1


def clear_pending(roster: Roster, turn: int, battle: int) -> None:
    """DR-LOS-17: the losses carried into this battle are spent; new results replace them."""
    gone = roster.clear_temporary(*TEMPORARY)
    if gone:
        roster.note(turn, "", f"battle {battle}: losses carried into the battle cleared")


def roll_losses(rules: RuleBook, roster: Roster, sheet: Sheet, sizes: dict[str, Size], dice: Dice,
                turn: int) -> list[RosterRoll]:
    return Losses(rules, roster, sheet, sizes, dice, turn).run()
