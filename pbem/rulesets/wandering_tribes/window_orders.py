"""Window S(n), strategic orders: one conditional order per non-resting player (WT-PBEM-1), read
and acknowledged at once; at the deadline each player's round in the published sequence, then
the battle trigger, the end of the campaign, or the next round's opening."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from pbem.kit.dice import Dice
from pbem.kit.orders import IllegalOrder
from pbem.rulesets.base import Parsed, Player, Report
from pbem.rulesets.phases import Lines, Outcome, Payload, Phase, Submissions
from pbem.rulesets.wandering_tribes import battle_setup, briefing, cycle, deadlines, orders, strategic, table
from pbem.rulesets.wandering_tribes.battle_results import ranking
from pbem.rulesets.wandering_tribes.game import BATTLE, ORDERS, OVER, WTGame, WTView
from pbem.rulesets.wandering_tribes.squares import SquareMap
from pbem.rulesets.wandering_tribes.texts import Section, briefing_report, named_problems, report, rules_of


def context(view: WTView, player: str) -> orders.Context:
    return orders.Context(view.state.state, rules_of(view), view.map, player)


def parse(view: WTView, player: Player, lines: Lines) -> Parsed:
    """WT-PBEM-2/13: every line checked; a resting player may only change his volunteer flag."""
    state = view.state.state
    if player.id in state.players and state.players[player.id].resting:
        kept = [(n, line) for n, line in lines if line.split()[0].upper() == "VOLUNTEER"]
        parsed = _read(view, player, kept)
        parsed.problems += [IllegalOrder("you are resting this round: only VOLUNTEER is read (WT-PBEM-13)").at(n, ln)
                            for n, ln in lines if (n, ln) not in kept]
        return parsed
    return _read(view, player, lines)


def _read(view: WTView, player: Player, lines: Lines) -> Parsed:
    if player.id not in view.state.state.players:
        return Parsed(payload={})
    reading = orders.read(context(view, player.id), lines)
    payload = {"lines": orders.canonical_lines(reading.orders)}
    return Parsed(payload=payload, accepted=list(reading.accepted), problems=named_problems(view, reading.problems))


def canonical(view: WTView, player: Player, payload: Payload) -> list[str]:
    return [str(line) for line in payload.get("lines", [])]


def missing(view: WTView, player: Player, payload: Payload) -> list[str]:
    """Attempts, unless he rests now (a rest he may declare ends his round before any attempt)."""
    lines = [str(x) for x in payload.get("lines", [])]
    state, rules = view.state.state, rules_of(view)
    resting = player.id in state.players and state.players[player.id].resting
    may_rest = "REST IF-ALLOWED" in lines and state.locked_count(player.id) >= int(
        rules.per_mode("rest.min_locked_to_declare"))
    if resting or may_rest or any(x.startswith("TRY") for x in lines):
        return []
    return ["no TRY line: your stacks are tried in id order, UNTIL-SUCCESS, stopping at camp fires (WT-PBEM-10)"]


def help_text(view: WTView, player: Player) -> str:
    state = view.state.state
    mine = state.stacks_of(player.id)
    if not mine:
        return "You have no stack, so you send no strategic orders."
    first = mine[0]
    exits = view.map.exits(first.tile)
    markers = ",".join(m.id for m in first.markers[:3])
    rows = [f"- {s.id} in {view.map.label(s.tile)} ({view.map.terrain(s.tile)}), {s.points} pts, exits "
            f"{','.join(view.map.exits(s.tile)) or 'none'}: " + ", ".join(f"{m.id} {m.type}" for m in s.markers)
            for s in mine]
    return "\n".join([
        "Your strategic order (one line each; a new mail replaces the whole order):",
        "REST IF-ALLOWED   (or REST NO)",
        f"DIVIDE {first.id} INTO {first.id}:{markers} {first.id}b:<markers>",
        f"TRY {first.id} UNTIL-SUCCESS FIRST {','.join(exits) or 'N'} CAMPFIRE STOP   (or ALWAYS; ROUTE, FORK "
        "<tile>:<dirs>, DEFAULT <dirs>, CAMPFIRE PASS or STOP-AT:<tiles>)",
        f"RECRUIT {first.id} towns: 2 <type>, 1 <type>   (or RECRUIT ALL <terrain>: ...)",
        f"REMOVE {first.id} <marker or type>, ...",
        *(["VOLUNTEER YES   (or NO)"] if rules_of(view).mode == "one_on_one" else []),
        "Your stacks:", *rows])


def resolve(view: WTView, submissions: Submissions, dice: Dice) -> Outcome[WTGame]:
    game = view.state
    state = game.state
    for pid, payload in submissions.items():
        flag = next((str(x) for x in payload.get("lines", []) if str(x).startswith("VOLUNTEER")), "")
        if flag and pid in state.players:
            state.players[pid].volunteer = flag.endswith("YES")
    for pid in table.waiting(game):            # those played at the table (pbem table) are not played again
        table.play_player(view, pid, submissions.get(pid, {}), dice)
    log, alerts = table.close(game)
    return after_round(view, [(f"Strategic round {game.state.round}", log)], alerts, dice)


def after_round(view: WTView, sections: Sequence[Section], alerts: list[str], dice: Dice) -> Outcome[WTGame]:
    """WT-RND-1..6, WT-VIC-1/2: battles, the end, or the next round."""
    game, rules = view.state, rules_of(view)
    over = cycle.campaign_over(game.state, rules, view.now.date() if view.now else date.today())
    title = f"Strategic round {game.state.round}"
    if strategic.battle_due(game.state, rules) or (over and cycle.final_battles_due(game.state, rules)):
        return open_battles(view, sections, alerts, dice, title, final=over)
    if over:
        return finish(view, sections, alerts, dice, title)
    return next_round(view, sections, alerts, dice, title)


def next_round(view: WTView, sections: Sequence[Section], alerts: list[str], dice: Dice, title: str) -> Outcome[WTGame]:
    game = view.state
    game.state, opening = strategic.open_round(game.state, rules_of(view), dice)
    game.phase, game.sequence, game.opening, game.battles = ORDERS, opening.sequence, opening.log, []
    return _outcome(view, title, sections, alerts, dice, [])


def open_battles(view: WTView, sections: Sequence[Section], alerts: list[str], dice: Dice, title: str,
                 final: bool = False) -> Outcome[WTGame]:
    """Battle setup (C): the battles numbered and each side's briefing."""
    game, rules = view.state, rules_of(view)
    game.battles, log = battle_setup.setup(game.state, rules, view.map, dice, final=final)
    game.phase, game.final, game.sequence = BATTLE, final, []
    sections = [*sections, ("Battle phase", [*log, *(f"Battle {b.id}: {b.kind} in {b.tile}, {b.defender} defends"
                                                     for b in game.battles)])]
    deadline = deadlines.promise(view)
    briefs = [briefing_report(view, f"Battle {b.id} briefing",
                              briefing.briefing(game.state, rules, view.map, b, deadline), _sides(game, b),
                              f"briefing-{b.id}") for b in game.battles]
    return _outcome(view, title, sections, alerts, dice, briefs)


