"""Window 3 and step C: settle every battle's result, then award Empire Points (COC-RES).

Entry points for the ruleset glue:

    step_c(state, reports, rules, dice, final=True, victory=None) -> (state, events)

`reports` are the window's `ResultReport`s (from `battle_orders.result_reports`
of each player's payload); GM rulings already in `state.round.reports` (reporter
"gm", see `gm_result`) are kept. Each battle without an outcome is settled
(`settle`), in this order of precedence:

1. a GM ruling (COC-RES-20, COC-TRN-6);
2. a request for abstract resolution from either side: the opponent cannot
   refuse (COC-ABR-1), unless he reported the battle as played: then the GM rules,
   and the players read why in the report;
3. the players' reports: all agreeing and from both sides: accepted; differing:
   to the GM (COC-RES-20); from one side only: accepted at the deadline
   (`results.single_report_accept`, COC-RES-21);
4. none at the deadline: abstract resolution, or under
   `battle.unreported_result = "gm"` the GM's answer to a question (COC-RES-21).

`decisions` are the GM's answers for this stage (`Context.decisions`): where a
rule option leaves a call to the GM (`battle.unreported_result`,
`results.surrender`, `results.equal_vp`, `results.team_general_killed_cap` set
to "gm"), step C asks with `pbem.rulesets.base.ask`, which holds the stage until
the GM answers `DECIDE <battle>-<what> <choice>`; the stage is then resolved
again with the same dice.

`final` is true at the window-3 deadline (or when every side has reported).
While a battle is still open (`open_battles`) step C stops there, and
`gm_alerts(state)` says what the GM must rule. Once every battle is settled
(COC-GEN-3) step C awards EP per battle with the team reduction (COC-RES-12),
averages, applies All or Nothing and adds carried EP (COC-RES-16), records
who beat whom (COC-RES-17), updates Naval Advantage (COC-NAV-5..11) and carries
out successful siege assaults (COC-SIE-10), calling `victory(state, player)`
after each one (COC-WIN-5). Step D uses the `EPAward`s and `Win`s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from pbem.kit.dice import Dice
from pbem.kit.orders import OrderProblem
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.base import GMDecisionNeeded, ask
from pbem.rulesets.conquest import battle_orders, battles, empire, naval, siege
from pbem.rulesets.conquest.model import (
    ATTACKER,
    DEFENDER,
    DRAW,
    HIGHER_VP,
    LAND,
    LOSE,
    MINOR,
    SEA,
    SIDES,
    SIEGE,
    TEAM,
    VICTORIES,
    Battle,
    BattleEP,
    BattleOutcome,
    BattleSetup,
    ConquestState,
    EPAward,
    ResultReport,
    Win,
    other_side,
)
from pbem.rulesets.conquest.outcomes import (
    LABELS,
    Decide,
    ResultRules,
    classify,
    facts_from_report,
    member_ep,
    round_ep,
)

GM = "gm"


# -- settling results ----------------------------------------------------------------

def asker(decisions: Mapping[str, str], battle: Battle) -> Decide:
    """Questions about one battle for the GM, keyed `<battle>-<what>` (e.g. `B2-surrender`)."""
    def decide(key: str, question: str, options: Sequence[str]) -> str:
        return ask(decisions, f"{battle.id}-{key}", f"{battle.id}: {question}", options)
    return decide


def outcome_from_report(battle: Battle, report: ResultReport, rules: ResultRules, how: str,
                        decide: Decide | None = None) -> BattleOutcome:
    """The categories a report's facts give (COC-RES-2..14; siege and sea by their winner)."""
    if battle.kind in (SIEGE, SEA):
        if report.winner in SIDES:
            cats = {report.winner: MINOR, ("defender" if report.winner == ATTACKER else ATTACKER): LOSE}
        else:
            cats = {ATTACKER: DRAW, DEFENDER: DRAW}
        return BattleOutcome(battle.id, cats[ATTACKER], cats[DEFENDER], how=how)
    teams = [s for s in SIDES if battle.team_side(s)]
    verdict = classify(facts_from_report(report), rules, teams, decide)
    return BattleOutcome(battle.id, verdict.categories[ATTACKER], verdict.categories[DEFENDER], how=how,
                         note=verdict.reason)


def _reports_for(state: ConquestState, battle: Battle) -> list[ResultReport]:
    return [r for r in state.round.reports if r.battle == battle.id]


