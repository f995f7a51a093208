"""The round as it runs: a window closes, its step runs, the round moves on (COC-TRN).

Window S closes into the capital picks; the capitals placed, step 0 opens round 1.
Then, each round: window 1 closes into step A, window 2 into step B, window 3 into
step C, window 4 into step D. After a step the round moves through `CYCLE` to the next
window; a window nobody needs (no battles, no battle-setup window, every battle already
settled) runs its step at once with the defaults (COC-TRN-4, COC-TRN-5). Passing window 4
ends the round: the round report, then step 0 of the next round (COC-TRN-7). A win, or
the last round of `victory.round_cap`, ends the campaign.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.kit.dice import Dice
from pbem.kit.scene import Resolved
from pbem.kit.sequential import Cycle
from pbem.rulesets.conquest import (
    battle_orders,
    battles,
    challenges,
    events,
    order,
    picture,
    reporting,
    results,
    revenue,
    setup,
    spending,
)
from pbem.rulesets.conquest import parse as cparse
from pbem.rulesets.conquest.empire import declare_winner, size_of
from pbem.rulesets.conquest.model import (
    W_CAMPAIGN,
    W_CONQUEST,
    W_OVER,
    W_RESULTS,
    W_SETUP,
    ConquestState,
    ConquestView,
    RoundState,
)
from pbem.rulesets.phases import Outcome, Submissions

CYCLE = Cycle((W_CAMPAIGN, W_SETUP, W_RESULTS, W_CONQUEST))

Resolve = Callable[[ConquestView, Submissions, Dice], Outcome[ConquestState]]
Step = Callable[[ConquestView, Submissions, Dice, Outcome[ConquestState]], bool]
"""A step run as its window closes: True once done, False when the window stays open for the GM."""


# -- window S -----------------------------------------------------------------------------
def capitals(view: ConquestView, subs: Submissions, dice: Dice) -> Outcome[ConquestState]:
    """Window S closes: the pick order, the capitals (COC-SET); then step 0 of round 1."""
    state, out = view.state, Outcome(view.state)
    wishes = {p: setup.CapitalWish(**s["capital"]) for p, s in subs.items() if "capital" in s}
    if not state.capital_order:
        state.capital_order = setup.pick_order(state, view.rules, dice)
    state.round.log += setup.assign_capitals(state, view.map, view.rules,
                                             [p for p in state.capital_order if not state.empires[p].capital],
                                             wishes, dice)
    if not setup.all_placed(state):
        out.gm_alerts.append("Some players have no legal capital: place one with `CAPITAL <player> <tile>`.")
        out.reports.append(reporting.public(view, "capitals", "Capital picks"))
        return out
    setup_log = state.round.log
    state.last = Resolved("Setup: capitals")
    open_round(view, 1, dice)
    state.round.log = setup_log + state.round.log          # the capitals report shows how they were picked
    out.reports.append(reporting.public(view, "capitals", "Capitals and the order of play"))
    out.turn_finished = True                 # setup (turn 0) is over: round 1 is a turn of its own
    return out


def open_round(view: ConquestView, number: int, dice: Dice) -> None:
    """Step 0 (COC-ORD-2): sizes, tie-breaks, ascending order; window 1 opens."""
    view.state.round = RoundState(number=number, window=W_CAMPAIGN)
    order.open_round(view.state, view.rules, dice, number)


# -- windows 1 to 4 -------------------------------------------------------------------------
def closing(window: str) -> Resolve:
    """How `window` of the cycle closes: its step, then the step of every window nobody needs."""

    def resolve(view: ConquestView, subs: Submissions, dice: Dice) -> Outcome[ConquestState]:
        out, title, number = Outcome(view.state), picture.stage_of(view.state), view.state.round.number
        run(view, subs, dice, out)
        if view.state.round.number == number:            # else `finish_round` kept the round's record
            view.state.last = picture.round_marks(view.state, view.map)
        view.state.last = view.state.last.titled(title)
        return out

    def run(view: ConquestView, subs: Submissions, dice: Dice, out: Outcome[ConquestState]) -> None:
        current, payloads = window, subs
        while STEPS[current](view, payloads, dice, out):
            if view.state.winner:
                view.state.round.window = W_OVER
                out.reports.append(reporting.public(view, "final", "The campaign is won"))
                out.turn_finished = True
                return
            following, new_round = CYCLE.after(current, lambda w: True)
            if new_round:
                finish_round(view, dice, out)
                return
            view.state.round.window = following
            if NEEDED.get(following, _always)(view):
                return
            current, payloads = following, {}
        # the loop ended: the window stays open, the GM must rule

    return resolve


def step_a(view: ConquestView, subs: Submissions, dice: Dice, out: Outcome[ConquestState]) -> bool:
    """Events, revenue, challenges and the battle list (COC-TRN step A)."""
    state, rules = view.state, view.rules
    state.round.standing_setups = {p: battle_orders.setup_orders(s) for p, s in subs.items() if s.get("setup")}
    events.run_events(state, view.map, rules, cparse.event_lists(subs), dice)
    if state.winner:
        return True
    revenue.collect(state, view.map, rules, dice)
    choices = {p: s["standing"] for p, s in subs.items() if "standing" in s}
    assaults = {p: s["assaults"] for p, s in subs.items() if "assaults" in s}
    sea = cparse.challenge_lists(subs, "sea") if challenges.naval_on(state, rules) else {}
    consent = {p: s["assault_consent"] for p, s in subs.items() if "assault_consent" in s}
    challenges.run_challenges(state, rules, cparse.challenge_lists(subs), sea, assaults, choices, dice, consent)
    out.reports.append(reporting.public(view, "campaign", "Events, revenue and the battle list"))
    out.reports += reporting.privates(view, "campaign")
    return True


def step_b(view: ConquestView, subs: Submissions, dice: Dice, out: Outcome[ConquestState]) -> bool:
    """Battle size, gold, shares, briefings; abstract resolution where asked (COC-TRN step B). Without
    window 2 the standing settings of window 1 are used (COC-TRN-5)."""
    state = view.state
    if view.rules["turn.battle_setup_window"]:
        setups = {p: battle_orders.setup_orders(s) for p, s in subs.items() if s}
    else:
        setups = dict(state.round.standing_setups)
    if not state.round.battles:
        return True
    _, briefings, lines = battles.step_b(state, setups, view.rules, dice, view.map, decisions=view.decisions)
    state.round.log += lines
    out.reports += briefings
    out.reports.append(reporting.public(view, "setup", "Battle setup"))
    return True


def step_c(view: ConquestView, subs: Submissions, dice: Dice, out: Outcome[ConquestState]) -> bool:
    """Results, EP, beaten opponents, sieges and Naval Advantage (COC-TRN step C); a disputed
    battle keeps window 3 open for the GM's ruling (COC-TRN-6)."""
    state = view.state
    new = [r for s in subs.values() for r in battle_orders.result_reports(s)]
    fresh = {(r.battle, r.reporter) for r in new}
    kept = [r for r in state.round.reports if r.reporter in state.empires and (r.battle, r.reporter) not in fresh]
    reports = kept + new      # reports from before a GM ruling still count
    _, lines = results.step_c(state, reports, view.rules, dice, final=True, decisions=view.decisions)
    state.round.log += lines
    if results.open_battles(state):
        out.gm_alerts += results.gm_alerts(state)
        if state.round.disputed:          # the players of a disputed battle hear why nothing happens yet
            out.reports.append(reporting.public(view, f"disputed-{'-'.join(state.round.disputed)}",
                                                "battle results wait for the game master"))
        return False
    out.reports.append(reporting.public(view, "results", "Battle results and Empire Points"))
    out.reports += reporting.privates(view, "results")
    return True


