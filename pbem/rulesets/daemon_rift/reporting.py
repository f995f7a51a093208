"""Daemon Rift text in and out: list registrations, canonical lines, report contexts.

List registration (window 0, and with the orders for a new token, DR-LST-8) is
read by `rosters`:

    LIST R-1 Grimgor's Ironjaws
    ARTILLERY R-1 no
    FAST R-1 no
    DECLARE R-1 Grimgor Ironhide; Armour of Gork
    U1 infantry 20 Orc Boyz @6
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.kit.dice import Dice
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed, Player, Report
from pbem.rulesets.daemon_rift import battle_window, movement, rosters, scoring, sheets
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift.model import FactionOrders, TurnFacts

if TYPE_CHECKING:
    from pbem.rulesets.daemon_rift.endturn import EndOfTurn
    from pbem.rulesets.daemon_rift.game_state import DRView


def split_list_lines(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    return rosters.split_list_lines(lines)


# -- lists -------------------------------------------------------------------------

def parse_list_lines(view: DRView, faction: str, lines: list[tuple[int, str]]) -> Parsed:
    regs, accepted, problems = rosters.parse_lists(view.state.dr, view.rules, faction, lines)
    parsed = Parsed(payload={"lists": rosters.payload(regs)} if regs else {}, accepted=accepted,
                    problems=sorted(problems, key=lambda p: p.line_no))
    return parsed


def turn_one_report(view: DRView) -> Report:
    """To everyone when the lists window gives way to turn 1: its orders are open, with their deadline."""
    return Report("turn_open", f"Turn {view.state.dr.turn}: orders are open", ("*",), {}, public=True, key="opening")


# -- payloads ------------------------------------------------------------------------

def merge_payloads(previous: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """A new mail replaces the earlier one's orders as a whole; battle results, sheets, list
    registrations and retreat answers replace per battle, list or token (DR-ORD-2)."""
    merged = copy.deepcopy(dict(previous))
    for key, value in new.items():
        merged[key] = {**merged.get(key, {}), **value} if isinstance(value, dict) and key != "orders" else value
    return merged


# -- canonical lines -----------------------------------------------------------------

def canonical_lines(payload: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    if "orders" in payload:
        lines += dr_parse.format_faction_orders(from_data(FactionOrders, payload["orders"]))
    lines += rosters.canonical(payload.get("lists", {}))
    for number, result in sorted(payload.get("results", {}).items()):
        lines.append(battle_window.format_result(int(number), result))
    lines += [f"ROLLOFF {n}" for n in sorted(payload.get("rolloff", {}))]
    for number in sorted(payload.get("sheets", {}), key=int):
        lines += from_data(sheets.Sheet, payload["sheets"][number]).format()
    lines += [f"{t} {'DISBAND' if c == 'disband' else 'R ' + c}"
              for t, c in sorted(payload.get("retreats", {}).items())]
    return lines


# -- replies -------------------------------------------------------------------------

def help_text(view: DRView, player: Player) -> str:
    """HELP: the syntax, its examples written with the player's own faction prefix (`G-1 H` for Green)
    and a rival's name for the roll-off."""
    text = _help_text(view, player)
    rival = next((f.name for f in view.state.dr.factions.values() if f.id != player.faction), "Blue")
    text = re.sub(r"ROLLOFF Blue +", f"ROLLOFF {rival}".ljust(26) + " ", text).replace("with Blue)", f"with {rival})")
    return _OWN_TOKEN.sub(f"{player.faction}-", text)


_OWN_TOKEN = re.compile(r"\bR-(?=[0-9D])")


def _help_text(view: DRView, player: Player) -> str:
    tokens = ", ".join(t.id for t in view.state.dr.tokens_of(player.faction)) or "none"
    models = "" if view.rules["lists.share_models"] else " Your lists may not use the same physical models."
    return f"""Your tokens: {tokens}. One order per line:

    R-1 H                      hold
    R-1 M T5                   move (a path for road or fast moves: R-1 M T1-T2-T3)
    R-2 S R-1 T5-T6            support R-1's move from T5 into T6
    R-2 S R-1                  support R-1 holding
    R-1 M T6 CHAMPION R-2      who fights for the side in a tie at strength 2+
    RETREAT R-1 T4 T2          ranked retreat choices, used only if R-1 must retreat
    ROLLOFF Blue               standing roll-off request (after 3 battles with Blue)
    PLACE T2 T4                where new tokens go, best first
    REMOVE R-3 R-2             which tokens go first if you must lose some

    REPAIR R-1 3 model U1 @6; 1 wound M1; item C1 @15 Charm
                               repairs if R-1 holds unattacked (75 points, items at 3x)
    CHOOSE R-1 U3 I            change an experience stat taken by default

A new or raised list: `LIST R-2 <name>`, `ARTILLERY R-2 yes|no`, `FAST R-2 yes|no`, then one
line per entry, e.g. `U1 infantry 20 Orc Boyz @6`, `C1 character Warboss @95 W3 general |
Armour of Gork 35` (kinds: infantry, cavalry, twowound, monster, machine, character), or the
list as a .toml attachment.{models}

Territories may be named by id or name. In the battle window: `RESULT 1 Red massacred` or
`RESULT 1 draw`, then your army's sheet: `SHEET 1`, one line per entry (`U1 lost 11`,
`U2 fled lost 1`, `M1 left 1`, `C1 killed`, `C2 wounds 0 [WS, I]`) and `PRIORITY U2 C2`; in the
retreat window: `R-1 R T4` or `R-1 DISBAND`. `CLEAR` withdraws your
orders, `STATUS` shows them, `PASSWORD <new secret>` changes your secret. A new mail replaces
your earlier orders as a whole."""


