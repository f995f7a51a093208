"""Repairs by holding (DR-REP-1 to 12), Step C step 5.

A list token that held and was not attacked earns `repair.points` (75) for the
turn. Its plan (`REPAIR R-1 3 model U1 @10; item C1 @15 Shield`, sent with the
orders) is applied entry by entry, skipping what does not match the ledger or
would go over the points left; without a plan, pending missing models and
wounds are repaired in ledger order (`repair.auto_allocate`), never magic items.
Points not spent are lost (DR-REP-7). A wound costs the model's points with
its items divided by its Wounds (DR-REP-3), an item three times its points
(DR-REP-5). Repairs change only the ledger, never the list's points (DR-REP-12).

Options where the catalog leaves a choice to the GM:

- `repair.carry_over = true`: unspent points are kept on the list and added to
  what its next qualifying Hold earns; they are lost only with the list.
- `repair.repeatable = false`: a list has repairs in one turn only; once some
  were applied, later Holds earn nothing (a Hold with nothing to mend uses nothing).
- `repair.wound_cost_rounding`: `"none"` keeps a wound's cost exact (36 2/3),
  `"up"`, `"down"` or `"nearest"` (halves up) make it whole points.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from pbem.kit.roster import Entry, Item, Roster
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.daemon_rift.losses import LOST_ITEM, MISSING, WOUNDS, single
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    DRState,
    FactionOrders,
    RepairItem,
    Token,
    TurnFacts,
)


@dataclass
class RepairLog:
    """One token's repairs in a turn, for the end-of-turn report (DR-TRN-5)."""

    token: str
    faction: str
    points: int                        # earned this turn
    planned: bool                      # from the player's plan, else automatic
    applied: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    saved: str = "0"                   # brought from earlier Holds (`repair.carry_over`)
    spent: str = "0"                   # exact, e.g. "70" or "36 2/3"
    lost: str = "0"                    # points not spent, gone (DR-REP-7)
    kept: str = "0"                    # points not spent, kept for a later Hold (`repair.carry_over`)


def show(value: Fraction) -> str:
    """An exact amount as players read it: 50, or 36 2/3."""
    whole, rest = divmod(value.numerator, value.denominator)
    if not rest:
        return str(whole)
    return f"{whole} {rest}/{value.denominator}" if whole else f"{rest}/{value.denominator}"


def read_cost(text: str) -> Fraction:
    """`10`, `110/3`, `36 2/3` or `36.67` (the last only as an approximation a player may type)."""
    parts = text.split()
    if len(parts) == 2:
        return Fraction(parts[0]) + Fraction(parts[1])
    return Fraction(text)


ROUNDING: dict[str, Callable[[Fraction], Fraction]] = {
    "none": lambda cost: cost,
    "up": lambda cost: Fraction(math.ceil(cost)),
    "down": lambda cost: Fraction(math.floor(cost)),
    "nearest": lambda cost: Fraction(math.floor(cost + Fraction(1, 2))),
}


def wound_cost(e: Entry, rounding: str = "none") -> Fraction:
    """DR-REP-3: a multi-wound model's points, items included, divided by its Wounds,
    kept exact or made whole as `repair.wound_cost_rounding` says."""
    return ROUNDING[rounding](Fraction(e.points + (e.item_points if single(e) else 0), e.wounds))


def unit_cost(rules: RuleBook, e: Entry, kind: str, points: int = 0) -> Fraction:
    if kind == "model":
        return Fraction(e.points)
    if kind == "wound":
        return wound_cost(e, str(rules["repair.wound_cost_rounding"]))
    return Fraction(points * int(rules["repair.magic_item_multiplier"]))


def qualifies(state: DRState, rules: RuleBook, facts: TurnFacts, token: Token) -> bool:
    """DR-REP-1: it held (a default hold counts with `repair.default_hold_qualifies`) and no
    foreign effective move ended in its territory; DR-TOK-13: defensive tokens never repair."""
    lst = state.list_of(token)
    if lst is None or lst.status != LIST_ACTIVE or not lst.approved or lst.roster.empty:
        return False
    if token.id not in facts.held or token.id in facts.retreated:
        return False
    if token.id in facts.default_held and not rules["repair.default_hold_qualifies"]:
        return False
    if not rules["repair.repeatable"] and lst.repaired_turn and lst.repaired_turn != state.turn:
        return False
    return token.territory not in facts.attacked


