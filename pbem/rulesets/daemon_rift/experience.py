"""Combat experience (DR-EXP): the 2d6 tables after a tabletop battle, and stat choices.

Survivors roll in the player's priority order, units first, then characters,
until the army has `experience.unit_cap` unit and `experience.character_cap`
character upgrades. An upgrade never repeats one the entry already has; a
result whose stats are all taken gives nothing and does not count (DR-EXP-3).

Where the table offers a choice, the sheet's preference for the line (`[I, WS]`)
decides; otherwise the first allowed stat in table order is taken and the
choice stays open: the player may change it with `CHOOSE <token> <entry> <stat>`
in his next orders, and it is fixed before the list's next briefing (DR-EXP-11).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.roster import Entry, Mark, Roster
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.daemon_rift.losses import (
    CHOICE,
    TRAUMA,
    UPGRADE,
    RosterRoll,
    Size,
    casualties,
    lost_half,
)
from pbem.rulesets.daemon_rift.model import DRState, FactionOrders
from pbem.rulesets.daemon_rift.options import dice_spec
from pbem.rulesets.daemon_rift.sheets import Sheet, SheetLine

WIZARD_DICE = ("power_die", "dispel_die")
GENERAL_RANGE = "leadership_range_plus_6in"


# --- who may roll (DR-EXP-1, 5, 13) --------------------------------------------------------

def eligible(rules: RuleBook, e: Entry, line: SheetLine, size: Size) -> bool:
    if e.kind == "character":
        return not line.killed and casualties(e, line, size) == 0
    if line.killed or (line.fled and not rules["experience.fled_units_eligible"]):
        return False
    return not lost_half(rules, e, line, size)


def order(sheet: Sheet, roster: Roster, characters: bool) -> list[tuple[Entry, SheetLine]]:
    """Priority order, then the rest in sheet order (DR-EXP-4, DR-EXP-9)."""
    ranked = list(dict.fromkeys(sheet.priority + [s.entry for s in sheet.lines]))
    out = []
    for ident in ranked:
        entry, line = roster.get(ident), sheet.line(ident)
        if entry is not None and line is not None and (entry.kind == "character") == characters:
            out.append((entry, line))
    return out


# --- the tables -------------------------------------------------------------------------------

def row(table: Sequence[Mapping[str, Any]], total: int) -> Mapping[str, Any]:
    return next(r for r in table if r["min"] <= total <= r["max"])


def taken(e: Entry) -> list[str]:
    return [m.name for m in e.marks_of(UPGRADE)]


def options(rules: RuleBook, e: Entry, total: int) -> tuple[list[str], bool]:
    """(the stats a result offers, whether they may repeat) for an entry and a table row."""
    table = rules["experience.character_table" if e.kind == "character" else "experience.unit_table"]
    r = row(table, total)
    if r["result"] in ("choice", "stat"):
        return list(r["options"]), False
    if r["result"] != "special":
        return [], False
    if e.has("wizard"):
        return list(r["wizard"]), bool(rules["experience.wizard_dice_repeatable"])
    if e.has("general"):
        return list(r["warrior_general"]), False
    return [s for x in table if 8 <= x["min"] <= 11 and x["result"] in ("choice", "stat") for s in x["options"]], False


def allowed(rules: RuleBook, e: Entry, total: int, current: str = "") -> list[str]:
    """DR-EXP-3: the offered stats the entry has not yet upgraded (`current` is the one being changed)."""
    offered, repeatable = options(rules, e, total)
    have = list(taken(e))
    if current in have:
        have.remove(current)
    if repeatable or not rules["experience.no_duplicates"]:
        return offered
    return [s for s in offered if s not in have]


class Experience:
    """The experience dice of one sheet: units, then characters (DR-GEN-4)."""

    def __init__(self, rules: RuleBook, roster: Roster, sheet: Sheet, sizes: dict[str, Size], dice: Dice,
                 turn: int) -> None:
        self.rules, self.roster, self.sheet, self.sizes, self.dice, self.turn = rules, roster, sheet, sizes, dice, turn
        self.rolls: list[RosterRoll] = []

    def run(self) -> list[RosterRoll]:
        for characters, cap in ((False, "experience.unit_cap"), (True, "experience.character_cap")):
            upgrades = 0
            for entry, line in order(self.sheet, self.roster, characters):
                if upgrades >= int(self.rules[cap]):
                    break
                if eligible(self.rules, entry, line, self.sizes[entry.id]):
                    upgrades += self._roll(entry, line)
        return self.rolls

    def _roll(self, e: Entry, line: SheetLine) -> int:
        """Roll 2d6 for one entry; returns 1 if it counts towards the cap."""
        count, sides = dice_spec(self.rules["experience.dice"])
        roll = self.dice.roll(f"experience, battle {self.sheet.battle}: {self.roster.army} {e.id} {e.name}",
                              count, sides)
        record = RosterRoll(self.sheet.battle, self.roster.army, e.id, e.name, "experience", list(roll.faces))
        self.rolls.append(record)
        total = roll.total
        table = self.rules["experience.character_table" if e.kind == "character" else "experience.unit_table"]
        r = row(table, total)
        if r["result"] == "stat" and all(s in taken(e) for s in r["options"]) and "if_already" in r:
            total, r = int(r["if_already"]), row(table, int(r["if_already"]))
            had = "/".join(options(self.rules, e, roll.total)[0])
            record.result = f"{roll.total}, read as {total} (already has {had}): "
        if r["result"] == "none":
            record.result += "no upgrade"
            return 0
        if r["result"] == "trauma":
            return self._trauma(e, r, record)
        return self._upgrade(e, line, total, record)

    def _trauma(self, e: Entry, r: Mapping[str, Any], record: RosterRoll) -> int:
        """DR-EXP-7: a permanent -1 Ld, not an upgrade."""
        for stat, change in r["modifier"].items():
            e.add_mark(Mark(TRAUMA, stat, int(change), permanent=True, turn=self.turn))
        record.result += "traumatised: " + ", ".join(f"{v:+d} {k}" for k, v in r["modifier"].items())
        self.roster.note(self.turn, e.id, f"battle {self.sheet.battle}: {record.result}")
        return 1 if self.rules["experience.trauma_counts_towards_cap"] else 0

    def _upgrade(self, e: Entry, line: SheetLine, total: int, record: RosterRoll) -> int:
        free = allowed(self.rules, e, total)
        if not free:
            record.result += "no upgrade: every stat it offers is already taken"
            if self.rules["experience.duplicate_exhausted"] == "counts":
                record.result += " (counts towards the limit)"
                return 1
            return 0
        preferred = [s for s in line.prefer if s in free]
        pick, how = (preferred[0], "") if preferred else self._default_pick(e, free)
        e.add_mark(Mark(UPGRADE, pick, 1, permanent=True, turn=self.turn))
        record.result += f"+1 {label(pick)}"
        if len(free) > 1 and not preferred:
            e.add_mark(Mark(CHOICE, pick, total, permanent=True, turn=self.turn))
            record.result += f" ({how}; may be changed to {' or '.join(label(s) for s in free if s != pick)})"
        self.roster.note(self.turn, e.id, f"battle {self.sheet.battle}: upgrade +1 {label(pick)}")
        return 1


    def _default_pick(self, e: Entry, free: list[str]) -> tuple[str, str]:
        """DR-EXP-11 with no preference: the first allowed stat in table order, or with
        `experience.choice_default = "random"` one drawn by a die."""
        if len(free) == 1 or self.rules["experience.choice_default"] != "random":
            return free[0], "default"
        die = self.dice.roll(f"experience choice, battle {self.sheet.battle}: {self.roster.army} {e.id} "
                             f"(1-{len(free)}: {', '.join(free)})", sides=len(free)).total
        return free[die - 1], f"drawn by die {die}"


def label(stat: str) -> str:
    return {"power_die": "power die", "dispel_die": "dispel die", GENERAL_RANGE: '6" leadership range',
            "M": "Move"}.get(stat, stat)


def roll_experience(rules: RuleBook, roster: Roster, sheet: Sheet, sizes: dict[str, Size], dice: Dice,
                    turn: int) -> list[RosterRoll]:
    return Experience(rules, roster, sheet, sizes, dice, turn).run()


# --- stat choices sent later (DR-EXP-11) ---------------------------------------------------------

def choose(rules: RuleBook, roster: Roster, entry_id: str, stat: str, turn: int) -> str:
    """Change an open choice to `stat`; returns what was done (raises ValueError if not allowed)."""
    e = roster.get(entry_id)
    if e is None:
        raise ValueError(f"{roster.army} has no entry {entry_id}")
    for mark in e.marks_of(CHOICE):
        if stat in allowed(rules, e, mark.value, current=mark.name):
            upgrade = next(m for m in e.marks_of(UPGRADE) if m.name == mark.name)
            upgrade.name, old, mark.name = stat, mark.name, stat
            roster.note(turn, e.id, f"experience choice: +1 {label(stat)} instead of +1 {label(old)}")
            return f"{roster.army} {e.id}: +1 {label(stat)}"
    open_ = [m.name for m in e.marks_of(CHOICE)]
    raise ValueError(f"{roster.army} {e.id} has no open experience choice that offers {stat}"
                     + (f" (open: {', '.join(open_)})" if open_ else ""))


def open_choices(roster: Roster) -> list[tuple[Entry, Mark]]:
    return [(e, m) for e in roster.entries for m in e.marks_of(CHOICE)]


def close_choices(roster: Roster) -> None:
    """Before the next briefing every choice is fixed (DR-EXP-11)."""
    for e in roster.entries:
        e.drop_marks(CHOICE)


def settle_choices(state: DRState, rules: RuleBook, submitted: Mapping[str, FactionOrders]) -> list[str]:
    """Step A: the CHOOSE lines sent with the orders, then every open choice is fixed (DR-EXP-11)."""
    done = []
    for orders in submitted.values():
        for token, picks in orders.choices.items():
            lst = state.lists.get(token)
            for entry, wanted in picks.items():
                if lst is None:
                    continue
                try:
                    done.append(choose(rules, lst.roster, entry, wanted, state.turn))
                except ValueError as problem:
                    done.append(f"not applied: {problem}")
    for lst in state.lists.values():
        close_choices(lst.roster)
    return done
