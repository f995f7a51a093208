"""Window B: one per tabletop battle; both players report, the result is applied (MK-PBM-7, MK-PBM-12).

Each player of an open battle sends the report lines of `battle_lines`. Reports are kept in
`state.battle.reports` as they come, so the window may open again without losing them:

- both reports in, with the same result, medals and scars: applied at once;
- both in but different: the GM settles (`GM RESULT`), the window waits for him;
- one report by the deadline: applied once `battle.gm_grace_hours` more have passed, unless
  the GM rules first (the other player's late report still counts within the grace);
- none by the deadline: `battle.no_report_default`: "gm" asks the GM, "draw" applies a draw
  with no medals or scars.

Results apply in canonical battle order. After each, the month goes on (`steps.month_goes_on`):
the next battle is chosen, or Reform runs. With `battle.schedule = "independent_waves"` several
battles are briefed at once (`battles.select`); the GM is alerted when a later battle of a wave
would not have been picked had the earlier results been known (A9).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder, OrderProblem
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms import battle_lines, battle_results, battles, standing, steps
from pbem.rulesets.mighty_kingdoms.battle_state import DECIDED, GM, Battle, BattleReport
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import DRAW, MKState, MKView
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Payload, Phase, Submissions

REPORTS = "reports"


# -- reading a player's mail ---------------------------------------------------------------------
class Reading:
    """One mail's lines: the standing entries, the reports by battle, what was accepted and refused."""

    def __init__(self, view: MKView, player: Player) -> None:
        self.view, self.who, self.player = view, player, player.id
        mine = battle_lines.battles_of(view.state, player.id)
        self.current: Battle | None = mine[0] if len(mine) == 1 else None
        self.reports: dict[str, BattleReport] = {}
        self.first: dict[str, tuple[int, str]] = {}
        self.standing: list[dict[str, Any]] = []
        self.accepted: list[tuple[int, str]] = []
        self.problems: list[OrderProblem] = []

    def line(self, no: int, text: str) -> None:
        words = text.split()
        verb = words[0].upper()
        try:
            if verb in standing.VERBS:
                entry = standing.parse(self.view, self.who, verb, words[1:])
                self.standing.append(entry)
                self.accepted.append((no, standing.canonical(entry)))
                return
            self.report_line(verb, words[1:])
            self.accepted.append((no, " ".join([verb, *words[1:]])))
            assert self.current is not None        # report_line sets it or raises
            self.first.setdefault(self.current.id, (no, text))
        except OrderProblem as problem:
            self.problems.append(problem.at(no, text))

    def report_line(self, verb: str, words: Sequence[str]) -> None:
        view, player = self.view, self.player
        if verb not in battle_lines.VERBS:
            out_of_window(verb, words)
            raise NotAnOrder(f"{verb} is not a battle report line; they start with "
                             + ", ".join(battle_lines.VERBS + standing.VERBS))
        if verb == "RESULT":
            self.current, result = battle_lines.read_result(view, player, words)
            self.reports.setdefault(self.current.id, BattleReport()).result = result
            return
        if self.current is None:
            raise InvalidOrder("start with RESULT <battle> ... to say which battle these lines report")
        battle, report = self.current, self.reports.setdefault(self.current.id, BattleReport())
        if verb in ("MEDALS", "SCARS"):
            listed = report.medals if verb == "MEDALS" else report.scars
            listed += battle_lines.units(view.state, battle, words, listed, verb.lower()[:-1])
        elif verb == "MOVE":
            army, tile = battle_lines.move(view, player, battle, words, verb).split()
            report.moves[army] = tile
        elif verb == "ADVANCE":
            self.advance(battle, report, words)
        else:
            name, unit = battle_lines.take(view.state, player, battle, words)
            report.allot[name] = unit

    def advance(self, battle: Battle, report: BattleReport, words: Sequence[str]) -> None:
        if report.result and report.result != self.player:
            raise InvalidOrder("only the winner makes the win move; your report does not say you won")
        if len(words) == 1 and words[0].upper() == battle_lines.NONE:
            report.win_moves = []
            return
        report.win_moves.append(battle_lines.move(self.view, self.player, battle, words, "ADVANCE"))

    def parsed(self) -> Parsed:
        for ident, report in list(self.reports.items()):
            if not report.result:
                no, text = self.first[ident]
                self.problems.append(InvalidOrder(f"the report of {ident} has no RESULT line, so it was not "
                                                  "kept", suggestion="RESULT WIN <kingdom>").at(no, text))
                del self.reports[ident]
        payload: dict[str, Any] = {REPORTS: {i: to_data(r) for i, r in self.reports.items()}}
        if self.standing:
            payload["standing"] = self.standing
        return Parsed(payload=payload, accepted=self.accepted, problems=self.problems)


