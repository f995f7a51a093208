"""Battle size and army points: the arithmetic behind every briefing (COC-BAT).

Pure functions over plain numbers, so the rules can be checked without a game:

- `settle_size`: the base size from the sides' proposals (COC-BAT-2);
- `settle_shares`: a team's split of the base size (COC-BAT-11, COC-BAT-12);
- `allocate_gold`: one player's gold across his battles, capped per battle and by
  his treasury, later-listed battles cut first (COC-BAT-4, COC-BAT-8);
- `largest_empire_bonus`, `gold_bonus`, `army_points`: the bonuses and the final
  total (COC-BAT-3, COC-BAT-5, COC-BAT-6, COC-BAT-10, COC-BAT-13).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

SIZE_RULES = ("smaller", "larger", "default", "gm")
ROUNDINGS = ("down", "up", "nearest")
GM_RULING = "set by the GM"
GM_NEEDED = "the proposals differ: the GM decides"


def round_points(value: Fraction, rounding: str = "down") -> int:
    """Whole points from a fraction (`battle.bonus_rounding`); "nearest" rounds halves up."""
    if rounding == "down":
        return math.floor(value)
    if rounding == "up":
        return math.ceil(value)
    if rounding == "nearest":
        return math.floor(value + Fraction(1, 2))
    raise ValueError(f"battle.bonus_rounding must be one of {', '.join(ROUNDINGS)}, not {rounding!r}")


@dataclass(frozen=True)
class SizeDecision:
    points: int
    how: str            # how it was settled, as the briefing says it


def settle_size(proposals: Sequence[int], default_points: int, disagreement: str = "smaller",
                gm_points: int = 0) -> SizeDecision:
    """The base size of one battle from every proposal its players sent (COC-BAT-2).

    A GM ruling wins. Equal proposals are used; a single proposal is used; none
    gives `battle.default_points`. Differing proposals follow
    `battle.size_disagreement`: the smaller, the larger, the default size, or
    "gm": the decision says so (`GM_NEEDED`, smaller figure) and step B asks the GM.
    """
    if gm_points > 0:
        return SizeDecision(gm_points, GM_RULING)
    offered = sorted({p for p in proposals if p > 0})
    if not offered:
        return SizeDecision(default_points, "nobody proposed a size: the default")
    if len(offered) == 1:
        return SizeDecision(offered[0], "as proposed")
    if disagreement == "smaller":
        return SizeDecision(offered[0], "the smaller proposal")
    if disagreement == "larger":
        return SizeDecision(offered[-1], "the larger proposal")
    if disagreement == "default":
        return SizeDecision(default_points, "the proposals differ: the default")
    if disagreement == "gm":
        return SizeDecision(offered[0], GM_NEEDED)
    raise ValueError(f"battle.size_disagreement must be one of {', '.join(SIZE_RULES)}, not {disagreement!r}")


def settle_shares(base: int, members: Sequence[str], stated: Mapping[str, int]) -> tuple[dict[str, int], bool]:
    """Each team member's share of the base size, and whether the stated shares were used.

    `members` are in the order they challenged. Shares stated by every member,
    none negative, adding up to the base are used (COC-BAT-11). Otherwise each
    gets an equal share rounded down and the first challenger takes the
    remainder (`battle.team_split_default = "equal"`, COC-BAT-12).
    """
    if len(members) == 1:
        return {members[0]: base}, True
    given = [stated.get(m, -1) for m in members]
    if all(s >= 0 for s in given) and sum(given) == base:
        return dict(zip(members, given, strict=True)), True
    each, rest = divmod(base, len(members))
    shares = {m: each for m in members}
    shares[members[0]] += rest
    return shares, False


def allocate_gold(treasury: int, requests: Sequence[int], per_battle_max: int = 200) -> list[int]:
    """Gold actually spent per battle, in the player's battle order (COC-BAT-4, COC-BAT-8).

    Each request is held to 0..`per_battle_max`; when the total would exceed the
    treasury, the later battles are cut until it fits.
    """
    left = max(treasury, 0)
    spent = []
    for asked in requests:
        amount = min(max(asked, 0), per_battle_max, left)
        spent.append(amount)
        left -= amount
    return spent


def largest_empire_bonus(points: int, divisor: int = 40, rounding: str = "down") -> int:
    """1/40 of the army's points for the largest empire (COC-BAT-3, COC-BAT-6)."""
    return round_points(Fraction(points, divisor), rounding)


def gold_bonus(points: int, gold: int, gold_max: int = 200, full_divisor: int = 10, rounding: str = "down") -> int:
    """`gold_max` buys 1/`full_divisor` of the points, less gold a proportional part (COC-BAT-5)."""
    return round_points(Fraction(points * gold, gold_max * full_divisor), rounding)


@dataclass(frozen=True)
class ArmyPoints:
    """One player's points in one battle, as the briefing lists them (COC-BAT-10)."""

    share: int
    largest_bonus: int
    gold: int
    gold_bonus: int

    @property
    def total(self) -> int:
        return self.share + self.largest_bonus + self.gold_bonus


def army_points(share: int, largest: bool, gold: int, *, divisor: int = 40, gold_max: int = 200,
                full_divisor: int = 10, rounding: str = "down") -> ArmyPoints:
    """Bonuses worked out on the player's own share (COC-BAT-9, COC-BAT-13, COC-BAT-14)."""
    return ArmyPoints(
        share=share,
        largest_bonus=largest_empire_bonus(share, divisor, rounding) if largest else 0,
        gold=gold,
        gold_bonus=gold_bonus(share, gold, gold_max, full_divisor, rounding),
    )
