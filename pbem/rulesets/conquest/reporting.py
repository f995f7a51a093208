"""What the reports and acknowledgements of Campaigns of Conquest show (COC-TRN-3, COC-TRN-7).

One public template (`round_report`) renders whichever sections a step
produced: the capitals, the order of play, events and dice, revenue, the
battle list, results and EP, spending, the empire table. One private template
(`private_report`) gives each player his treasury, EP, holdings and what he may
claim, conquer or plunder in window 4.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pbem.kit.dice import SeededDice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.kit.tomlio import from_data
from pbem.rulesets.base import Parsed, Report
from pbem.rulesets.conquest import battle_orders, empire, results
from pbem.rulesets.conquest import parse as cparse
from pbem.rulesets.conquest.challenges import ChallengeEntry
from pbem.rulesets.conquest.events import EventEntry
from pbem.rulesets.conquest.model import (
    FORTIFIED,
    LAND,
    SEA,
    SIEGE,
    TEAM,
    Battle,
    ConquestState,
    ConquestView,
    SetupOrder,
)
from pbem.rulesets.conquest.rules import event_names
from pbem.rulesets.conquest.spending import Action, Phase, may_plunder, run_spending

KIND_LABELS = {LAND: "land battle", TEAM: "team land battle", SIEGE: "siege assault", SEA: "sea battle"}


# -- who owes what -----------------------------------------------------------------------
def results_sides(state: ConquestState) -> list[tuple[str, ...]]:
    """Window 3: the sides of every open battle; any member's report answers for his side (COC-TRN step
    "one member of a team is enough"), and the window closes early once every side has one (COC-TRN-4)."""
    return [tuple(members) for battle in results.awaiting_reports(state)
            for members in (battle.attackers, battle.defenders) if members]


def results_owing(state: ConquestState) -> list[str]:
    """Window 3: everyone who may report, in battle order: every member of every open battle's sides."""
    return list(dict.fromkeys(p for side in results_sides(state) for p in side))


# -- acknowledgements --------------------------------------------------------------------
def canonical(state: ConquestState, gmap: HexMap, rules: RuleBook, player: str,
              payload: Mapping[str, Any]) -> list[str]:
    """The orders on file, one canonical line each, in the order the processor uses them."""
    reader = cparse.Reader(state, gmap, rules, player)
    lines: list[str] = []
    wish = payload.get("capital", {})
    if wish.get("cities"):
        lines.append("CAPITAL " + ", ".join(wish["cities"]))
    if wish.get("new_city"):
        lines.append("NEWCITY " + ", ".join(wish["new_city"]))
    lines += [cparse.format_event(reader, from_data(EventEntry, e)) for e in payload.get("events", [])]
    lines += [cparse.format_challenge(reader, from_data(ChallengeEntry, e))
              for e in payload.get("challenges", [])]
    lines += [cparse.format_challenge(reader, from_data(ChallengeEntry, e), sea=True)
              for e in payload.get("sea", [])]
    if payload.get("standing"):
        lines.append(f"STANDING {payload['standing']}")
    lines += [f"ASSAULT {t}" for t in payload.get("assaults", [])]
    if "assault_consent" in payload:
        lines.append("CONSENT " + (", ".join(payload["assault_consent"]) or "nobody"))
    lines += [battle_orders.format_setup(from_data(SetupOrder, s)) for s in payload.get("setup", {}).values()]
    for report in battle_orders.result_reports(payload):
        battle = state.round.battle(report.battle)
        if battle:
            lines.append(battle_orders.format_result(report, battle))
    lines += [cparse.format_action([from_data(Action, a) for a in entry["options"]])
              for entry in payload.get("actions", [])]
    if "consent" in payload:
        lines.append("CONSENT " + (", ".join(payload["consent"]) or "nobody"))
    return lines