ELSEWHERE = {"MOVE": "the Orders window", "DEFEND": "the Orders window", "RAZE": "the Orders window",
             "BUILD": "the winter's purchase window (W1)", "RECRUIT": "the winter's purchase window (W1)",
             "TITHE": "the winter's purchase window (W1)", "QUEST": "the winter's purchase window (W1)",
             "DEPLOY": "the winter's deployment window (W2)", "ALLOT": "the winter's deployment window (W2)"}


def out_of_window(verb: str, words: Sequence[str]) -> None:
    """An order of another window (`A1 MOVE T5`, `BUILD village T3`) is refused saying where it belongs.
    Called only for lines that start no report line (`MOVE B1 T7` is one: it reads here)."""
    for word in (verb, words[0].upper() if words else ""):
        if word in ELSEWHERE:
            raise IllegalOrder(f"{word} is read only in {ELSEWHERE[word]}; window B reads battle reports and "
                               "standing preferences")


def parse(view: MKView, player: Player, lines: Lines) -> Parsed:
    reading = Reading(view, player)
    for no, text in lines:
        reading.line(no, text)
    return reading.parsed()


def canonical(view: MKView, player: Player, payload: Payload) -> list[str]:
    """The lines on file as the processor reads them: each battle's report, then the standing lines."""
    several = len(battle_lines.battles_of(view.state, player.id)) > 1
    out = []
    for ident, data in payload.get(REPORTS, {}).items():
        battle = view.state.battle.battle(ident)
        if battle is not None:
            out += battle_lines.lines_of(view.state, from_data(BattleReport, data), battle, several)
    return out + [standing.canonical(entry) for entry in standing.entries(payload)]


def combine(view: MKView, previous: Payload, new: Payload) -> dict[str, Any]:
    """A new mail replaces the earlier one, but for the reports of battles it does not report again
    (a player in two battles of a wave may report them in two mails)."""
    return {**new, REPORTS: {**previous.get(REPORTS, {}), **new.get(REPORTS, {})}}


def gm_pending(view: MKView) -> list[str]:
    """What waits for the GM in window B, each with the command that settles it: the battles he must
    rule, and those whose single report waits out his grace (the window stays open past its deadline
    for them, and `pbem status` must say why)."""
    phase = view.state.battle
    ruling = "RESULT {} WIN <kingdom>|DRAW [MEDALS ...] [SCARS ...]"
    return ([f"battle {ident} waits for your ruling: " + ruling.format(ident) for ident in phase.awaiting_gm] +
            [f"battle {ident} has one report, applied at {until[:16].replace('T', ' ')} unless you rule first: "
             + ruling.format(ident) for ident, until in phase.grace_until.items()
             if ident not in phase.awaiting_gm and GM not in phase.reports.get(ident, {})])


# -- who owes, and when the window may close -----------------------------------------------------------
def owing(view: MKView) -> list[str]:
    """The players of open battles whose report is not in yet (none for a battle the GM must settle,
    nor for one already settled that waits for an earlier battle of its wave)."""
    phase = view.state.battle
    out = [p for b in phase.pending() if b.id not in phase.awaiting_gm and DECIDED not in phase.reports.get(b.id, {})
           for p in b.players if p not in phase.reports.get(b.id, {})]
    return [p for p in view.state.order if p in out]


