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

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from pbem.campaign import Player
from pbem.dice import Dice
from pbem.rulesets.base import Parsed, Report
from pbem.rulesets.daemon_rift import battle_window, movement, rosters, scoring, sheets
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift.model import FactionOrders, TurnFacts
from pbem.tomlio import from_data

if TYPE_CHECKING:
    from pbem.rulesets.daemon_rift.endturn import EndOfTurn
    from pbem.rulesets.daemon_rift.ruleset import Game


def split_list_lines(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    return rosters.split_list_lines(lines)


# -- lists -------------------------------------------------------------------------

def parse_list_lines(game: Game, faction: str, lines: list[tuple[int, str]]) -> Parsed:
    regs, accepted, problems = rosters.parse_lists(game.state, game.rules, faction, lines)
    parsed = Parsed(payload={"lists": rosters.payload(regs)} if regs else {}, accepted=accepted,
                    problems=sorted(problems, key=lambda p: p.line_no))
    return parsed


def store_lists(game: Game, by_faction: Mapping[str, Mapping[str, Any]]) -> None:
    rosters.store(game, by_faction)


def lists_alerts(game: Game) -> list[str]:
    return rosters.alerts(game)


def turn_one_report(game: Game) -> Report:
    """To everyone when the lists window gives way to turn 1: its orders are open, with their deadline."""
    return Report("turn_open", f"Turn {game.state.turn}: orders are open", ("*",), {}, public=True, key="opening")


def approve(game: Game, words: list[str]) -> str:
    return rosters.approve(game, words)


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
    lines += [f"{t} {'DISBAND' if c == 'disband' else 'R ' + c}" for t, c in sorted(payload.get("retreats", {}).items())]
    return lines


# -- replies -------------------------------------------------------------------------

def help_text(game: Game, player: Player) -> str:
    tokens = ", ".join(t.id for t in game.state.tokens_of(player.faction)) or "none"
    models = "" if game.rules["lists.share_models"] else " Your lists may not use the same physical models."
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


def status(game: Game, player: Player) -> dict[str, Any]:
    faction = player.faction
    return {"tokens": game.state.tokens_of(faction), "control": sorted(game.state.controlled_by(faction)),
            "gmap": game.gmap, "state": game.state}


# -- reports ------------------------------------------------------------------------

def _base(game: Game) -> dict[str, Any]:
    return {"state": game.state, "gmap": game.gmap, "rules": game.rules, "factions": game.state.factions,
            "faction_order": game.state.ordered_factions()}


def movement_reports(game: Game, dice: Dice) -> list[Report]:
    moved = from_data(movement.Movement, game.data["movement"])
    context = _base(game) | {"movement": moved, "nmr_factions": game.data.get("nmr", [])}
    reports = [Report("movement_report", f"Turn {game.state.turn}: movement", ("*",), context, public=True,
                      key="movement")]
    reports += [briefing(game, context, b) for b in moved.battles if b.kind == movement.TABLETOP]
    return reports


def briefing(game: Game, context: dict[str, Any], battle: movement.Battle) -> Report:
    """The battle briefing to both sides and the GM (DR-TRN-4)."""
    players = tuple(game.player_of(s.faction) for s in battle.sides) + ("gm",)
    lists = {s.faction: game.state.lists.get(s.champion) for s in battle.sides}
    rows = {f: rosters.roster_rows(lst.roster) if lst else [] for f, lst in lists.items()}
    return Report("briefing", f"Turn {game.state.turn}: battle {battle.number} briefing", players,
                  context | {"battle": battle, "lists": lists, "roster_rows": rows}, key=f"briefing-{battle.number}")


def second_window_reports(game: Game, battle: movement.Battle) -> list[Report]:
    """A dependent contest fought in a further battle window (`battle.dependent_contest`)."""
    moved = from_data(movement.Movement, game.data["movement"])
    return [briefing(game, _base(game) | {"movement": moved, "nmr_factions": game.data.get("nmr", [])}, battle)]


def battle_reports(game: Game, dice: Dice) -> list[Report]:
    """The battles and what followed them; a turn without a battle has no battle report."""
    moved = from_data(movement.Movement, game.data["movement"])
    after = game.data["aftermath"]
    if not moved.battles and not (after.get("dependents") or after.get("lines") or after.get("retreats")):
        return []
    context = _base(game) | {"movement": moved, "aftermath": game.data["aftermath"],
                             "results": battle_window.accepted(game),
                             "postbattle": game.data.get("postbattle", {}).get("ledgers", [])}
    return [Report("battle_report", f"Turn {game.state.turn}: battles", ("*",), context, public=True, key="battles")]


def end_of_turn_reports(game: Game, facts: TurnFacts, eot: EndOfTurn) -> list[Report]:
    factions = game.state.ordered_factions()
    pairs = []
    for i, a in enumerate(factions):
        for b in factions[i + 1:]:
            count, locked = movement.lock_status(game.state, a, b, game.rules)
            pairs.append({"a": a, "b": b, "count": count, "locked": locked})
    final = scoring.final_standings(game.state, game.gmap, game.rules) if game.state.phase == "over" else []
    context = _base(game) | {"eot": eot, "facts": facts, "pairs": pairs, "final": final,
                             "veterans": rosters.veterans(game.state)}
    reports = [Report("turn_report", f"Turn {eot.turn}: end of turn" + (" and final standings" if final else ""),
                      ("*",), context, public=True, key="turn")]
    for fid in factions:
        pid = game.player_of(fid)
        if pid:
            mine = [lst for key, lst in sorted(game.state.lists.items()) if lst.faction == fid]
            rows = {lst.key: rosters.roster_rows(lst.roster) for lst in mine}
            reports.append(Report("private_report", f"Turn {eot.turn}: your armies", (pid,),
                                  context | {"faction": game.state.factions[fid], "lists": mine, "roster_rows": rows,
                                             "tokens": game.state.tokens_of(fid)}, key=f"private-{pid}"))
    return reports
