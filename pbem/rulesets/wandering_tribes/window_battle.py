"""Window B, battle reports (WT-PBEM-11, WT-RES): both sides report; at the deadline each battle is
settled (WT-RES-2; the GM decides where nobody reported or the reports disagree) and resolved in
battle-id order, then resting ends and the next strategic round opens, or the campaign ends."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Payload, Phase, Submissions, ask
from pbem.rulesets.wandering_tribes import battle_orders, briefing
from pbem.rulesets.wandering_tribes.battle_results import Report, end_phase, generals_lost, problems, sides
from pbem.rulesets.wandering_tribes.battle_results import resolve as resolve_battle
from pbem.rulesets.wandering_tribes.deadlines import deadline
from pbem.rulesets.wandering_tribes.game import BATTLE, Move, WTGame, WTView
from pbem.rulesets.wandering_tribes.squares import SquareMap
from pbem.rulesets.wandering_tribes.texts import named_problems, names_of, rules_of
from pbem.rulesets.wandering_tribes.window_orders import finish, next_round


def parse(view: WTView, player: Player, lines: Lines) -> Parsed:
    game = view.state
    """Each battle's report is kept when the rules accept it; one they refuse (a withdrawn winner,
    a marker not in that side's stack) is not stored, and its lines are quoted with the reason."""
    reading = battle_orders.read(game.state, rules_of(view), game.battles, player.id, lines, names_of(view))
    refused = {b.id for b in game.battles if b.id in reading.reports
               and problems(game.state, b, reading.reports[b.id])}
    reports = {str(k): to_data(r) for k, r in reading.reports.items() if k not in refused}
    accepted = [(n, line) for n, line in lines if not any(p.line_no == n for p in reading.problems)]
    return Parsed(payload={"reports": reports} if reports else {}, accepted=accepted,
                  problems=named_problems(view, reading.problems))



def canonical(view: WTView, player: Player, payload: Payload) -> list[str]:
    out = []
    for key, raw in payload.get("reports", {}).items():
        report = from_data(Report, raw)
        out.append(f"RESULT {key} " + (f"WINNER {report.winner}" if report.winner else "DRAW"))
        out += [f"WITHDRAWN {p}" for p in report.withdrawn]
        out += [f"LOST {p} {', '.join(m)}" for p, m in report.lost.items() if m]
        out += [f"IFWIN {key} RECRUIT {n} {t}" for picks in report.ifwin.values() for t, n in picks]
        out += [f"IFLOSE {key} RETREAT {', '.join(d)}" for d in report.iflose.values()]
        out += [f"GENERAL {key} {m}" for m in report.general.values()]
    return out


def help_text(view: WTView, player: Player) -> str:
    game = view.state
    mine = [b for b in game.battles if player.id in sides(game.state, b)]
    if not mine:
        return "You fight no battle this phase; nothing to send."
    rows = [f"RESULT {b.id} WINNER <player>   (or RESULT {b.id} DRAW)\nWITHDRAWN <player>\nLOST <player> <marker ids>\n"
            f"IFWIN {b.id} RECRUIT <n> <type>\nIFLOSE {b.id} RETREAT N, E, S, W   (ranked)"
            + "".join(f"\n{line}" for line in briefing.general_choice(game.state, rules_of(view), b, player.id))
            for b in mine]
    return "Report each battle you fought:\n" + "\n\n".join(rows)


def owing(view: WTView) -> list[str]:
    game = view.state
    return sorted({p for b in game.battles for p in sides(game.state, b)})