def _decide(state: ConquestState, battle: Battle, rules: RuleBook, dice: Dice, final: bool,
            decisions: Mapping[str, str]) -> str:
    """Settle one battle if its reports allow; returns why it is still open ("" when settled or waiting)."""
    rr = ResultRules.from_book(rules)
    decide = asker(decisions, battle)
    got = _reports_for(state, battle)
    ruling = next((r for r in reversed(got) if r.reporter == GM and not r.abstract), None)
    if ruling:
        state.round.outcomes.append(outcome_from_report(battle, ruling, rr, "gm", decide))
        return ""
    asked = [r for r in got if r.abstract]
    played = [r for r in got if not r.abstract and r.reporter in state.empires]
    if asked and played and all(r.reporter != GM for r in asked):
        names = ", ".join(state.empires[r.reporter].name for r in asked if r.reporter in state.empires)
        return (f"{names} asked for abstract resolution, but "
                f"{', '.join(state.empires[r.reporter].name for r in played)} reported the battle as played")
    if asked:
        who = ", ".join(state.empires[r.reporter].name for r in asked if r.reporter in state.empires) or "the GM"
        battles.roll_abstract(state, battle, _setup(state, battle), rules, dice, f"abstract resolution asked by {who}")
        return ""
    players = [r for r in got if r.reporter != GM]
    if len({r.facts() for r in players}) > 1:
        return "the reports differ"
    sides = {battle.side_of(r.reporter) for r in players}
    if players and (sides >= set(SIDES) or (final and rules["results.single_report_accept"])):
        how = "reported" if sides >= set(SIDES) else "single report"
        state.round.outcomes.append(outcome_from_report(battle, players[0], rr, how, decide))
        return ""
    if not final:
        return ""
    if players:
        return "only one side reported (results.single_report_accept = false)"
    if rules["battle.unreported_result"] == "abstract":
        battles.roll_abstract(state, battle, _setup(state, battle), rules, dice,
                              "no result by the deadline, so abstract resolution")
        return ""
    unreported(state, battle, rules, dice, decide)
    return ""


def unreported(state: ConquestState, battle: Battle, rules: RuleBook, dice: Dice, decide: Decide) -> None:
    """`battle.unreported_result = "gm"`: nobody reported by the deadline, so the GM says how the
    battle ends: abstract resolution, or a result he names (COC-RES-21)."""
    names = {p: e.name for p, e in state.empires.items()}
    sides = " against ".join(" and ".join(names[p] for p in battle.members(s)) for s in SIDES)
    if battle.kind in (SIEGE, SEA):
        options = ["abstract", "draw", ATTACKER, DEFENDER]
    else:
        options = ["abstract", "draw", *(f"{s}_{c}" for s in SIDES for c in VICTORIES)]
    choice = decide("result", f"nobody reported the result of {battle.kind} battle {sides} by the deadline "
                    "(battle.unreported_result = gm). Settle it by abstract resolution, or name the result "
                    "(winner_category).", options)
    if choice == "abstract":
        battles.roll_abstract(state, battle, _setup(state, battle), rules, dice,
                              "no result by the deadline; the GM orders abstract resolution")
        return
    cats = {s: DRAW for s in SIDES}
    if choice != "draw":
        winner, _, category = choice.partition("_")
        cats = {winner: category or MINOR, other_side(winner): LOSE}
    state.round.outcomes.append(BattleOutcome(battle.id, cats[ATTACKER], cats[DEFENDER], how="gm",
                                              note=f"no result by the deadline; the GM rules: {choice}"))


def _setup(state: ConquestState, battle: Battle) -> BattleSetup:
    return state.round.setup(battle.id) or BattleSetup(battle.id, 0)


def settle(state: ConquestState, reports: Sequence[ResultReport], rules: RuleBook, dice: Dice,
           final: bool, decisions: Mapping[str, str] | None = None) -> list[str]:
    """Fold the window's reports in and settle what can be settled; returns the open battles' reasons."""
    kept = [r for r in state.round.reports if r.reporter == GM]
    state.round.reports = kept + [r for r in reports if r.reporter != GM]
    state.round.disputed = []
    waiting = []
    for battle in state.round.battles:
        if state.round.outcome(battle.id):
            continue
        why = _decide(state, battle, rules, dice, final, decisions or {})
        if why:
            state.round.disputed.append(battle.id)
            waiting.append(f"{battle.id}: {why}")
    return waiting