def ready(view: MKView) -> bool:
    """The first open battle has the GM's ruling and both sides' reports (a ruling settles the result,
    medals and scars, never a side's own moves: a side yet to report has until the deadline), or its
    single report's grace is over, or there is no open battle at all."""
    first = _first(view.state)
    if first is None:
        return True                       # nothing to fight (a position imported mid-phase): choose on
    got = view.state.battle.reports.get(first.id, {})
    return (GM in got and all(p in got for p in first.players)) or _grace_over(view, first)


def wakes(view: MKView) -> datetime | None:
    """When the first open battle's single report has waited out the GM's grace (`ready` then)."""
    first = _first(view.state)
    until = view.state.battle.grace_until.get(first.id, "") if first is not None else ""
    return datetime.fromisoformat(until) if until else None


def waiting_for_gm(view: MKView) -> bool:
    first = _first(view.state)
    return first is not None and first.id in view.state.battle.awaiting_gm and not ready(view)


def missing(view: MKView, player: Player, payload: Payload) -> list[str]:
    """The battles the player still owes a report on, after this mail."""
    sent = set(payload.get(REPORTS, {})) | {b for b, got in view.state.battle.reports.items() if player.id in got}
    return [f"the report of battle {b.id}" for b in battle_lines.battles_of(view.state, player.id) if b.id not in sent]


def _first(state: MKState) -> Battle | None:
    pending = state.battle.pending()
    return pending[0] if pending else None


def _grace_over(view: MKView, battle: Battle) -> bool:
    until = view.state.battle.grace_until.get(battle.id, "")
    return bool(until) and view.now >= datetime.fromisoformat(until)


# -- closing the window ------------------------------------------------------------------------------
def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    state = view.state
    turn_before = state.calendar.turn
    for player, payload in submissions.items():
        standing.apply(state, player, payload)
    fold(state, submissions)
    alerts: list[str] = []
    section = Section("Battle results")
    sections = [section]
    settled = []
    decided = {b.id: decide(view, b, alerts) for b in state.battle.pending()}
    for battle in state.battle.pending():
        report = decided[battle.id]
        if report is None:
            break
        alerts += wave_check(view, battle)
        battle_results.apply(view, battle, report, section)
        forget(state, battle.id)
        settled.append(battle.id)
    went_on = not state.battle.pending()
    if went_on:
        steps.month_goes_on(view, dice, sections)
    if not settled and not went_on:
        return Outcome(state, gm_alerts=alerts)
    title = "battle " + ", ".join(settled) if settled else "battle selection"
    out = steps.outcome(view, turn_before, title, sections, "-".join(["battle", *settled]))
    out.gm_alerts += alerts
    return out


def fold(state: MKState, submissions: Submissions) -> None:
    """Keep every report just sent; a player's new report of a battle replaces his earlier one."""
    for player, payload in submissions.items():
        for ident, data in payload.get(REPORTS, {}).items():
            battle = state.battle.battle(ident)
            if battle is not None and battle.pending and player in battle.players:
                state.battle.reports.setdefault(battle.id, {})[player] = from_data(BattleReport, data)


def forget(state: MKState, ident: str) -> None:
    state.battle.reports.pop(ident, None)
    state.battle.grace_until.pop(ident, None)
    state.battle.awaiting_gm = [b for b in state.battle.awaiting_gm if b != ident]


def decide(view: MKView, battle: Battle, alerts: list[str]) -> BattleReport | None:
    """`settle`, remembered: a battle of a wave settled while an earlier one still waits keeps its
    result (a default applied at this deadline must not wait for the next one)."""
    got = view.state.battle.reports.setdefault(battle.id, {})
    if DECIDED not in got:
        report = settle(view, battle, alerts)
        if report is None:
            return None
        got[DECIDED] = report
    return got[DECIDED]