def preview(state: ConquestState, gmap: HexMap, rules: RuleBook, player: str, parsed: Parsed) -> list[tuple[int, str]]:
    """COC-TRN-3: what each window-4 action would do if carried out right now (others' moves unknown)."""
    actions = cparse.action_lists({player: parsed.payload}).get(player, [])
    if not actions:
        return parsed.accepted
    trial = copy.deepcopy(state)
    trial.round.order = [player]
    records = run_spending(trial, gmap, rules, {player: actions}, SeededDice(0))[0].actions
    notes: list[str] = []
    i = 0
    for options in actions:
        tried = records[i:i + len(options)]
        done = next((r for r in tried if r.done), None)
        notes.append(f"now: {done.text} for {done.cost} EP" if done else
                     f"not possible now: {tried[-1].reason}" if tried else "not reached")
        i += len(tried)
    out, n = [], 0
    for no, text in parsed.accepted:
        if text.startswith("CONSENT") or n >= len(notes):
            out.append((no, text))
            continue
        out.append((no, f"{text}  ({notes[n]})"))
        n += 1
    return out


# -- report contexts ---------------------------------------------------------------------
@dataclass(frozen=True)
class EmpireRow:
    player: str
    name: str
    size: float
    tiles: int
    cities: int
    castles: int
    treasury: int
    carried_ep: int
    out: bool


def names(state: ConquestState, players: list[str]) -> str:
    return " and ".join(state.empires[p].name for p in players)


def battle_line(state: ConquestState, battle: Battle) -> dict[str, Any]:
    return {"id": battle.id, "kind": KIND_LABELS[battle.kind], "attackers": names(state, battle.attackers),
            "defenders": names(state, battle.defenders), "tile": battle.tile}


def empire_table(state: ConquestState, rules: RuleBook) -> list[EmpireRow]:
    rows = []
    for pid, emp in state.empires.items():
        h = empire.holdings(state, pid, rules)
        rows.append(EmpireRow(pid, emp.name, h.size, h.tiles, h.cities, h.castles, emp.treasury, emp.carried_ep,
                              emp.eliminated))
    return sorted(rows, key=lambda r: (r.out, -r.size, r.name))


def context(state: ConquestState, gmap: HexMap, rules: RuleBook, section: str) -> dict[str, Any]:
    rnd = state.round
    name = {p: e.name for p, e in state.empires.items()}
    evnames = event_names(rules)
    return {
        "section": section, "round": rnd.number, "label": gmap.label, "name": name,
        "order": [name[p] for p in rnd.order], "largest": name.get(rnd.largest, ""),
        "sizes": [{"name": name[e.player], "size": e.size, "tiles": e.tiles, "cities": e.cities,
                   "castles": e.castles, "tiebreak": e.tiebreak, "rank": e.rank,
                   "largest": e.player == rnd.largest} for e in rnd.sizes],
        "capitals": [(emp.name, gmap.label(emp.capital) if emp.capital else "none yet",
                      state.capital_rolls.get(p, [])) for p, emp in state.empires.items()],
        "events": [{"name": name[e.player], "event": evnames.get(e.event, e.event),
                    "target": name.get(e.target, ""), "placement": e.placement, "note": e.note} for e in rnd.events],
        "disaster": [{"name": name[d.player], "tile": gmap.label(d.tile), "building": d.building, "die": d.die,
                      "destroyed": d.destroyed} for d in rnd.disaster],
        "revenue": [{"name": name[r.player], "tile": gmap.label(r.tile), "rate": r.terrain_rate, "faces": r.faces,
                     "gold": r.gold, "exhausted": r.exhausted, "skipped": r.skipped} for r in rnd.revenue],
        "challenges": [{"challenger": name[c.challenger], "target": name[c.target], "sea": c.sea, "note": c.note}
                       for c in rnd.challenges],
        "missed": [name[p] for p in rnd.missed_challenges],
        "missed_sea": [name[p] for p in rnd.missed_sea_challenges],
        "battles": [battle_line(state, b) for b in rnd.battles],
        "setups": [{"battle": s.battle, "points": s.points, "note": s.note, "abstract": s.abstract,
                    "armies": [{"name": name[a.player], "share": a.share, "largest": a.largest_bonus, "gold": a.gold,
                                "gold_bonus": a.gold_bonus, "total": a.total} for a in s.armies]}
                   for s in rnd.setups],
        "spending": [{"name": name[s.player], "available": s.available, "spent": s.spent, "carried": s.carried,
                      "lost": s.lost, "actions": s.actions} for s in rnd.spending],
        "empires": empire_table(state, rules),
        "holdings": {name[p]: [_tile_text(state, gmap, t) for t in gmap.sorted(state.tiles_of(p))]
                     for p in state.empires},
        "sieges": [{"tile": gmap.label(s.tile), "besieger": name[s.besieger], "defender": name[s.defender]}
                   for s in state.sieges],
        "naval": [(name[n.holder], name[n.subject]) for n in state.naval],
        "log": rnd.log, "winner": name.get(state.winner, ""), "win_reason": state.win_reason,
        **results.report_context(state, rules),
    }


