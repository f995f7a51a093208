"""Window-2 (battle setup) and window-3 (battle results) lines: parse and format as pairs.

Window 2, one line per battle; every word after the battle is optional and
later lines for the same battle add to or replace earlier words:

    B1 SIZE 2000 GOLD 100 SHARE 1500 ABSTRACT STANDIN Joe Bloggs

`SIZE` proposes the base size (COC-BAT-2), `GOLD` the gold to spend, 0-200
(COC-BAT-4), `SHARE` a team member's share of the base (COC-BAT-12),
`ABSTRACT` asks for abstract resolution (COC-ABR-1), `STANDIN` names a
volunteer who plays for you and takes the rest of the line (COC-BAT-21).
`ALL` instead of a battle ID gives standing settings for every battle.

Window 3, one line per battle; sides are `attacker` / `defender` (or `A` /
`D`, or the name of a player on that side) and pairs are attacker first:

    RESULT B1 WITHDREW defender VP 620-310 BP 8-9 LOST 2-4 [SURRENDER side] [GENERAL side] [STANDIN]
    RESULT B2 YES | NO                    (siege assault: did the besieger win?)
    RESULT B3 WINNER side | DRAW          (sea battle)
    ABSTRACT B1                           (settle this battle by the dice table instead)

`WITHDREW none` when no army withdrew; `BP` and `LOST` may be left out then.
`GENERAL side` reports that a team general of that side was killed.

`parse_setup(state, player, lines)` and `parse_results(state, player, lines)`
return a `Parsed` whose payload is `{"setup": {battle: SetupOrder data}}` or
`{"results": {battle: ResultReport data}}`; `format_setup` / `format_result`
write the canonical lines the acknowledgement quotes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed
from pbem.rulesets.conquest.model import (
    ATTACKER,
    DEFENDER,
    SEA,
    SIEGE,
    Battle,
    ConquestState,
    ResultReport,
    SetupOrder,
)

ALL_BATTLES = "*"
SETUP_WORDS = ("SIZE", "GOLD", "SHARE", "ABSTRACT", "STANDIN")
SIDE_WORDS = {"attacker": ATTACKER, "a": ATTACKER, "att": ATTACKER, "defender": DEFENDER, "d": DEFENDER,
              "def": DEFENDER}


# -- shared lookups ------------------------------------------------------------------

def find_battle(state: ConquestState, player: str, text: str) -> Battle:
    """The battle `text` names (`B1`, `b1`, `1`, `#1`), checked to be one of the player's."""
    wanted = "B" + text.strip().lstrip("#").upper().removeprefix("B")
    battle = state.round.battle(wanted)
    if battle is None:
        known = ", ".join(b.id for b in state.round.battles) or "none"
        raise InvalidOrder(f"there is no battle {text} this round (battles: {known})")
    if player and player not in battle.players:
        mine = ", ".join(b.id for b in state.round.battles if player in b.players) or "none"
        raise IllegalOrder(f"you do not fight in {battle.id}", suggestion=mine if mine != "none" else "")
    return battle


def _number(word: str, what: str) -> int:
    if not re.fullmatch(r"\d+", word):
        raise InvalidOrder(f"{what} must be a whole number, not {word!r}")
    return int(word)


def _take(words: list[str], i: int, what: str) -> str:
    if i >= len(words):
        raise InvalidOrder(f"{what} needs a value")
    return words[i]


# -- window 2 ------------------------------------------------------------------------

def parse_setup_line(state: ConquestState, player: str, line: str, rules: RuleBook,
                     earlier: Mapping[str, SetupOrder] | None = None) -> SetupOrder:
    """One window-2 line, added to an earlier line for the same battle in `earlier`."""
    words = line.split()
    if words and words[0].upper() in ("BATTLE", "SETUP"):
        words = words[1:]
    if not words:
        raise InvalidOrder("name a battle, e.g. `B1 SIZE 2000 GOLD 100`")
    battle_id = ALL_BATTLES if words[0].upper() == "ALL" else find_battle(state, player, words[0]).id
    start = (earlier or {}).get(battle_id)
    order = from_data(SetupOrder, to_data(start)) if start else SetupOrder(battle_id)
    cap = int(rules["battle.gold_max_per_battle"])
    i = 1
    while i < len(words):
        word = words[i].upper()
        if word == "SIZE":
            order.points = _number(_take(words, i + 1, "SIZE"), "SIZE")
            if order.points == 0:
                raise IllegalOrder("the base size must be more than 0 points")
            i += 2
        elif word == "GOLD":
            order.gold = _number(_take(words, i + 1, "GOLD"), "GOLD")
            if order.gold > cap:
                raise IllegalOrder(f"at most {cap} gp may be spent on one battle (COC-BAT-4)", suggestion=f"GOLD {cap}")
            i += 2
        elif word == "SHARE":
            order.share = _number(_take(words, i + 1, "SHARE"), "SHARE")
            if battle_id != ALL_BATTLES and not _in_team(state, player, battle_id):
                raise IllegalOrder(f"{battle_id} is not a team battle for you: SHARE is only for team members")
            i += 2
        elif word == "ABSTRACT":
            order.abstract = True
            i += 1
        elif word == "STANDIN":
            order.stand_in = " ".join(words[i + 1:])
            if not order.stand_in:
                raise InvalidOrder("STANDIN needs the name of the player who fights for you")
            i = len(words)
        else:
            raise InvalidOrder(f"unknown word {words[i]!r} in a battle setup line",
                               suggestion=" / ".join(SETUP_WORDS))
    return order