def settle(view: MKView, battle: Battle, alerts: list[str]) -> BattleReport | None:
    """The report to apply to `battle` now, or None while it waits (MK-PBM-7)."""
    state = view.state
    got = state.battle.reports.get(battle.id, {})
    players = {p: r for p, r in got.items() if p in battle.players}
    if GM in got:
        return _how(battle, "gm", merged(state, battle, got[GM], players))
    if len(players) == 2:
        first, second = players.values()
        if first.facts() == second.facts():
            return _how(battle, "reports", merged(state, battle, first, players))
        _ask_gm(state, battle, alerts, "the two reports differ: " + _shown(state, battle, players))
        return None
    final = view.deadline is None or view.now >= view.deadline
    if players:
        return single(view, battle, players, final, alerts)
    if not final:
        return None
    if view.rules["battle.no_report_default"] == DRAW:
        return _how(battle, "no report", BattleReport(result=DRAW))
    _ask_gm(state, battle, alerts, "nobody reported by the deadline (battle.no_report_default = gm)")
    return None


def single(view: MKView, battle: Battle, players: Mapping[str, BattleReport], final: bool,
           alerts: list[str]) -> BattleReport | None:
    """One side reported: applied after the deadline once the GM's grace is over (or at once with no grace)."""
    state = view.state
    report = merged(state, battle, next(iter(players.values())), players)
    if _grace_over(view, battle):
        return _how(battle, "single report", report)
    if not final or battle.id in state.battle.grace_until:
        return None
    hours = view.rules["battle.gm_grace_hours"]
    if not hours:
        return _how(battle, "single report", report)
    until = (view.deadline or view.now) + timedelta(hours=hours)
    state.battle.grace_until[battle.id] = until.isoformat()
    alerts.append(f"Battle {battle.id}: only one side reported by the deadline ({_shown(state, battle, players)}). "
                  f"It is applied at {until:%Y-%m-%d %H:%M %Z} unless you rule first with "
                  f"`RESULT {battle.id} WIN <kingdom>|DRAW [MEDALS ...] [SCARS ...]`.")
    return None


def _how(battle: Battle, how: str, report: BattleReport) -> BattleReport:
    battle.how = how
    return report


def _ask_gm(state: MKState, battle: Battle, alerts: list[str], why: str) -> None:
    if battle.id not in state.battle.awaiting_gm:
        state.battle.awaiting_gm.append(battle.id)
        alerts.append(f"Battle {battle.id} needs your ruling: {why}. Send `RESULT {battle.id} WIN <kingdom>|DRAW "
                      f"[MEDALS <units>] [SCARS <units>]`, or `RESULT {battle.id} AS <kingdom>` to apply that "
                      "side's report.")


def _shown(state: MKState, battle: Battle, players: Mapping[str, BattleReport]) -> str:
    return "; ".join(f"{state.kingdoms[p].name}: " + " / ".join(battle_lines.lines_of(state, r, battle, False)[:3])
                     for p, r in players.items())


def merged(state: MKState, battle: Battle, facts: BattleReport, players: Mapping[str, BattleReport]) -> BattleReport:
    """The result, medals and scars of `facts`; each side's own forced moves from its own report;
    the win move and the artefact allocation from the winner's report."""
    out = BattleReport(facts.result, list(facts.medals), list(facts.scars))
    for player, report in players.items():
        out.moves.update({a: t for a, t in report.moves.items()
                          if a in state.armies and state.armies[a].owner == player})
    winner = players.get(facts.result)
    if winner is not None:
        out.win_moves, out.allot = list(winner.win_moves), dict(winner.allot)
    return out


def wave_check(view: MKView, battle: Battle) -> list[str]:
    """A9: a battle briefed in a wave whose chooser would now pick otherwise is still fought as
    briefed, and the GM is told."""
    picked = view.state.battle.wave_picks.pop(battle.id, "")
    if not picked:
        return []
    now = battles.choose(view, battle.chooser)
    if now is not None and f"{now.tile} {now.opponent}" == picked:
        return []
    instead = f"{now.tile} against {now.opponent}" if now else "nothing"
    return [f"Battle {battle.id} was briefed in a wave (battle.schedule = independent_waves); with the earlier "
            f"results known, {view.state.kingdoms[battle.chooser].name} would have picked {instead}. Its result "
            "is applied as reported (A9)."]