def _tile_text(state: ConquestState, gmap: HexMap, tile: str) -> str:
    t = state.tiles[tile]
    extra = [t.building] if t.building else []
    if gmap.tiles[tile].objective:
        extra.append(gmap.tiles[tile].objective.replace("_", " "))
    if state.siege_at(tile):
        extra.append(f"besieged, fortification held by {state.empires[state.siege_at(tile).defender].name}")  # type: ignore[union-attr]  # a besieged tile has its siege
    return gmap.label(tile) + (f" ({', '.join(extra)})" if extra else "")


def public(view: ConquestView, section: str, subject: str) -> Report:
    """A public report; its notes are the round's log lines no earlier report showed."""
    state = view.state
    ctx: dict[str, Any] = {"cq": context(state, view.map, view.rules, section),
                           "dice_names": {p: e.name for p, e in state.empires.items()}}   # the dice name empires
    ctx["cq"]["log"] = state.round.log[state.round.log_shown:]
    state.round.log_shown = len(state.round.log)
    if not subject.startswith("Round "):
        subject = f"{when(state)}: {subject}"
    return Report("round_report", subject, ("*",), ctx, public=True, key=section)


def when(state: ConquestState) -> str:
    """What a subject line starts with, so a player's mail client lists the reports in order."""
    return f"Round {state.round.number}" if state.round.number else "Setup"


def privates(view: ConquestView, section: str) -> list[Report]:
    out = []
    state = view.state
    for pid in state.active():
        ctx = {"me": private_context(state, view.map, view.rules, pid), "section": section}
        out.append(Report("private_report", f"{when(state)}: your empire ({state.empires[pid].name})",
                          (pid,), ctx, key=f"{section}-{pid}"))
    return out


def private_context(state: ConquestState, gmap: HexMap, rules: RuleBook, player: str) -> dict[str, Any]:
    """Treasury, EP, holdings, battles and what window 4 allows (COC-TRN-7, COC-RES-23)."""
    emp = state.empires[player]
    award = state.round.award(player)
    phase = Phase(state, gmap, rules, SeededDice(0))
    beaten = sorted(set(state.round.beaten_by(player)))
    claim, conquer, plunder = [], [], []
    for tile in gmap.sorted(state.tiles):
        t = state.tiles[tile]
        if not t.owner and phase.reachable(player, tile):
            claim.append(f"{gmap.label(tile)}: {phase.claim_cost(player, tile)} EP")
            continue
        if t.owner in beaten and phase.reachable(player, tile):
            fort = int(rules["spending.extra.fortified_conquer"]) if t.building in FORTIFIED else 0
            cost = phase.conquer_cost(player, tile, t.owner, int(rules["spending.costs.conquer"]), fort)
            conquer.append(f"{gmap.label(tile)} of {state.empires[t.owner].name}: {cost} EP")
        if (may_plunder(state, rules, player, t.owner) and t.building not in rules["plunder.blocked_by"]
                and not state.siege_at(tile)):
            plunder.append(f"{gmap.label(tile)} of {state.empires[t.owner].name}")
    return {
        "name": emp.name, "treasury": emp.treasury, "carried_ep": emp.carried_ep, "out": emp.eliminated,
        "round": state.round.number, "window": state.round.window,
        "holdings": [_tile_text(state, gmap, t) for t in gmap.sorted(state.tiles_of(player))],
        "battles": [battle_line(state, b) for b in state.round.battles if player in b.players],
        "award": award, "beaten": [state.empires[p].name for p in beaten],
        "claim": claim, "conquer": conquer, "plunder": plunder,
        "events": [e.event for e in state.round.events if e.player == player],
    }


def history_line(state: ConquestState, rules: RuleBook) -> str:
    rows = empire_table(state, rules)
    return f"Round {state.round.number}: " + ", ".join(f"{r.name} {r.size:g}" for r in rows if not r.out)