def _in_team(state: ConquestState, player: str, battle_id: str) -> bool:
    battle = state.round.battle(battle_id)
    return bool(battle) and battle.team_side(battle.side_of(player))   # type: ignore[union-attr]  # `battle` checked on the left


def format_setup(order: SetupOrder) -> str:
    words = ["ALL" if order.battle == ALL_BATTLES else order.battle]
    if order.points:
        words += ["SIZE", str(order.points)]
    words += ["GOLD", str(order.gold)]
    if order.share:
        words += ["SHARE", str(order.share)]
    if order.abstract:
        words.append("ABSTRACT")
    if order.stand_in:
        words += ["STANDIN", order.stand_in]
    return " ".join(words)


def parse_setup(state: ConquestState, player: str, lines: Sequence[tuple[int, str]], rules: RuleBook) -> Parsed:
    """A window-2 submission: one accepted line or one problem per line."""
    found: dict[str, SetupOrder] = {}
    parsed = Parsed(payload={})
    for no, line in lines:
        try:
            order = parse_setup_line(state, player, line, rules, found)
        except OrderProblem as problem:
            parsed.problems.append(problem.at(no, line))
            continue
        found[order.battle] = order
        parsed.accepted.append((no, format_setup(order) + _gold_note(state, player, order)))
    if found:
        parsed.payload["setup"] = {b: to_data(o) for b, o in found.items()}
    return parsed


def _gold_note(state: ConquestState, player: str, order: SetupOrder) -> str:
    empire = state.empires.get(player)
    if empire and order.gold > empire.treasury:
        return f" (you have {empire.treasury} gp: the amount will be cut, COC-BAT-8)"
    return ""


def setup_orders(payload: Mapping[str, Any]) -> list[SetupOrder]:
    """The `SetupOrder`s of a stored window-2 payload."""
    return [from_data(SetupOrder, v) for v in payload.get("setup", {}).values()]


# -- window 3 ------------------------------------------------------------------------

def _side(state: ConquestState, battle: Battle, word: str, allow_none: bool = False) -> str:
    key = word.casefold()
    if allow_none and key == "none":
        return "none"
    if key in SIDE_WORDS:
        return SIDE_WORDS[key]
    names = NameIndex({p: (state.empires[p].name,) for p in battle.players if p in state.empires}, "player")
    try:
        return battle.side_of(names.lookup(word))
    except OrderProblem as problem:
        choices = "attacker, defender" + (", none" if allow_none else "")
        raise InvalidOrder(f"{word!r} is not a side of {battle.id}", suggestion=choices) from problem


def _pair(words: list[str], i: int, what: str) -> tuple[tuple[int, int], int]:
    """`620-310`, `620/310` or `620 310`: attacker first."""
    first = _take(words, i + 1, what)
    match = re.fullmatch(r"(\d+)[-/:](\d+)", first)
    if match:
        return (int(match.group(1)), int(match.group(2))), i + 2
    second = _take(words, i + 2, what)
    return (_number(first, what), _number(second, what)), i + 3


def parse_result_line(state: ConquestState, player: str, line: str) -> ResultReport:
    """One window-3 line (or a GM's RESULT with `player` ""), not yet checked for completeness."""
    words = line.split()
    verb = words[0].upper() if words else ""
    if verb == "ABSTRACT" and len(words) == 2:
        return ResultReport(find_battle(state, player, words[1]).id, player, abstract=True)
    if verb != "RESULT" or len(words) < 3:
        raise InvalidOrder("report with `RESULT <battle> ...` (see your briefing) or ask `ABSTRACT <battle>`")
    battle = find_battle(state, player, words[1])
    report = ResultReport(battle.id, player)
    if battle.kind == SIEGE:
        return _siege_result(battle, report, words[2:])
    if battle.kind == SEA:
        return _sea_result(state, battle, report, words[2:])
    _land_result(state, battle, report, words)
    return report


def _siege_result(battle: Battle, report: ResultReport, words: list[str]) -> ResultReport:
    answer = words[0].upper()
    if len(words) != 1 or answer not in ("YES", "NO", "WON", "FAILED"):
        raise InvalidOrder(f"{battle.id} is a siege assault: did the besieger win? `RESULT {battle.id} YES` or NO")
    report.winner = ATTACKER if answer in ("YES", "WON") else DEFENDER
    return report