def open_battles(state: ConquestState) -> list[Battle]:
    """Battles with no settled result yet (COC-GEN-3)."""
    return [b for b in state.round.battles if not state.round.outcome(b.id)]


def awaiting_reports(state: ConquestState) -> list[Battle]:
    """Open battles whose players are still asked for a report: the GM's ruling settles a battle
    (COC-RES-20), so once he has ruled, the window waits for nobody's report on it."""
    ruled = {r.battle for r in state.round.reports if r.reporter == GM}
    return [b for b in open_battles(state) if b.id not in ruled]


def gm_alerts(state: ConquestState) -> list[str]:
    """What the GM must rule on before the round can go on."""
    out = []
    for ident in state.round.disputed:
        lines = [battle_orders.format_result(r, state.round.battle(ident))   # type: ignore[arg-type]  # a disputed id names a battle of the round
                 + f" (from {state.empires[r.reporter].name})"
                 for r in state.round.reports if r.battle == ident and r.reporter in state.empires]
        shown = "; ".join(lines) or "no report"
        out.append(f"{ident} needs your ruling ({shown}): send `RESULT {ident} ...` as in the briefing, "
                   f"or `ABSTRACT {ident}`.")
    return out


def gm_result(state: ConquestState, words: Sequence[str]) -> str:
    """The GM's ruling for a battle (`RESULT B1 ...` or `ABSTRACT B1`), final (COC-RES-20, COC-TRN-6)."""
    line = " ".join(words)
    try:
        report = battle_orders.parse_result_line(state, "", line)
    except OrderProblem as problem:
        raise ValueError(problem.reason) from problem
    report.reporter = GM
    battle = state.round.battle(report.battle)
    assert battle is not None
    state.round.outcomes = [o for o in state.round.outcomes if o.battle != report.battle]
    state.round.reports = [r for r in state.round.reports if not (r.reporter == GM and r.battle == report.battle)]
    state.round.reports.append(report)
    state.round.disputed = [d for d in state.round.disputed if d != report.battle]
    return f"{report.battle}: ruling recorded: {battle_orders.format_result(report, battle)}"


def describe(state: ConquestState, rules: RuleBook) -> Callable[[ResultReport, Battle], str]:
    """For acknowledgements: what a reported land result means in categories."""
    rr = ResultRules.from_book(rules)

    def meaning(report: ResultReport, battle: Battle) -> str:
        if report.abstract or battle.kind in (SIEGE, SEA):
            return ""
        try:
            outcome = outcome_from_report(battle, report, rr, "reported")
        except GMDecisionNeeded:
            return "the game master rules on the category (a rule option leaves it to him)"
        return "; ".join(f"{side} {LABELS[outcome.category(side)].lower()}" for side in SIDES)
    return meaning


# -- step C: EP, beaten opponents, Naval Advantage, sieges -------------------------------

def awards_ep(battle: Battle, rules: RuleBook) -> bool:
    """Land and team battles earn EP; siege assaults and sea battles only if configured (COC-RES-22)."""
    if battle.kind == SIEGE:
        return bool(rules["siege.assault_awards_ep"])
    if battle.kind == SEA:
        return bool(rules["naval.sea_battles_award_ep"])
    return True


def category_ep(category: str, rr: ResultRules) -> int:
    return rr.no_withdrawal_higher_vp_ep if category == HIGHER_VP else rr.ep[category]


def won(category: str, rr: ResultRules) -> bool:
    return category in VICTORIES or (category == HIGHER_VP and rr.no_withdrawal_higher_vp_is_win)


def award_ep(state: ConquestState, rules: RuleBook) -> list[EPAward]:
    """Every active player's EP for the round (COC-RES-12, -15, -16, -18, COC-EVT-13, -14)."""
    rr = ResultRules.from_book(rules)
    per_player: dict[str, list[BattleEP]] = {p: [] for p in state.active()}
    for battle in state.round.battles:
        outcome = state.round.outcome(battle.id)
        if outcome is None or not awards_ep(battle, rules):
            continue
        for side in SIDES:
            category = outcome.category(side)
            for player in battle.members(side):
                ep = member_ep(category_ep(category, rr), battle.team_side(side), rr)
                per_player.setdefault(player, []).append(BattleEP(battle.id, category, ep))
    awards = []
    for player, fought in per_player.items():
        empire = state.empires[player]
        if empire.eliminated:
            continue
        worked = round_ep([b.ep for b in fought], [b.category for b in fought], empire.carried_ep,
                          state.round.holds(player, "all_or_nothing"), rr)
        awards.append(EPAward(player, fought, worked.average, worked.all_or_nothing, worked.earned,
                              worked.carried, worked.available))
    return awards