class Repair:
    def __init__(self, rules: RuleBook, roster: Roster, log: RepairLog, turn: int) -> None:
        self.rules, self.roster, self.log, self.turn = rules, roster, log, turn
        self.left = Fraction(log.points) + read_cost(log.saved)

    def plan(self, items: list[RepairItem]) -> None:
        """DR-REP-10: in order; an entry that does not match the ledger or does not fit is skipped."""
        for item in items:
            reason = self._problem(item)
            if reason:
                self.log.skipped.append(f"{item}: {reason}")
            else:
                self._apply(item)

    def auto(self) -> None:
        """DR-REP-11: pending models and wounds in ledger order, one at a time; never items."""
        for e in self.roster.entries:
            for kind, mark in (("model", MISSING), ("wound", WOUNDS)):
                cost = unit_cost(self.rules, e, kind)
                count = min(e.total(mark), int(self.left // cost) if cost else e.total(mark))
                if count:
                    self._apply(RepairItem(kind, e.id, count, show(cost)))
                elif e.total(mark):
                    self.log.skipped.append(f"{e.total(mark)} {kind} {e.id}: {show(cost)} each, "
                                            f"{show(self.left)} left")

    def _problem(self, item: RepairItem) -> str:
        e = self.roster.get(item.target)
        if e is None:
            return f"{self.roster.army} has no entry {item.target}"
        if item.kind == "item":
            points = int(read_cost(item.cost)) if item.cost else 0
            if points <= 0:
                return "an item needs its points"
            if points > e.total(LOST_ITEM):
                return f"{e.id} lost items worth {e.total(LOST_ITEM)} points, not {points}"
            cost = unit_cost(self.rules, e, "item", points)
        else:
            have = e.total(MISSING if item.kind == "model" else WOUNDS)
            if item.count > have:
                return f"{e.id} has {have} {item.kind}(s) to repair, not {item.count}"
            cost = unit_cost(self.rules, e, item.kind) * item.count
            if item.cost and read_cost(item.cost) != unit_cost(self.rules, e, item.kind):
                return f"the ledger's cost is {show(unit_cost(self.rules, e, item.kind))} each"
        if cost > self.left:
            return f"costs {show(cost)}, only {show(self.left)} left"
        return ""

    def _apply(self, item: RepairItem) -> None:
        e = self.roster.get(item.target)
        assert e is not None
        if item.kind == "item":
            points = int(read_cost(item.cost))
            lost = [m.name for m in e.marks_of(LOST_ITEM)]
            e.take(LOST_ITEM, points)
            e.items.append(Item(item.name or f"replacement for {lost[0]}", points))
            cost = unit_cost(self.rules, e, "item", points)
            text = f"item for {e.id} {e.name}: {item.name or 'replacement'} ({points} points) for {show(cost)}"
        else:
            e.take(MISSING if item.kind == "model" else WOUNDS, item.count)
            cost = unit_cost(self.rules, e, item.kind) * item.count
            text = f"{item.count} {item.kind}{'s' if item.count > 1 else ''} of {e.id} {e.name} for {show(cost)}"
        self.left -= cost
        self.log.applied.append(text)
        self.roster.note(self.turn, e.id, f"repaired: {text}")


def repair_lists(state: DRState, rules: RuleBook, facts: TurnFacts,
                 submitted: dict[str, FactionOrders]) -> list[RepairLog]:
    """Every qualifying list token in faction and token order (DR-REP-1, 8)."""
    logs = []
    for fid in state.ordered_factions():
        for token in state.tokens_of(fid):
            if not qualifies(state, rules, facts, token):
                continue
            lst = state.lists[token.id]
            plan = submitted.get(fid, FactionOrders()).repairs.get(token.id, [])
            log = RepairLog(token.id, fid, int(rules["repair.points"]), planned=bool(plan),
                            saved=lst.repair_saved if rules["repair.carry_over"] else "0")
            work = Repair(rules, lst.roster, log, state.turn)
            if plan:
                work.plan(plan)
            elif rules["repair.auto_allocate"]:
                work.auto()
            log.spent = show(log.points + read_cost(log.saved) - work.left)
            if rules["repair.carry_over"]:
                log.kept = lst.repair_saved = show(work.left)
            else:
                log.lost = show(work.left)
            if log.applied:
                lst.repaired_turn = state.turn
            if log.applied or log.skipped or log.kept != "0" or needs_repair(lst.roster):
                logs.append(log)      # points earned and not spent are reported too: the player may plan next time
    return logs


def needs_repair(roster: Roster) -> bool:
    """Whether anything in the ledger could be mended (DR-REP-2)."""
    return any(e.total(mark) for e in roster.entries for mark in (MISSING, WOUNDS, LOST_ITEM))
