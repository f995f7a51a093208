"""The Kings of War core mechanics the wizard's quests need (`[kow_core]`, ambiguity A4).

The source leaves them to the KoW rule book; the catalog pins this model:
- to hit: one D6 per attack, a hit on the attacker's value or more (a natural 1 always fails);
- Blast (D3): each hit becomes D3 hits, one D3 rolled per hit;
- damage: one D6 per hit, plus Crushing Strength (melee) or Piercing (shooting), damages on the
  target's De or more; a natural 1 always fails (`kow_core.natural_one_fails`);
- nerve: 2D6 + damage, against the unit's waver and rout values; a fearless unit (no waver)
  never wavers, and a double 1 is insane courage: the unit holds whatever the damage
  (`kow_core.insane_courage_double_one`).

Dice come in A32's batches: every to-hit die, then each hit's Blast D3, then every damage die,
then the nerve test. Unit special rules play only when `kow_core.apply_unit_special_rules` lists
them: Elite re-rolls to-hit 1s and Vicious damage 1s (the re-rolls right after their batch),
Headstrong turns a Wavered result into Steady on a further D6 of 4+.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice, Roll
from pbem.kit.rulebook import RuleBook

SPECIAL_RULES = ("elite", "vicious", "headstrong")
STEADY, WAVERED, ROUTED = "steady", "wavered", "routed"


@dataclass(frozen=True)
class Attack:
    """One attack as KoW resolves it: `attacks` dice hitting on `to_hit`+."""

    attacks: int
    to_hit: int
    bonus: int = 0                 # Crushing Strength (melee) or Piercing (shooting)
    bonus_name: str = ""           # "Crushing Strength" or "Piercing", for the report
    blast: bool = False            # each hit becomes D3 hits
    rules: frozenset[str] = frozenset()   # the attacker's special rules that apply (SPECIAL_RULES)


@dataclass
class Struck:
    """What an attack did: the damage, and one line per batch of dice."""

    damage: int = 0
    lines: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Nerve:
    result: str                    # STEADY, WAVERED or ROUTED
    line: str


def faces(roll: Roll) -> str:
    """`4, 1, 6` for a batch of dice."""
    return ", ".join(str(f) for f in roll.faces)


def applying(rules: RuleBook, tags: Sequence[str]) -> frozenset[str]:
    """Which of a unit's special rules the quest mechanics use (`kow_core.apply_unit_special_rules`)."""
    return frozenset(t for t in tags if t in rules["kow_core.apply_unit_special_rules"])


def strike(dice: Dice, rules: RuleBook, attack: Attack, de: int, purpose: str) -> Struck:
    """Roll an attack against a target with defence `de`+ (to hit, Blast, damage in that order)."""
    out = Struck()
    if attack.attacks <= 0 or attack.to_hit <= 0:
        out.lines.append(f"{purpose}: no attacks")
        return out
    one_fails = bool(rules["kow_core.natural_one_fails"])
    hits = _batch(dice, f"{purpose} to-hit", attack.attacks, attack.to_hit, 0, one_fails,
                  "elite" in attack.rules, out.lines)
    if hits and attack.blast:
        blasts = [dice.roll(f"{purpose} blast D3", 1, 3).total for _ in range(hits)]
        out.lines.append(f"{purpose} blast: D3 per hit = {', '.join(map(str, blasts))}: {sum(blasts)} hits")
        hits = sum(blasts)
    if hits:
        out.damage = _batch(dice, f"{purpose} damage", hits, de, attack.bonus, one_fails,
                            "vicious" in attack.rules, out.lines, attack.bonus_name)
    return out


def _batch(dice: Dice, purpose: str, count: int, need: int, bonus: int, one_fails: bool, reroll_ones: bool,
           lines: list[str], bonus_name: str = "") -> int:
    """Roll `count` D6 needing `need`+ after `bonus`; returns the successes and logs the batch."""
    roll = dice.roll(purpose, count, 6)
    kept = list(roll.faces)
    plus = f" + {bonus_name} ({bonus})" if bonus else ""
    text = f"{purpose}: {count}D6 = {faces(roll)}{plus}, {need}+ needed"
    ones = kept.count(1)
    if reroll_ones and ones:
        again = dice.roll(f"{purpose} re-roll of 1s", ones, 6)
        kept = [f for f in kept if f != 1] + list(again.faces)
        text += f"; 1s re-rolled: {faces(again)}"
    made = sum(1 for f in kept if f + bonus >= need and not (one_fails and f == 1))
    lines.append(f"{text}: {made}")
    return made


def nerve(dice: Dice, rules: RuleBook, damage: int, waver: int, rout: int, purpose: str,
          headstrong: bool = False) -> Nerve:
    """A nerve test: 2D6 + damage against waver (0 = fearless, never wavers) and rout."""
    roll = dice.roll(f"{purpose} nerve", 2, 6)
    total = roll.total + damage
    shown = f"{'-' if not waver else waver}/{rout}"
    text = f"{purpose} nerve ({shown}): 2D6 = {faces(roll).replace(', ', '+')} + {damage} damage = {total}"
    if rules["kow_core.insane_courage_double_one"] and roll.faces == (1, 1):
        return Nerve(STEADY, f"{text}: double 1, insane courage, steady")
    if total >= rout:
        return Nerve(ROUTED, f"{text}: routed")
    if waver and total >= waver:
        if headstrong:
            second = dice.roll(f"{purpose} headstrong", 1, 6).total
            if second >= 4:
                return Nerve(STEADY, f"{text}: wavered, Headstrong D6 = {second}: steady")
            return Nerve(WAVERED, f"{text}: wavered, Headstrong D6 = {second}: still wavered")
        return Nerve(WAVERED, f"{text}: wavered")
    return Nerve(STEADY, f"{text}: steady")


def problems(rules: RuleBook) -> list[str]:
    """Rule-book values the model cannot play by."""
    listed = rules.get("kow_core.apply_unit_special_rules", [])
    if not isinstance(listed, list):
        return ["rules: 'kow_core.apply_unit_special_rules' must be a list of rule names"]
    return [f"rules: 'kow_core.apply_unit_special_rules' lists {name!r}; the quest mechanics know "
            f"{', '.join(SPECIAL_RULES)}" for name in listed if name not in SPECIAL_RULES]
