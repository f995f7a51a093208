"""Abstract battle resolution: one 2D6 roll with strategy bonuses (COC-ABR).

The challenger's side attacks, the challenged side defends; in a siege assault
the besieger attacks (COC-ABR-2). Each strategy bonus in `[[abstract.bonuses]]`
counts its `attacker` value for the attacking side and its `defender` value
(negative) for the defending side; gold counts once per full `gold_step` spent,
up to `gold_cap` (COC-ABR-3, COC-ABR-4). With a team on a side,
`abstract.team_bonus_mode` says whether each bonus type counts once for the
side with its gold pooled ("once_per_side", COC-ABR-9) or once per member
("sum"). The processor rolls as the neutral third party and the adjusted total
is read off `[[abstract.results]]` (COC-ABR-5, COC-ABR-6). Objectives play no
part (COC-OBJ-6).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pbem.kit.dice import Dice, Roll
from pbem.rulesets.conquest.model import ATTACKER, DEFENDER, DRAW, MAJOR, MINOR
from pbem.rulesets.conquest.outcomes import Outcome, ResultRules, decided_outcome
from pbem.rulesets.conquest.rules import dice_spec

GOLD_KEY = "per_100_gold"
RESULT_MEANING = {
    "attacker_major_victory": (ATTACKER, MAJOR),
    "attacker_minor_victory": (ATTACKER, MINOR),
    "draw": ("", DRAW),
    "defender_minor_victory": (DEFENDER, MINOR),
    "defender_major_victory": (DEFENDER, MAJOR),
}


@dataclass(frozen=True)
class Strategy:
    """What one player brings to an abstract roll."""

    player: str
    elite_army: bool = False
    scouts: bool = False
    largest_empire: bool = False
    gold: int = 0

    def has(self, key: str) -> bool:
        return bool(getattr(self, key, False))


@dataclass(frozen=True)
class Bonus:
    key: str
    side: str
    value: int
    detail: str


def gold_steps(gold: int, step: int, cap: int) -> int:
    """Full `step`s of gold, at most `cap` worth: 150 gp counts 1, 200 gp counts 2 (COC-ABR-4)."""
    return min(max(gold, 0), cap) // step


def side_bonuses(side: str, members: Sequence[Strategy], rules: Any) -> list[Bonus]:
    """The strategy bonuses of one side, each with the value it adds to the roll."""
    mode = rules["abstract.team_bonus_mode"]
    step, cap = int(rules["abstract.gold_step"]), int(rules["abstract.gold_cap"])
    out = []
    for entry in rules["abstract.bonuses"]:
        key, value = entry["key"], int(entry[side])
        if key == GOLD_KEY:
            if mode == "once_per_side":
                steps = {"side": gold_steps(sum(m.gold for m in members), step, cap)}
            else:
                steps = {m.player: gold_steps(m.gold, step, cap) for m in members}
            for who, count in steps.items():
                if count:
                    spent = sum(m.gold for m in members) if who == "side" else next(
                        m.gold for m in members if m.player == who)
                    out.append(Bonus(key, side, value * count, f"{spent} gp spent ({count} x {value:+d})"))
            continue
        holders = [m.player for m in members if m.has(key)]
        for who in holders[:1] if mode == "once_per_side" else holders:
            out.append(Bonus(key, side, value, who))
    return out


def read_table(total: int, table: Sequence[Mapping[str, Any]]) -> str:
    """The `[[abstract.results]]` row an adjusted total falls in."""
    for row in table:
        if total >= row.get("min", total) and total <= row.get("max", total):
            return str(row["result"])
    raise ValueError(f"abstract.results has no row for a total of {total}")


@dataclass(frozen=True)
class AbstractVerdict:
    roll: Roll
    bonuses: tuple[Bonus, ...]
    net: int
    total: int
    result: str                      # a key of RESULT_MEANING
    outcome: Outcome


def resolve(label: str, attackers: Sequence[Strategy], defenders: Sequence[Strategy], rules: Any,
            dice: Dice) -> AbstractVerdict:
    """Roll 2D6, add the net bonus, and read the result (COC-ABR-5..7; never a Massacre)."""
    bonuses = side_bonuses(ATTACKER, attackers, rules) + side_bonuses(DEFENDER, defenders, rules)
    net = sum(b.value for b in bonuses)
    count, sides = dice_spec(rules["abstract.dice"])
    roll = dice.roll(f"Abstract resolution {label}", count, sides)
    total = roll.total + net
    result = read_table(total, rules["abstract.results"])
    winner, category = RESULT_MEANING[result]
    reason = f"2D6 {'+'.join(map(str, roll.faces))}, bonus {net:+d} = {total}: {result.replace('_', ' ')}"
    outcome = decided_outcome(winner, category, ResultRules.from_book(rules), reason)
    return AbstractVerdict(roll, tuple(bonuses), net, total, result, outcome)
