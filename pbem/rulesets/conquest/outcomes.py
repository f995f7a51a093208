"""Battle outcomes and the Empire Points they earn (COC-RES).

Pure functions over plain values:

- `classify`: the facts of a land battle (withdrawal, VP, break points, units
  lost, surrender, a killed team general) sorted into a category per side
  (COC-RES-2..11, COC-RES-13, COC-RES-14);
- `battle_ep`: EP per player for one battle, with the team reduction
  (COC-RES-1, COC-RES-12);
- `round_ep`: a player's EP for the round: average rounded down, All or Nothing,
  carried EP (COC-RES-15, COC-RES-16, COC-RES-18, COC-EVT-13, COC-EVT-14).

Settings come from `[results]`, `[results.ep]` and `[events]` of
`rules/conquest.toml` (checked by `conquest.rules.load`) through
`ResultRules.from_book`. Three of them may leave the category to the game
master ("gm"): `classify` then asks through `decide(key, question, options)`,
which stops the resolution until the GM answers (`pbem.rulesets.base.ask`);
without `decide` the question is raised as `GMDecisionNeeded`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pbem.rulesets.base import GMDecisionNeeded
from pbem.rulesets.conquest.model import (
    ATTACKER,
    DEFENDER,
    DRAW,
    HIGHER_VP,
    LOSE,
    MAJOR,
    MASSACRE,
    MINOR,
    SIDES,
    ResultReport,
    other_side,
)

CATEGORIES = (LOSE, DRAW, MINOR, MAJOR, MASSACRE)
NOT_WON = (LOSE, DRAW, HIGHER_VP)          # what All or Nothing counts as lost or drawn (COC-EVT-14)
LABELS = {LOSE: "Lose", DRAW: "Draw", HIGHER_VP: "Draw (more VP, nobody withdrew)", MINOR: "Minor victory",
          MAJOR: "Major victory", MASSACRE: "Massacre"}


@dataclass(frozen=True)
class ResultRules:
    """The `[results]` and All-or-Nothing settings, read and checked once."""

    ep: Mapping[str, int]
    major_fraction: Fraction
    massacre_fraction: Fraction
    no_withdrawal_higher_vp_ep: int
    no_withdrawal_higher_vp_is_win: bool
    equal_vp: str
    team_ep_modifier: int
    min_ep: int
    team_general_killed_cap: str
    surrender: str
    aon_bonus: int
    aon_no_battle_bonus: bool
    aon_keeps_carry: bool

    @classmethod
    def from_book(cls, rules: Any) -> ResultRules:
        return cls(
            ep={k: int(rules[f"results.ep.{k}"]) for k in CATEGORIES},
            major_fraction=Fraction(str(rules["results.major_max_lost_fraction_of_break_point"])),
            massacre_fraction=Fraction(str(rules["results.massacre_max_lost_fraction_of_break_point"])),
            no_withdrawal_higher_vp_ep=int(rules["results.no_withdrawal_higher_vp_ep"]),
            no_withdrawal_higher_vp_is_win=bool(rules["results.no_withdrawal_higher_vp_is_win"]),
            equal_vp=rules["results.equal_vp"],
            team_ep_modifier=int(rules["results.team_ep_modifier"]),
            min_ep=int(rules["results.min_ep"]),
            team_general_killed_cap=rules["results.team_general_killed_cap"],
            surrender=rules["results.surrender"],
            aon_bonus=int(rules["events.all_or_nothing_bonus"]),
            aon_no_battle_bonus=bool(rules["events.all_or_nothing_no_battle_bonus"]),
            aon_keeps_carry=bool(rules["events.all_or_nothing_keeps_carry"]),
        )


@dataclass(frozen=True)
class SideFacts:
    """What one side of a land battle reports about itself (COC-RES-19)."""

    vp: int = 0
    break_point: int = 0            # a team reports its combined break point (COC-BAT-19)
    lost: int = 0                   # units lost that count toward the break point
    withdrew: bool = False
    surrendered: bool = False
    general_killed: bool = False    # a team general was killed (COC-BAT-20)


def facts_from_report(report: ResultReport) -> dict[str, SideFacts]:
    """The two sides' facts from one window-3 report."""
    def side(name: str) -> SideFacts:
        return SideFacts(vp=getattr(report, f"vp_{name}"), break_point=getattr(report, f"bp_{name}"),
                         lost=getattr(report, f"lost_{name}"), withdrew=report.withdrew == name,
                         surrendered=report.surrendered == name, general_killed=report.general_killed == name)
    return {s: side(s) for s in SIDES}