def step_d(view: ConquestView, subs: Submissions, dice: Dice, out: Outcome[ConquestState]) -> bool:
    """Spending in ascending order with the victory checks (COC-TRN step D)."""
    state = view.state
    state.round.siege_consent = {p: list(s["consent"]) for p, s in subs.items() if "consent" in s}
    spending.run_spending(state, view.map, view.rules, cparse.action_lists(subs), dice)
    return True


STEPS: dict[str, Step] = {W_CAMPAIGN: step_a, W_SETUP: step_b, W_RESULTS: step_c, W_CONQUEST: step_d}


def _always(view: ConquestView) -> bool:
    return True


NEEDED: dict[str, Callable[[ConquestView], bool]] = {
    W_SETUP: lambda view: bool(view.state.round.battles) and bool(view.rules["turn.battle_setup_window"]),
    W_RESULTS: lambda view: bool(results.open_battles(view.state)),
}
"""Windows players are not always needed in; the others always open."""


# -- the end of a round -----------------------------------------------------------------------
def finish_round(view: ConquestView, dice: Dice, out: Outcome[ConquestState]) -> None:
    """The round report, then step 0 of the next round (COC-TRN-7)."""
    state = view.state
    finished = state.round.number
    state.last = picture.round_marks(state, view.map)     # before the next round clears this one's record
    out.reports.append(reporting.public(view, "round", f"Round {finished} report"))
    out.reports += reporting.privates(view, "round")
    state.history.append(reporting.history_line(state, view.rules))
    if round_cap(view, finished, out):
        return
    open_round(view, finished + 1, dice)
    out.reports.append(reporting.public(view, "order", f"Round {finished + 1}: the order of play"))
    out.turn_finished = True


def round_cap(view: ConquestView, number: int, out: Outcome[ConquestState]) -> bool:
    """`victory.round_cap` (0: none): the campaign ends after that round; the largest empire
    wins, and a shared lead leaves nobody the winner. True when it ended."""
    cap, state = int(view.rules["victory.round_cap"]), view.state
    if not cap or number < cap:
        return False
    sizes = {p: size_of(state, p, view.rules) for p in state.active()}
    top = max(sizes.values(), default=0)
    leaders = [p for p, size in sizes.items() if size == top]
    if len(leaders) == 1:
        declare_winner(state, leaders[0], f"the largest empire (size {top:g}) after round {number}, "
                                          "the last one (victory.round_cap)")
    else:
        state.round.log.append(f"Round {number} was the last one (victory.round_cap): "
                               f"{', '.join(state.empires[p].name for p in leaders)} share the lead "
                               f"at size {top:g}; nobody wins")
    state.round.window = W_OVER
    out.reports.append(reporting.public(view, "final", "The campaign is over"))
    out.turn_finished = True
    return True
