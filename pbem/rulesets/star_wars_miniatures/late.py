"""Deadlines the rules fix beyond the schedule's windows (the engine keeps them: `Phase.deadline`):

- window S2 (SWM-PBM-12, `setup.missing_roster = "gm"`): a player with no legal starting squad at
  the S2 deadline gets his own deadline, `setup.roster_extension_hours` after it; the squads sent
  are placed, the GM is alerted and turn 1 waits. A roster still missing at that own deadline is
  put to the GM (`DECIDE roster_<player> extend` gives him as long again from the answer);
- window B (SWM-PBM-10, `battle.single_report = "accept"`): a battle only one side reported by the
  deadline waits `battle.gm_grace_hours` more. Every report is kept through the grace, the other
  side may still report, and the GM may rule (`RESULT`); at the grace's end the single report applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta

from pbem.rulesets.phases import View, ask
from pbem.rulesets.star_wars_miniatures.model import SWMState
from pbem.rulesets.star_wars_miniatures.regions import RegionMap

SWMView = View[SWMState, RegionMap]
EXTEND = "extend"


def shown(view: SWMView, moment: datetime) -> str:
    return view.settings.schedule.show(moment)


# -- window S2 ---------------------------------------------------------------------------------
def extend_rosters(view: SWMView, waiting: Sequence[str]) -> list[str]:
    """Give each player still without a squad his own deadline; the GM's alerts. A player whose own
    deadline has passed is put to the GM (raises GMDecisionNeeded until DECIDE); one whose own
    deadline still runs (the window resolved early) keeps it."""
    state, hours = view.state, int(view.rules["setup.roster_extension_hours"])
    alerts = []
    for player in waiting:
        start = view.deadline or view.now
        if player in state.late_rosters and view.now < own_deadline(view, player):
            continue                    # resolved early (the GM's RESOLVE): his own deadline still runs
        if player in state.late_rosters:
            ask(view.decisions, f"roster_{player}", f"{player} has sent no legal starting squad by his own deadline "
                f"({shown(view, own_deadline(view, player))}); turn 1 waits for it "
                f"(SWM-PBM-12). Answer extend to give him {hours} hours more from now, or first hand his seat to "
                "someone else with `pbem replace`", [EXTEND])
            start = view.now
        until = start + timedelta(hours=hours)
        state.late_rosters[player] = until.isoformat()
        state.log.append(f"{player} has sent no legal starting squad: his own deadline is {shown(view, until)} "
                         f"(setup.roster_extension_hours = {hours}); turn 1 waits for it (SWM-PBM-12).")
        alerts.append(f"{player} has sent no legal starting squad by the S2 deadline. His own deadline is now "
                      f"{shown(view, until)} (setup.roster_extension_hours = {hours}) and turn 1 waits for it "
                      "(SWM-PBM-12); if none comes by then you are asked. `pbem extend` moves it.")
    return alerts


def own_deadline(view: SWMView, player: str) -> datetime:
    """A late player's own deadline as the engine keeps it (`pbem extend` may have moved it since)."""
    return view.deadline or datetime.fromisoformat(view.state.late_rosters[player])


def roster_deadline(view: SWMView) -> datetime | None:
    """The earliest own deadline of a player still owing his starting squad."""
    owed = [until for p, until in view.state.late_rosters.items() if not view.state.squads_of(p)]
    return min((datetime.fromisoformat(u) for u in owed), default=None)


def roster_note(view: SWMView, player: str) -> str:
    if player in view.state.late_rosters:
        return f"by your own deadline, {shown(view, own_deadline(view, player))}; then the GM decides"
    hours = view.rules["setup.roster_extension_hours"]
    return f"if none comes by the deadline the GM is alerted and you alone get {hours} hours more"


# -- window B ----------------------------------------------------------------------------------
def reporters(lines: Mapping[str, Sequence[str]], battle: str) -> list[str]:
    return [p for p, kept in lines.items() if any(ln.startswith(f"WINNER {battle} ") for ln in kept)]


def singles(view: SWMView, lines: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """(battle, the side that reported) for each open battle only one side reported and the GM has not ruled."""
    out = []
    for battle in view.state.battles:
        sent = reporters(lines, battle.id)
        sides = {"attacker" if p in battle.side else "defender" for p in sent}
        if len(sides) == 1 and battle.id not in view.state.gm_results:
            out.append((battle.id, sides.pop()))
    return out


def hold_battles(view: SWMView, lines: Mapping[str, Sequence[str]]) -> list[str] | None:
    """At the window's deadline: start the GM's grace when a battle has a single report (the GM's
    alerts; the reports kept), or None when the window resolves now."""
    state, hours = view.state, int(view.rules["battle.gm_grace_hours"])
    waiting = singles(view, lines)
    if state.battle_grace or not hours or not waiting or view.rules["battle.single_report"] != "accept":
        return None
    until = (view.deadline or view.now) + timedelta(hours=hours)
    state.battle_grace, state.battle_reports = until.isoformat(), {p: list(v) for p, v in lines.items()}
    alerts = []
    for battle, side in waiting:
        other = "defender" if side == "attacker" else "attacker"
        state.log.append(f"Battle {battle}: only the {side} reported by the deadline. That report applies at "
                         f"{shown(view, until)} unless the GM rules first (battle.gm_grace_hours = {hours}); "
                         f"the {other} may still send its report until then (SWM-PBM-10).")
        alerts.append(f"Battle {battle}: only the {side} reported by the deadline. Its report applies at "
                      f"{shown(view, until)} unless you rule first with `RESULT {battle} attacker|defender|none` "
                      f"(battle.gm_grace_hours = {hours}, SWM-PBM-10).")
    return alerts


def grace_deadline(view: SWMView) -> datetime | None:
    return datetime.fromisoformat(view.state.battle_grace) if view.state.battle_grace else None


def reported(view: SWMView) -> set[str]:
    """The players whose report of an open battle is kept from before the grace."""
    return {p for b in view.state.battles for p in reporters(view.state.battle_reports, b.id)}


def all_ruled(view: SWMView) -> bool:
    """In the grace: every battle with a single report has the GM's ruling, so nothing is left to wait for."""
    return bool(view.state.battle_grace) and not singles(view, view.state.battle_reports)


def gm_pending(view: SWMView) -> list[str]:
    """What `pbem status` lists for the GM, each ending with the command that settles it: single reports
    waiting out his grace (ruling as reported), rosters owed by their own deadlines."""
    state = view.state
    grace = shown(view, view.deadline or datetime.fromisoformat(state.battle_grace)) if state.battle_grace else ""
    out = [f"battle {b} has only the {side}'s report (the {winner(state.battle_reports, b)} wins), applied at "
           f"{grace} unless you rule otherwise; to confirm it now: RESULT {b} {winner(state.battle_reports, b)}"
           for b, side in singles(view, state.battle_reports)] if grace else []
    return out + [f"{p} owes his starting squad by his own deadline, {shown(view, own_deadline(view, p))}; "
                  "to give him longer: EXTEND 1d" for p in state.late_rosters if not state.squads_of(p)]


def winner(lines: Mapping[str, Sequence[str]], battle: str) -> str:
    return next((ln.split()[2] for kept in lines.values() for ln in kept if ln.startswith(f"WINNER {battle} ")), "")