def _sea_result(state: ConquestState, battle: Battle, report: ResultReport, words: list[str]) -> ResultReport:
    if len(words) == 1 and words[0].upper() == "DRAW":
        report.winner = "draw"
        return report
    if len(words) == 2 and words[0].upper() == "WINNER":
        report.winner = _side(state, battle, words[1])
        return report
    raise InvalidOrder(f"{battle.id} is a sea battle: `RESULT {battle.id} WINNER <side>` or `RESULT {battle.id} DRAW`")


def _land_result(state: ConquestState, battle: Battle, report: ResultReport, words: list[str]) -> None:
    seen = set()
    i = 2
    while i < len(words):
        word = words[i].upper()
        seen.add(word)
        if word == "WITHDREW":
            report.withdrew = _side(state, battle, _take(words, i + 1, "WITHDREW"), allow_none=True)
            i += 2
        elif word in ("VP", "BP", "LOST"):
            (a, d), i = _pair(words, i, word)
            setattr(report, f"{word.lower()}_attacker", a)
            setattr(report, f"{word.lower()}_defender", d)
        elif word in ("SURRENDER", "SURRENDERED"):
            report.surrendered = _side(state, battle, _take(words, i + 1, "SURRENDER"))
            i += 2
        elif word == "GENERAL":
            report.general_killed = _side(state, battle, _take(words, i + 1, "GENERAL"))
            if not battle.team_side(report.general_killed):
                raise IllegalOrder("GENERAL reports a killed team general; that side is not a team (COC-RES-13)")
            i += 2
        elif word == "STANDIN":
            report.stand_in = True
            i += 1
        else:
            raise InvalidOrder(f"unknown word {words[i]!r} in a battle result",
                               suggestion="WITHDREW / VP / BP / LOST / SURRENDER / GENERAL / STANDIN")
    missing = [w for w in ("WITHDREW", "VP") if w not in seen]
    if report.withdrew != "none" or report.surrendered:
        missing += [w for w in ("BP", "LOST") if w not in seen]
    if missing:
        raise InvalidOrder(f"the result of {battle.id} needs {' and '.join(missing)}",
                           suggestion=f"RESULT {battle.id} WITHDREW defender VP 620-310 BP 8-9 LOST 2-4")
    if report.surrendered and report.surrendered == report.withdrew:
        report.withdrew = "none"     # a surrender is scored as that side's withdrawal anyway


def format_result(report: ResultReport, battle: Battle) -> str:
    if report.abstract:
        return f"ABSTRACT {report.battle}"
    if battle.kind == SIEGE:
        return f"RESULT {report.battle} {'YES' if report.winner == ATTACKER else 'NO'}"
    if battle.kind == SEA:
        return f"RESULT {report.battle} DRAW" if report.winner == "draw" else \
            f"RESULT {report.battle} WINNER {report.winner}"
    words = ["RESULT", report.battle, "WITHDREW", report.withdrew or "none",
             "VP", f"{report.vp_attacker}-{report.vp_defender}"]
    if report.bp_attacker or report.bp_defender or report.withdrew != "none" or report.surrendered:
        words += ["BP", f"{report.bp_attacker}-{report.bp_defender}",
                  "LOST", f"{report.lost_attacker}-{report.lost_defender}"]
    if report.surrendered:
        words += ["SURRENDER", report.surrendered]
    if report.general_killed:
        words += ["GENERAL", report.general_killed]
    if report.stand_in:
        words.append("STANDIN")
    return " ".join(words)


def parse_results(state: ConquestState, player: str, lines: Sequence[tuple[int, str]],
                  describe: Any = None) -> Parsed:
    """A window-3 submission. `describe(report, battle)` may add what the facts mean to the ack line."""
    parsed = Parsed(payload={})
    found: dict[str, ResultReport] = {}
    for no, line in lines:
        try:
            report = parse_result_line(state, player, line)
        except OrderProblem as problem:
            parsed.problems.append(problem.at(no, line))
            continue
        if state.round.outcome(report.battle):
            parsed.problems.append(IllegalOrder(f"{report.battle} is already settled", no, line))
            continue
        battle = state.round.battle(report.battle)
        assert battle is not None
        found[report.battle] = report
        note = describe(report, battle) if describe else ""
        parsed.accepted.append((no, format_result(report, battle) + (f" ({note})" if note else "")))
    if found:
        parsed.payload["results"] = {b: to_data(r) for b, r in found.items()}
    return parsed


def result_reports(payload: Mapping[str, Any]) -> list[ResultReport]:
    """The `ResultReport`s of a stored window-3 payload."""
    return [from_data(ResultReport, v) for v in payload.get("results", {}).values()]