# -- the GM's ruling ------------------------------------------------------------------------------------
def gm_result(view: MKView, words: Sequence[str]) -> str:
    """`RESULT <battle> WIN <kingdom>|DRAW [MEDALS ...] [SCARS ...]` or `RESULT <battle> AS <kingdom>`."""
    state = view.state
    if len(words) < 2:
        raise ValueError(f"usage: {RESULT_USAGE}")
    battle = state.battle.battle(words[0])
    if battle is None or not battle.pending:
        open_ = ", ".join(b.id for b in state.battle.pending()) or "none"
        raise ValueError(f"no open battle {words[0]}; open: {open_}")
    got = state.battle.reports.get(battle.id, {})
    if words[1].upper() == "AS":
        who = standing.kingdom(state, " ".join(words[2:]))
        if who not in got:
            raise ValueError(f"{state.kingdoms[who].name} has sent no report of {battle.id}")
        ruling = from_data(BattleReport, to_data(got[who]))
    else:
        ruling = _ruling(state, battle, list(words[1:]))
    late = battle.id in state.battle.awaiting_gm or battle.id in state.battle.grace_until
    got[GM] = ruling
    state.battle.reports[battle.id] = got
    state.battle.awaiting_gm = [b for b in state.battle.awaiting_gm if b != battle.id]
    state.battle.grace_until.pop(battle.id, None)
    if late:            # its deadline is past: the ruling is applied at the next tick (`ready`)
        state.battle.grace_until[battle.id] = view.now.isoformat()
    done = f"{battle.id}: ruling recorded: " + " / ".join(battle_lines.lines_of(state, ruling, battle, True)[:3])
    owed = [] if late else [state.kingdoms[p].name for p in battle.players if p not in got]
    return done + (f"; the report of {' and '.join(owed)} (its own moves) is still awaited: the ruling is "
                   "applied when it is in, or at the deadline" if owed else "")


def _ruling(state: MKState, battle: Battle, words: list[str]) -> BattleReport:
    marks: dict[str, list[str]] = {"MEDALS": [], "SCARS": []}
    part, head = "", []
    for word in words:
        if word.upper() in marks:
            part = word.upper()
        elif part:
            marks[part].append(word)
        else:
            head.append(word)
    report = BattleReport(battle_lines.result_of(state, battle, head))
    report.medals = battle_lines.units(state, battle, marks["MEDALS"], [], "medal") if marks["MEDALS"] else []
    report.scars = battle_lines.units(state, battle, marks["SCARS"], [], "scar") if marks["SCARS"] else []
    return report


RESULT_USAGE = "RESULT <battle> WIN <kingdom>|DRAW [MEDALS <units>] [SCARS <units>] | RESULT <battle> AS <kingdom>"


# -- help -------------------------------------------------------------------------------------------------
def help_text(view: MKView, player: Player) -> str:
    """The report lines with this player's own ids: his battles, armies and where they may go."""
    mine = battle_lines.battles_of(view.state, player.id)
    lines = [f"Window B: report each battle you fight ({', '.join(b.id for b in mine) or 'none now'}), "
             "one line each, in this order:"]
    lines += [f"  {battle_lines.SYNTAX[v]}" for v in battle_lines.VERBS]
    for battle in mine:
        for army in (a for a in view.state.armies_in(battle.tile) if a.owner == player.id):
            legal = battle_results.destinations(view, army)
            lines.append(f"  {battle.id}: {army.id} may move to {', '.join(legal) or 'no tile (it would be destroyed)'}"
                         f"; units {', '.join(f'{army.id}.{e.id}' for e in army.roster.entries)}")
    lines.append("Standing preferences (kept until replaced): " + "; ".join(standing.SYNTAX.values()))
    return "\n".join(lines)


PHASE = Phase[MKState, HexMap](
    title="battle", window="battle", parse=parse, resolve=resolve,
    owing=owing, ready=ready, waiting_for_gm=waiting_for_gm, missing=missing, help=help_text, wakes=wakes,
    canonical=canonical, combine=combine, words=lambda view: (*battle_lines.VERBS, *standing.VERBS),
    gm_verbs=(GMVerb[MKState, HexMap]("RESULT", RESULT_USAGE, "settle a battle of window B (MK-PBM-7)", gm_result),),
)