@dataclass(frozen=True)
class Outcome:
    """Category per side, who won, and why: the verdict on one battle."""

    categories: Mapping[str, str]
    won: Mapping[str, bool]
    base_ep: Mapping[str, int]
    reason: str = ""

    def winner(self) -> str:
        return next((s for s in SIDES if self.won[s]), "")


def _victory_category(facts: SideFacts, rules: ResultRules) -> str:
    """The best victory the winner qualifies for on his own losses (COC-RES-8..10, COC-RES-14)."""
    if facts.lost <= facts.break_point * rules.massacre_fraction:
        return MASSACRE
    if facts.lost <= facts.break_point * rules.major_fraction:
        return MAJOR
    return MINOR


def _decided(winner: str, category: str, rules: ResultRules, reason: str) -> Outcome:
    loser = other_side(winner)
    return Outcome({winner: category, loser: LOSE}, {winner: True, loser: False},
                   {winner: rules.ep[category], loser: rules.ep[LOSE]}, reason)


def _drawn(rules: ResultRules, reason: str) -> Outcome:
    return Outcome({s: DRAW for s in SIDES}, {s: False for s in SIDES}, {s: rules.ep[DRAW] for s in SIDES}, reason)


Decide = Callable[[str, str, Sequence[str]], str]


def _ask(decide: Decide | None, key: str, question: str, options: Sequence[str]) -> str:
    if decide is None:
        raise GMDecisionNeeded(key, question, options)
    return decide(key, question, options)


def classify(facts: Mapping[str, SideFacts], rules: ResultRules, teams: Sequence[str] = (),
             decide: Decide | None = None) -> Outcome:
    """Sort a land battle's facts into a category per side.

    `facts` holds a `SideFacts` for "attacker" and "defender"; `teams` names the
    sides that are teams of two or more, for the killed-general cap.
    """
    outcome = _uncapped(facts, rules, decide)
    winner = outcome.winner()
    if not (winner and winner in teams and facts[winner].general_killed):
        return outcome
    loser = other_side(winner)
    cap = rules.team_general_killed_cap
    if cap == "gm":
        cap = _ask(decide, "general", f"a general of the {winner} team was killed, so the team cannot win "
                   f"(COC-RES-13). A draw for both sides, or a draw for the team while the {loser} still loses?",
                   ("draw", "team_only"))
        how = "the GM rules"
    else:
        how = "results.team_general_killed_cap"
    if cap == "team_only":
        return Outcome({winner: DRAW, loser: LOSE}, {s: False for s in SIDES},
                       {winner: rules.ep[DRAW], loser: rules.ep[LOSE]},
                       f"a team general was killed, so the team cannot win: a draw for the team, a loss for the "
                       f"{loser} ({how}; COC-RES-13)")
    return _drawn(rules, f"a team general was killed, so the team cannot win: draw ({how}; COC-RES-13)")


def _uncapped(facts: Mapping[str, SideFacts], rules: ResultRules, decide: Decide | None) -> Outcome:
    att, dfn = facts[ATTACKER], facts[DEFENDER]
    quitter = next((s for s in SIDES if facts[s].surrendered), "")
    if quitter:
        return _surrender(quitter, facts, rules, decide)
    withdrew = next((s for s in SIDES if facts[s].withdrew), "")
    if att.vp == dfn.vp:
        return _equal_vp(withdrew, facts, rules, decide)
    higher = ATTACKER if att.vp > dfn.vp else DEFENDER
    if withdrew and withdrew == higher:
        return _drawn(rules, f"the {withdrew} withdrew with more victory points: draw (COC-RES-5)")
    if withdrew:
        winner = other_side(withdrew)
        category = _victory_category(facts[winner], rules)
        return _decided(winner, category, rules,
                        f"the {withdrew} withdrew with fewer victory points; the {winner} lost "
                        f"{facts[winner].lost} of break point {facts[winner].break_point} (COC-RES-7..10)")
    lower = other_side(higher)
    return Outcome({higher: HIGHER_VP, lower: LOSE},
                   {higher: rules.no_withdrawal_higher_vp_is_win, lower: False},
                   {higher: rules.no_withdrawal_higher_vp_ep, lower: rules.ep[LOSE]},
                   f"no side withdrew; the {higher} has more victory points (COC-RES-3, COC-RES-6)")