def resolve(view: WTView, submissions: Submissions, dice: Dice) -> Outcome[WTGame]:
    game, rules = view.state, rules_of(view)
    log: list[str] = []
    alerts: list[str] = []
    game.moves = []
    for battle in game.battles:
        filed = {pid: from_data(Report, p["reports"][str(battle.id)]) for pid, p in submissions.items()
                 if str(battle.id) in p.get("reports", {})}
        settled, why = battle_orders.settle(rules, filed)
        ruled = game.gm_results.get(str(battle.id))
        if ruled is not None:
            settled = _with_instructions(ruled, filed)
        elif settled is None or (why := generals_lost(game.state, rules, battle, settled)):
            settled = _gm_result(view, battle.id, sides(game.state, battle), why)
        before = {s: game.state.stacks[s].tile for s in battle.stacks() if s in game.state.stacks}
        game.state, lines = resolve_battle(game.state, rules, view.map, battle, settled, dice)
        log += lines
        game.moves += [Move(s, t, [game.state.stacks[s].tile], retreat=True) for s, t in before.items()
                       if s in game.state.stacks and game.state.stacks[s].tile != t]
    game.state, game.gm_results = end_phase(game.state), {}
    log.append("The battle phase is over: nobody rests any more (WT-REST-13)")
    sections = [("Battle results", log)]
    game.battles = []
    if game.final:
        return finish(view, sections, alerts, dice, "Battle phase")
    return next_round(view, sections, alerts, dice, "Battle phase")


def _gm_result(view: WTView, battle: int, players: list[str], why: str) -> Report:
    """WT-RES-2: the GM sets the result (DECIDE battle.<id> <player>|draw)."""
    answer = ask(view.decisions, f"battle.{battle}", f"battle {battle}: {why}", [*players, "draw"])
    return Report(winner="" if answer == "draw" else answer)


def _with_instructions(ruled: Report, filed: dict[str, Report]) -> Report:
    """The GM's facts with each side's own IFWIN/IFLOSE from his report."""
    out = Report(ruled.winner, list(ruled.withdrawn), dict(ruled.lost))
    for player, report in filed.items():
        out.ifwin.update({p: v for p, v in report.ifwin.items() if p == player})
        out.iflose.update({p: v for p, v in report.iflose.items() if p == player})
        out.general.update({p: v for p, v in report.general.items() if p == player})
    return out


def gm_result(view: WTView, words: Sequence[str]) -> str:
    """GM RESULT <battle> WINNER <player>|DRAW [WITHDRAWN <player>] [LOST <player> <m1,m2>]: the result
    of a battle whose reports disagree or never came (WT-RES-2); the sides' own IFWIN/IFLOSE stand."""
    game = view.state
    battle = next((b for b in game.battles if words and str(b.id) == words[0]), None)
    if battle is None:
        raise ValueError(f"name a battle of this phase ({', '.join(str(b.id) for b in game.battles)})")
    lines = [(1, "RESULT " + " ".join(words[:3] if len(words) > 2 and words[1].upper() == "WINNER" else words[:2]))]
    rest = list(words[3:] if len(words) > 2 and words[1].upper() == "WINNER" else words[2:])
    while rest:
        verb, who = rest.pop(0).upper(), rest.pop(0) if rest else ""
        markers = rest.pop(0) if verb == "LOST" and rest else ""
        lines.append((len(lines) + 1, f"{verb} {who} {markers}".strip()))
    reading = battle_orders.read(game.state, rules_of(view), [battle], sides(game.state, battle)[0], lines,
                                 names_of(view))
    if reading.problems:
        raise ValueError(str(reading.problems[0]))
    report = reading.reports[battle.id]
    game.gm_results[str(battle.id)] = Report(report.winner, report.withdrawn, report.lost)
    return f"battle {battle.id}: " + (f"{report.winner} wins" if report.winner else "a draw") + " (set by the GM)"


def words(view: WTView) -> Any:
    return battle_orders.WORDS


PHASE = Phase[WTGame, SquareMap](title="battle reports", window=BATTLE, parse=parse, resolve=resolve,
                                 owing=owing, canonical=canonical, help=help_text, words=words, deadline=deadline,
                                 gm_verbs=(GMVerb("RESULT", "RESULT <battle> WINNER <player>|DRAW [LOST <player> "
                                                  "<m1,m2>] [WITHDRAWN <player>]",
                                                  "set a battle's result when the reports disagree or never came",
                                                  gm_result),))