def beaten(state: ConquestState, rules: RuleBook) -> list[Win]:
    """Who won a land battle against whom this round (COC-RES-17, COC-RES-22, COC-ABR-10)."""
    rr = ResultRules.from_book(rules)
    wins: dict[tuple[str, str], int] = {}
    for battle in state.round.battles:
        outcome = state.round.outcome(battle.id)
        if outcome is None or battle.kind not in (LAND, TEAM):
            continue
        for side in SIDES:
            if won(outcome.category(side), rr):
                for winner in battle.members(side):
                    for loser in battle.members("defender" if side == ATTACKER else ATTACKER):
                        wins[(winner, loser)] = wins.get((winner, loser), 0) + 1
    return [Win(w, l, n) for (w, l), n in wins.items()]


def step_c(state: ConquestState, reports: Sequence[ResultReport], rules: RuleBook, dice: Dice,
           final: bool = True, victory: Callable[[ConquestState, str], bool] | None = None,
           decisions: Mapping[str, str] | None = None) -> tuple[ConquestState, list[str]]:
    """Settle the results; once all are in, award EP and apply sieges and Naval Advantage.

    `victory(state, player)` is asked after each successful assault; by default
    the size check of `empire.size_victory` declares the winner (COC-WIN-5)."""
    victory = victory or (lambda s, p: siege_victory(s, p, rules))
    before = {o.battle for o in state.round.outcomes}
    waiting = settle(state, reports, rules, dice, final, decisions)
    events = [f"{o.battle}: {o.note}" for o in state.round.outcomes if o.how == "abstract" and o.battle not in before]
    if open_battles(state):
        return state, events + [f"{w.replace(': ', ' waits for the game master: ', 1)}" for w in waiting]
    state.round.ep = award_ep(state, rules)
    state.round.wins = beaten(state, rules)
    events += naval.update(state)
    for battle in state.round.battles:
        outcome = state.round.outcome(battle.id)
        if battle.kind == SIEGE and outcome is not None:
            events.append(siege.apply_assault(state, battle, outcome))
            if outcome.winner == ATTACKER and victory(state, battle.attackers[0]):
                break
    return state, events


def siege_victory(state: ConquestState, player: str, rules: RuleBook) -> bool:
    """COC-WIN-5: a successful assault is a gain that may reach the victory size."""
    if empire.size_victory(state, player, empire.GAIN_SIEGE, rules):
        empire.declare_winner(state, player, f"{state.empires[player].name} reaches the victory size by a siege")
        return True
    return False


# -- the round report's battle section ---------------------------------------------------

HOW = {"reported": "reported by both sides", "single report": "one side's report, accepted at the deadline",
       "gm": "ruled by the GM"}


def report_context(state: ConquestState, rules: RuleBook) -> dict[str, object]:
    """Rows for `_battle_results.md.j2`: each battle's result, every player's EP, who beat whom (COC-RES-23)."""
    names = {p: e.name for p, e in state.empires.items()}
    rows = []
    for battle in state.round.battles:
        outcome = state.round.outcome(battle.id)
        sides = [{"role": side, "names": [names[p] for p in battle.members(side)],
                  "result": LABELS[outcome.category(side)] if outcome else "open"} for side in SIDES]
        how, note = (HOW.get(outcome.how, outcome.how), outcome.note) if outcome else ("waiting", "")
        if outcome and outcome.how == "abstract":
            how, note = outcome.note, ""          # the note already says how it was settled
        rows.append({"id": battle.id, "kind": battle.kind, "sides": sides, "how": how, "note": note,
                     "ep": awards_ep(battle, rules)})
    awards = []
    for award in state.round.ep:
        awards.append({"name": names[award.player],
                       "battles": [f"{b.battle} {LABELS[b.category].lower()} {b.ep}" for b in award.battles],
                       "average": award.average, "all_or_nothing": award.all_or_nothing, "earned": award.earned,
                       "carried": award.carried, "available": award.available,
                       "beaten": [names[p] for p in state.round.beaten_by(award.player)]})
    return {"battle_rows": rows, "ep_rows": awards}
