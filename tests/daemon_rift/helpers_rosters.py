"""Rosters, sheets and states for the loss, experience and repair tests."""

from __future__ import annotations

from pbem.kit.roster import Mark, Roster, parse_entry
from pbem.rulesets.daemon_rift.losses import UPGRADE
from pbem.rulesets.daemon_rift.rosters import KINDS, with_defaults
from pbem.rulesets.daemon_rift.sheets import Sheet, parse_line

# The army of the catalog's SC-11, in sheet order.
SC11 = """\
U1 infantry 20 Spearmen @6
U2 twowound 6 Flesh Hounds @35
U3 cavalry 5 Knights @24
U4 twowound 3 Warhawk Riders @40
U5 infantry 10 Archers @10
U6 infantry 10 Crossbowmen @9
M1 monster Dragon @300 W6
C1 character Captain @50 W2 | Sword 25; Shield 10; Talisman 15
C2 character Hero @60 W2
C3 character General @120 W3 general
C4 character Wizard @100 W2 wizard
C5 character Battle Standard Bearer @70 W2"""


def roster(text: str, army: str = "R-1", limit: int = 2250) -> Roster:
    return Roster(army, "Test host", limit, [], [with_defaults(parse_entry(line, KINDS)) for line in text.splitlines()])


def sheet(r: Roster, lines: list[str], battle: int = 1, priority: str = "") -> Sheet:
    out = Sheet(battle, r.army, [parse_line(r, line) for line in lines])
    out.priority = [r.entry(w).id for w in priority.split()]
    return out


def upgrades(r: Roster, entry: str) -> list[str]:
    e = r.get(entry)
    assert e is not None
    return [m.name for m in e.marks_of(UPGRADE)]


def give(r: Roster, entry: str, mark: Mark) -> None:
    e = r.get(entry)
    assert e is not None
    e.add_mark(mark)