def status(view: DRView, player: Player) -> dict[str, Any]:
    faction, state = player.faction, view.state.dr
    return {"tokens": state.tokens_of(faction), "control": sorted(state.controlled_by(faction)),
            "gmap": view.map, "state": state, "territories": territory_rows(view)}


def territory_rows(view: DRView) -> list[dict[str, str]]:
    """Every territory with its terrain, controller (by name) and token: the table STATUS shows."""
    state, gmap = view.state.dr, view.map
    rows = []
    for t in gmap.sorted(gmap.territories):
        token = state.token_at(t)
        owner = state.factions[state.control[t]].name if t in state.control else "-"
        rows.append({"territory": gmap.label(t), "terrain": gmap.terrain(t), "controller": owner,
                     "token": token.id if token else ""})
    return rows


# -- reports ------------------------------------------------------------------------

def _base(view: DRView) -> dict[str, Any]:
    state = view.state.dr
    return {"state": state, "gmap": view.map, "rules": view.rules, "factions": state.factions,
            "faction_order": state.ordered_factions()}


def _moved(view: DRView) -> dict[str, Any]:
    """The movement as the reports show it; a copy, so a later change to the state leaves a report alone."""
    return {"movement": from_data(movement.Movement, to_data(view.state.movement)),
            "nmr_factions": list(view.state.nmr)}


def movement_reports(view: DRView, dice: Dice) -> list[Report]:
    context = _base(view) | _moved(view)
    reports = [Report("movement_report", f"Turn {view.state.dr.turn}: movement", ("*",), context, public=True,
                      key="movement")]
    reports += [briefing(view, context, b) for b in context["movement"].battles if b.kind == movement.TABLETOP]
    return reports


def briefing(view: DRView, context: dict[str, Any], battle: movement.Battle) -> Report:
    """The battle briefing to both sides and the GM (DR-TRN-4)."""
    state = view.state.dr
    players = tuple(view.player_of(s.faction) for s in battle.sides) + ("gm",)
    lists = {s.faction: state.lists.get(s.champion) for s in battle.sides}
    rows = {f: rosters.roster_rows(lst.roster) if lst else [] for f, lst in lists.items()}
    return Report("briefing", f"Turn {state.turn}: battle {battle.number} briefing", players,
                  context | {"battle": battle, "lists": lists, "roster_rows": rows}, key=f"briefing-{battle.number}")


def second_window_reports(view: DRView, battle: movement.Battle) -> list[Report]:
    """A dependent contest fought in a further battle window (`battle.dependent_contest`)."""
    return [briefing(view, _base(view) | _moved(view), battle)]


def battle_reports(view: DRView, dice: Dice) -> list[Report]:
    """The battles and what followed them; a turn without a battle has no battle report."""
    moved = _moved(view)["movement"]
    after = to_data(view.state.aftermath)
    if not moved.battles and not (after.get("dependents") or after.get("lines") or after.get("retreats")):
        return []
    context = _base(view) | {"movement": moved, "aftermath": after,
                             "results": to_data(battle_window.accepted(view)),
                             "postbattle": to_data(view.state.postbattle.ledgers)}
    return [Report("battle_report", f"Turn {view.state.dr.turn}: battles", ("*",), context, public=True,
                   key="battles")]


# The rules know no seasons: their 15 turns are read here as three seasons of five. The public
# end-of-turn report shows what changed and the standings each turn, and the whole territory
# table only at a season's end (and in the final report); STATUS shows it any time.
SEASON_TURNS = 5


def season_ends(turn: int, final: bool) -> bool:
    return final or turn % SEASON_TURNS == 0


def end_of_turn_reports(view: DRView, facts: TurnFacts, eot: EndOfTurn) -> list[Report]:
    state = view.state.dr
    factions = state.ordered_factions()
    pairs = []
    for i, a in enumerate(factions):
        for b in factions[i + 1:]:
            count, locked = movement.lock_status(state, a, b, view.rules)
            pairs.append({"a": a, "b": b, "count": count, "locked": locked})
    final = scoring.final_standings(state, view.map, view.rules) if state.phase == "over" else []
    context = _base(view) | {"eot": eot, "facts": facts, "pairs": pairs, "final": final,
                             "veterans": rosters.veterans(state), "full_table": season_ends(eot.turn, bool(final)),
                             "season_turns": SEASON_TURNS,
                             "next_season": (eot.turn // SEASON_TURNS + 1) * SEASON_TURNS}
    reports = [Report("turn_report", f"Turn {eot.turn}: end of turn" + (" and final standings" if final else ""),
                      ("*",), context, public=True, key="turn")]
    for fid in factions:
        pid = view.player_of(fid)
        if pid:
            mine = [lst for key, lst in sorted(state.lists.items()) if lst.faction == fid]
            rows = {lst.key: rosters.roster_rows(lst.roster) for lst in mine}
            reports.append(Report("private_report", f"Turn {eot.turn}: your armies", (pid,),
                                  context | {"faction": state.factions[fid], "lists": mine, "roster_rows": rows,
                                             "tokens": state.tokens_of(fid)}, key=f"private-{pid}"))
    return reports