def _sides(game: WTGame, battle: battle_setup.Battle) -> list[str]:
    owners = [game.state.stacks[s].owner for s in battle.stacks()]
    return owners + ([battle.ambusher] if battle.ambusher else [])


def finish(view: WTView, sections: Sequence[Section], alerts: list[str], dice: Dice, title: str) -> Outcome[WTGame]:
    """WT-VIC-3..5: the ranking by marker points."""
    game = view.state
    game.phase = OVER
    lines = [f"{place}. {pid}: {score} pts" for place, pid, score in ranking(game.state)]
    return _outcome(view, title, [*sections, ("Final ranking", lines)], alerts, dice, [])


def _outcome(view: WTView, title: str, sections: Sequence[Section], alerts: list[str], dice: Dice,
             extra: Sequence[Report]) -> Outcome[WTGame]:
    game = view.state
    game.turn += 1
    game.resolved = title
    public = report(view, title, sections, f"turn-{game.turn}")
    return Outcome(game, [public, *extra], gm_alerts=alerts, turn_finished=True)


def owing(view: WTView) -> list[str]:
    return table.waiting(view.state)


PHASE = Phase[WTGame, SquareMap](title="strategic orders", window=ORDERS, parse=parse, resolve=resolve,
                                 owing=owing, missing=missing, canonical=canonical, help=help_text,
                                 words=lambda view: orders.WORDS, waiting_for_gm=table.under_way)