def _surrender(quitter: str, facts: Mapping[str, SideFacts], rules: ResultRules, decide: Decide | None) -> Outcome:
    """COC-RES-4: the side that surrendered loses; `results.surrender` says what the other side scores."""
    winner = other_side(quitter)
    if rules.surrender == "gm":
        category = _ask(decide, "surrender", f"the {quitter} surrendered and loses (COC-RES-4). Which victory "
                        f"does the {winner} score?", (MINOR, MAJOR, MASSACRE))
        return _decided(winner, category, rules, f"the {quitter} surrendered; the GM rules it a "
                        f"{LABELS[category].lower()} (results.surrender = gm)")
    if rules.surrender == "minor_victory":
        return _decided(winner, MINOR, rules, f"the {quitter} surrendered: a minor victory "
                        "(results.surrender = minor_victory, COC-RES-4)")
    return _decided(winner, _victory_category(facts[winner], rules), rules,
                    f"the {quitter} surrendered: scored as a withdrawal with fewer VP (COC-RES-4)")


def _equal_vp(withdrew: str, facts: Mapping[str, SideFacts], rules: ResultRules, decide: Decide | None) -> Outcome:
    """COC-RES-11: equal VP is a draw by default; `results.equal_vp` may let a withdrawal decide, or the GM."""
    mode = rules.equal_vp
    if mode == "gm":
        told = f"; the {withdrew} withdrew" if withdrew else "; nobody withdrew"
        choice = _ask(decide, "equal-vp", f"equal victory points{told} (COC-RES-11). A draw, or which side wins "
                      "(scored by its own losses)?", ("draw", ATTACKER, DEFENDER))
        if choice == "draw":
            return _drawn(rules, "equal victory points: the GM rules a draw (results.equal_vp = gm)")
        return _decided(choice, _victory_category(facts[choice], rules), rules,
                        f"equal victory points: the GM rules a win for the {choice} (results.equal_vp = gm)")
    if mode == "withdrawal_loses" and withdrew:
        winner = other_side(withdrew)
        return _decided(winner, _victory_category(facts[winner], rules), rules,
                        f"the {withdrew} withdrew with equal victory points: scored as fewer VP "
                        f"(results.equal_vp = withdrawal_loses); the {winner} lost {facts[winner].lost} of break "
                        f"point {facts[winner].break_point}")
    return _drawn(rules, "equal victory points: draw (COC-RES-11)")


def decided_outcome(winner: str, category: str, rules: ResultRules, reason: str) -> Outcome:
    """An outcome given outright (abstract resolution, a GM ruling): `winner` "" is a draw."""
    return _decided(winner, category, rules, reason) if winner else _drawn(rules, reason)


def member_ep(base: int, in_team: bool, rules: ResultRules) -> int:
    """A player's EP for one battle: one less for a team member, never below the floor (COC-RES-12)."""
    return max(rules.min_ep, base + rules.team_ep_modifier) if in_team else base


def battle_ep(outcome: Outcome, sides: Mapping[str, Sequence[str]], rules: ResultRules) -> dict[str, int]:
    """EP per player for one battle; `sides` lists the players on each side."""
    return {player: member_ep(outcome.base_ep[side], len(players) > 1, rules)
            for side, players in sides.items() for player in players}


@dataclass(frozen=True)
class RoundEP:
    """How a player's EP for the round were worked out, in the order of COC-RES-16."""

    per_battle: tuple[int, ...] = ()
    average: int = 0
    all_or_nothing: str = ""        # "", "bonus" (+2) or "lost" (0 this round)
    earned: int = 0
    carried: int = 0
    available: int = 0


def average_ep(per_battle: Sequence[int]) -> int:
    """The average of a player's battle EP, fractions dropped (COC-RES-15)."""
    return sum(per_battle) // len(per_battle) if per_battle else 0


def round_ep(per_battle: Sequence[int], categories: Sequence[str], carried: int,
             all_or_nothing: bool, rules: ResultRules) -> RoundEP:
    """EP available to spend: average, then All or Nothing, then the carried EP (COC-RES-16)."""
    average = average_ep(per_battle)
    earned, aon, keep = average, "", carried
    if all_or_nothing:
        if any(c in NOT_WON for c in categories):
            earned, aon = 0, "lost"
            keep = carried if rules.aon_keeps_carry else 0
        elif per_battle or rules.aon_no_battle_bonus:
            earned, aon = average + rules.aon_bonus, "bonus"
    return RoundEP(tuple(per_battle), average, aon, earned, keep, earned + keep)
