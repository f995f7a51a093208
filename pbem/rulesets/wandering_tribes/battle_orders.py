"""The battle-report window (WT-PBEM-11, WT-RES-1..4): each side reports the result, who withdrew,
the markers lost, and his conditional instructions; two agreeing reports stand, disagreeing ones
go to the GM, a single report stands after the deadline (`battle_report.single_report`).

    RESULT 2 WINNER Eve        RESULT 2 DRAW
    WITHDRAWN Cara
    LOST Cara m14, m17
    IFWIN 2 RECRUIT 1 Pistoliers
    IFLOSE 2 RETREAT S, E
    GENERAL 2 m15              (WT-BAT-17: a stack without General names its acting General among the
                                characters tied for the highest command; without it the lowest id acts)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder, OrderProblem
from pbem.rulesets.wandering_tribes.armylist import general_candidates
from pbem.rulesets.wandering_tribes.battle_results import Report, own_stack, problems, sides
from pbem.rulesets.wandering_tribes.battle_setup import Battle
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.nations import canonical
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SIDES

WORDS = ("RESULT", "WITHDRAWN", "LOST", "IFWIN", "IFLOSE", "GENERAL")
DRAW = "DRAW"


@dataclass
class BattleReading:
    reports: dict[int, Report] = field(default_factory=dict)
    problems: list[OrderProblem] = field(default_factory=list)


def read(state: State, rules: Rules, battles: Sequence[Battle], player: str,
         lines: Sequence[tuple[int, str]], names: Mapping[str, str] | None = None) -> BattleReading:
    """A player's lines for his battles; IFWIN/IFLOSE without a number mean his first battle. A
    player is named by his id or by the name the reports show (`names`: id -> name)."""
    mine = [b for b in battles if player in sides(state, b)]
    out = BattleReading({b.id: Report() for b in mine})
    current = mine[0].id if mine else 0
    touched: set[int] = set()
    for line_no, line in lines:
        try:
            current = _line(state, rules, mine, player, out.reports, current, line.split(), names or {})
            touched.add(current)
        except OrderProblem as problem:
            out.problems.append(problem.at(line_no, line))
    out.reports = {k: r for k, r in out.reports.items() if k in touched}     # battles the mail speaks of
    for battle in (b for b in mine if b.id in touched):
        out.problems += [IllegalOrder(p) for p in problems(state, battle, out.reports[battle.id])]
    return out


def _battle(mine: Sequence[Battle], word: str) -> int:
    if not word.isdigit() or int(word) not in [b.id for b in mine]:
        raise IllegalOrder(f"{word} is not one of your battles ({', '.join(str(b.id) for b in mine) or 'none'})")
    return int(word)


def _line(state: State, rules: Rules, mine: Sequence[Battle], player: str, reports: dict[int, Report],
          current: int, words: list[str], names: Mapping[str, str]) -> int:
    verb = words[0].upper()
    if verb not in WORDS:
        raise NotAnOrder(f"{words[0]} is not a battle-report order; use {', '.join(WORDS)}")
    if not mine:
        raise IllegalOrder("you fight no battle this phase")
    if verb == "RESULT":
        current = _battle(mine, words[1] if len(words) > 1 else "")
        rest = [w.upper() for w in words[2:]]
        if rest == [DRAW]:
            reports[current].winner = ""
        elif len(rest) >= 2 and rest[0] == "WINNER":
            reports[current].winner = _whole(state, names, words[3:])
        else:
            raise InvalidOrder(f"write RESULT {current} WINNER <player> or RESULT {current} DRAW")
    elif verb == "WITHDRAWN":
        reports[current].withdrawn.append(_whole(state, names, words[1:]))
    elif verb == "LOST":
        who, markers = _who(state, names, words[1:])
        reports[current].lost[who] = [m.strip() for m in " ".join(markers).split(",") if m.strip()]
    elif verb == "GENERAL":
        current = _general(state, rules, mine, player, reports, current, words[1:])
    else:
        current = _conditional(state, rules, mine, player, reports, current, verb, words[1:])
    return current


def _general(state: State, rules: Rules, mine: Sequence[Battle], player: str, reports: dict[int, Report],
             current: int, words: list[str]) -> int:
    """GENERAL [battle] <marker>: the owner settles a tie for acting General (WT-BAT-17)."""
    battle = _battle(mine, words.pop(0)) if len(words) > 1 and words[0].isdigit() else current
    if len(words) != 1:
        raise InvalidOrder(f"write GENERAL {battle} <marker id>, one of your characters")
    stack_id = own_stack(state, next(b for b in mine if b.id == battle), player)
    if not stack_id:
        raise IllegalOrder(f"your army in battle {battle} is not a stack on the map: it has its own General")
    stack = state.stacks[stack_id]
    tied = [m.id for m in general_candidates(rules.nations[state.players[player].nation], stack)]
    if not tied:
        raise IllegalOrder(f"{stack_id} has a General marker (or no character): no acting General is chosen")
    marker = next((m for m in tied if m.casefold() == words[0].casefold()), "")
    if not marker:
        raise IllegalOrder(f"{words[0]} cannot act as General of {stack_id}: choose one of the characters tied for "
                           f"the highest command value ({', '.join(tied)}) (WT-BAT-17)")
    reports[battle].general[player] = marker
    return battle


def _who(state: State, names: Mapping[str, str], words: list[str]) -> tuple[str, list[str]]:
    """The player the words begin with (his id, or his name, which may have spaces) and the words after."""
    for end in range(len(words), 0, -1):
        said = " ".join(words[:end]).casefold()
        match = next((p for p in state.players if said in (p.casefold(), names.get(p, p).casefold())), "")
        if match:
            return match, words[end:]
    known = ", ".join(names.get(p, p) for p in state.players)
    raise InvalidOrder(f"{' '.join(words[:1]) or 'nobody'} is not a player of the campaign ({known})")


def _whole(state: State, names: Mapping[str, str], words: list[str]) -> str:
    """A player named by all the words."""
    who, rest = _who(state, names, words)
    if rest:
        raise InvalidOrder(f"{' '.join(words)} is not a player of the campaign "
                           f"({', '.join(names.get(p, p) for p in state.players)})")
    return who


def _conditional(state: State, rules: Rules, mine: Sequence[Battle], player: str, reports: dict[int, Report],
                 current: int, verb: str, words: list[str]) -> int:
    battle = _battle(mine, words.pop(0)) if words and words[0].isdigit() else current
    if verb == "IFWIN":
        if len(words) < 3 or words[0].upper() != "RECRUIT" or not words[1].isdigit():
            raise InvalidOrder("write IFWIN [battle] RECRUIT <n> <type>")
        type_ = canonical(" ".join(words[2:]), rules["aliases"])
        known = rules.nations[state.players[player].nation].entries
        match = next((t for t in known if t.casefold() == type_.casefold()), "")
        if not match:
            raise IllegalOrder(f"{type_} is not a type of your nation")
        reports[battle].ifwin[player] = [(match, int(words[1]))]
    else:
        if not words or words[0].upper() != "RETREAT":
            raise InvalidOrder("write IFLOSE [battle] RETREAT <N,E,S,W ranked>")
        ranked = [s.strip().upper() for s in " ".join(words[1:]).split(",") if s.strip()]
        if not ranked or any(s not in SIDES for s in ranked) or len(set(ranked)) < len(ranked):
            raise InvalidOrder("rank the directions N, E, S, W once each, like S, E")
        reports[battle].iflose[player] = ranked
    return battle


def settle(rules: Rules, by_player: Mapping[str, Report]) -> tuple[Report | None, str]:
    """WT-RES-2: the report that stands, or None with why the GM must decide. Each side's
    conditional instructions are kept from his own report."""
    filed = list(by_player.values())
    if not filed:
        return None, "nobody reported this battle: GM, enter the result or extend the deadline"
    facts = {(r.winner, tuple(sorted(r.withdrawn)), tuple(sorted((p, tuple(sorted(m))) for p, m in r.lost.items())))
             for r in filed}
    if len(facts) > 1:
        return None, "the two reports disagree: GM, set the result"
    if len(filed) == 1 and rules["battle_report.single_report"] != "accept":
        return None, "only one side reported: GM, confirm the result"
    merged = Report(filed[0].winner, list(filed[0].withdrawn), dict(filed[0].lost))
    for player, report in by_player.items():
        merged.ifwin.update({p: v for p, v in report.ifwin.items() if p == player})
        merged.iflose.update({p: v for p, v in report.iflose.items() if p == player})
        merged.general.update({p: v for p, v in report.general.items() if p == player})
    return merged, ""
