"""Window 2: battle results from both players, roll-off requests, the GM's word.

`RESULT <battle> <winner faction | draw> [massacred] [obliterated]` reports a
tabletop battle (the GM's RESULT overrides the players'); `ROLLOFF <battle>` asks for a roll-off where DR-ROL-8 allows
it, honoured only while neither side has reported a result for that battle.
Each player also sends the post-battle sheet of his own army (`sheets`), after
a `SHEET <battle>` or `RESULT <battle>` line, or alone when he fights one battle.
The GM may enter or correct either side's sheet with `SHEET <battle> <faction>
<line>; <line>; ...` (`pbem sheet` on the command line); his sheet wins over the
player's until the battle is settled in Step B.
Matching reports are accepted, conflicting ones go to the GM, a single report
is accepted at the deadline (`battle.single_report_accept`), and with none the
GM decides or the battle is rolled off (`battle.unreported`) (DR-BAT-8).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.orders import IllegalOrder, InvalidOrder, OrderProblem, quoted
from pbem.kit.territories import GameMap
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed
from pbem.rulesets.daemon_rift import movement, sheets
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView, ReportedResult
from pbem.rulesets.daemon_rift.model import LIST_ELIMINATED, BattleResult
from pbem.rulesets.phases import GMVerb


def battles(view: DRView) -> list[movement.Battle]:
    return view.state.movement.battles


def tabletop_battles(view: DRView) -> list[movement.Battle]:
    return [b for b in battles(view) if b.kind == movement.TABLETOP]


def accepted(view: DRView) -> dict[str, ReportedResult]:
    return view.state.accepted_results


def factions_owing(view: DRView) -> list[str]:
    """Factions still owing a result of an open battle, or the post-battle sheet of their army:
    a result the GM rules settles the result only, never the sheets (DR-LOS-1)."""
    open_battles = [b for b in tabletop_battles(view) if str(b.number) not in accepted(view)]
    reported = view.state.battle_reports
    owe = {s.faction for b in open_battles for s in b.sides
           if s.faction not in reported.get(str(b.number), {}) and str(b.number) not in view.state.gm_results}
    owe |= {faction for _, faction in sheets_owing(view)}
    return sorted(owe, key=view.state.dr.faction_order.index)


def sheets_owing(view: DRView) -> list[tuple[int, str]]:
    """(battle, faction) of each army whose post-battle sheet is not in yet, neither the player's
    nor the GM's; an army with no registered entries or already eliminated has none to send."""
    have = {(n, f) for kept in (view.state.sheets, view.state.gm_sheets) for n, by in kept.items() for f in by}
    out = []
    for battle in tabletop_battles(view):
        for side in battle.sides:
            lst = view.state.dr.lists.get(side.champion)
            if lst is None or lst.roster.empty or lst.status == LIST_ELIMINATED:
                continue
            if (str(battle.number), side.faction) not in have:
                out.append((battle.number, side.faction))
    return out


def all_results_in(view: DRView) -> bool:
    """Every battle has its result and every army its sheet: Step B may run before the deadline."""
    table = tabletop_battles(view)
    results = {**accepted(view), **view.state.gm_results}
    return bool(table) and all(str(b.number) in results for b in table) and not sheets_owing(view)


def needs_gm(view: DRView) -> bool:
    return view.state.gm_needed


# -- reading reports ---------------------------------------------------------------

def parse_results(view: DRView, faction: str, lines: list[tuple[int, str]]) -> Parsed:
    parsed = Parsed(payload={})
    mine = [b for b in tabletop_battles(view) if faction in {s.faction for s in b.sides}]
    current = mine[0].number if len(mine) == 1 else 0
    sheet_lines: dict[int, list[tuple[int, str]]] = {}
    heads: dict[int, int] = {}
    for no, line in lines:
        verb = line.split(maxsplit=1)[0].upper()
        try:
            if verb == "SHEET":
                current = _sheet_battle(view, faction, line)
                heads.setdefault(current, no)
                continue
            if verb not in ("RESULT", "ROLLOFF"):
                if not current:
                    raise InvalidOrder("you fight more than one battle: start the sheet with `SHEET <battle>`"
                                       if mine else "you fight no tabletop battle this turn")
                sheet_lines.setdefault(current, []).append((no, line))
                continue
            current = _battle(view, faction, line.split()[1]).number if len(line.split()) > 1 else current
            key, value, text = _parse_line(view, faction, line)
        except OrderProblem as problem:
            parsed.problems.append(problem.at(no, line))
            continue
        parsed.payload.setdefault(key, {})[value["battle"]] = value
        parsed.accepted.append((no, text))
    for number, numbered in sheet_lines.items():
        _read_sheet(view, faction, number, heads.get(number, numbered[0][0]), numbered, parsed)
    return parsed


def _sheet_battle(view: DRView, faction: str, line: str) -> int:
    words = line.split()
    if len(words) < 2:
        raise InvalidOrder("write `SHEET <battle>`, then one line per entry of your army")
    return _battle(view, faction, words[1]).number


def _read_sheet(view: DRView, faction: str, number: int, head: int, lines: list[tuple[int, str]],
                parsed: Parsed) -> None:
    """DR-LOS-1: the sheet of the faction's army in one battle, taken whole or not at all."""
    battle = next(b for b in tabletop_battles(view) if b.number == number)
    army = battle.side_of(faction).champion
    lst = view.state.dr.lists.get(army)
    if lst is None or lst.roster.empty:
        parsed.problems.append(IllegalOrder(f"the list of {army} has no registered entries, so its sheet cannot be "
                                            "read; the GM records its losses").at(head, ""))
        return
    sheet, accepted, problems = sheets.parse_sheet(lst.roster, number, lines)
    if sheet is None:
        parsed.problems += problems
        parsed.problems.append(IllegalOrder(f"the sheet for battle {number} was not taken: correct the lines "
                                            "marked here and send the whole sheet again").at(head, ""))
        return
    parsed.payload.setdefault("sheets", {})[str(number)] = to_data(sheet)
    parsed.accepted += [(head, f"SHEET {number} {army}")] + accepted


def _parse_line(view: DRView, faction: str, line: str) -> tuple[str, dict[str, Any], str]:
    words = line.split()
    verb = words[0].upper()
    if verb not in ("RESULT", "ROLLOFF") or len(words) < 2:
        raise InvalidOrder("in the battle window send `RESULT <battle> <winner or draw> [massacred] [obliterated]`"
                           " or `ROLLOFF <battle>`")
    battle = _battle(view, faction, words[1])
    if verb == "ROLLOFF":
        return "rolloff", {"battle": str(battle.number)}, f"ROLLOFF {battle.number}"
    result = read_outcome(view, battle, words[2:])
    return "results", {"battle": str(battle.number), **result}, format_result(battle.number, result)


def _battle(view: DRView, faction: str, text: str) -> movement.Battle:
    number = text.lstrip("#").upper().removeprefix("B")
    found = next((b for b in tabletop_battles(view) if str(b.number) == number), None)
    if found is None:
        raise InvalidOrder(f"there is no pending tabletop battle {text}")
    if faction and faction not in {s.faction for s in found.sides}:
        raise IllegalOrder(f"battle {found.number} is not yours to report")
    return found


def read_outcome(view: DRView, battle: movement.Battle, words: Sequence[str]) -> dict[str, Any]:
    if not words:
        raise InvalidOrder("name the winning faction, or draw")
    flags = {w.lower() for w in words[1:]}
    unknown = flags - {"massacred", "obliterated", "massacre"}
    if unknown:
        raise InvalidOrder(f"unknown word(s) {', '.join(sorted(unknown))}; use massacred / obliterated")
    if words[0].lower() == "draw":
        if flags:
            raise IllegalOrder("a draw has no massacre (DR-BAT-7)")
        return {"winner": "", "massacred": False, "obliterated": False}
    sides = {s.faction: s for s in battle.sides}
    winner = _faction(view, words[0], list(sides))
    obliterated = "obliterated" in flags
    return {"winner": winner, "massacred": obliterated or bool(flags & {"massacred", "massacre"}),
            "obliterated": obliterated}


def _faction(view: DRView, text: str, allowed: list[str]) -> str:
    key = text.casefold()
    for fid in allowed:
        faction = view.state.dr.factions[fid]
        if key in (fid.casefold(), faction.name.casefold()):
            return fid
    names = " or ".join(view.state.dr.factions[f].name for f in allowed)
    raise InvalidOrder(f"{quoted(text)} did not fight this battle; the winner is {names}, or draw")


def format_result(number: int, result: Mapping[str, Any] | ReportedResult) -> str:
    got = ReportedResult.of({"battle": str(number), **result}) if isinstance(result, Mapping) else result
    if not got.winner:
        return f"RESULT {number} draw"
    flags = " obliterated" if got.obliterated else (" massacred" if got.massacred else "")
    return f"RESULT {number} {got.winner}{flags}"


# -- deciding ------------------------------------------------------------------------

def collect(view: DRView, by_faction: Mapping[str, Mapping[str, Any]], dice: Dice, final: bool) -> list[str]:
    """Fold this window's reports into the game; returns alerts for the GM."""
    reports, stored = view.state.battle_reports, view.state.sheets
    for faction, sub in by_faction.items():
        for number, result in sub.get("results", {}).items():
            reports.setdefault(number, {})[faction] = ReportedResult.of(result)
        for number, sheet in sub.get("sheets", {}).items():
            stored.setdefault(number, {})[faction] = from_data(sheets.Sheet, sheet)
    for number, by_side in view.state.gm_sheets.items():
        stored.setdefault(number, {}).update(by_side)
    _rolloff_requests(view, by_faction, dice)
    alerts: list[str] = []
    for battle in tabletop_battles(view):
        alerts += _decide(view, battle, final, dice)
    view.state.gm_needed = any(str(b.number) not in accepted(view) for b in tabletop_battles(view))
    return alerts


def _rolloff_requests(view: DRView, by_faction: Mapping[str, Mapping[str, Any]], dice: Dice) -> None:
    moved = view.state.movement
    reports = view.state.battle_reports
    for sub in by_faction.values():
        for number in sub.get("rolloff", {}):
            battle = next((b for b in moved.battles if str(b.number) == number), None)
            if battle is None or battle.kind != movement.TABLETOP or reports.get(number):
                continue
            a, b = (s.faction for s in battle.sides)
            count, locked = movement.lock_status(view.state.dr, a, b, view.rules)
            if count >= view.rules["rolloff.optional_after"] and not locked:
                movement.convert_to_rolloff(view.state.dr, view.map, view.rules, moved, battle.number, dice)


def _decide(view: DRView, battle: movement.Battle, final: bool, dice: Dice) -> list[str]:
    number = str(battle.number)
    gm = view.state.gm_results.get(number)
    if gm:
        accepted(view)[number] = gm.accepted("gm")
        return []
    got = list(view.state.battle_reports.get(number, {}).values())
    if len(got) == 2 and got[0] == got[1]:
        accepted(view)[number] = got[0].accepted("players")
        return []
    if len(got) == 2:
        return [(f"Battle {number}: the two reports differ ({format_result(battle.number, got[0])} / "
                 f"{format_result(battle.number, got[1])}); "
                 f"settle it with `RESULT {number} <winner|draw> [massacred]`.")]
    if not final:
        return []
    if len(got) == 1 and view.rules["battle.single_report_accept"]:
        accepted(view)[number] = got[0].accepted("single-report")
        return []
    if not got and view.rules["battle.unreported"] == "rolloff":
        _roll_off_unreported(view, battle.number, dice)
        return []
    return [f"Battle {number}: no result reported by the deadline; enter it with `RESULT {number} <winner|draw>`."]


def _roll_off_unreported(view: DRView, number: int, dice: Dice) -> None:
    """DR-ROL-9: with `battle.unreported = "rolloff"` an unreported battle is rolled off."""
    movement.convert_to_rolloff(view.state.dr, view.map, view.rules, view.state.movement, number, dice)


def accepted_results(view: DRView) -> dict[int, BattleResult]:
    out = {}
    for number, value in accepted(view).items():
        out[int(number)] = BattleResult(int(number), value.winner, value.massacred, value.obliterated,
                                        value.source or "players")
    return out


def gm_result(view: DRView, words: Sequence[str]) -> str:
    """The GM's result for a battle (DR-GEN-6, DR-BAT-8), entered by mail or `pbem result`."""
    if not words:
        raise ValueError("RESULT needs a battle number")
    battle = _battle(view, "", words[0])
    try:
        result = read_outcome(view, battle, words[1:])
    except OrderProblem as problem:
        raise ValueError(problem.reason) from problem
    view.state.gm_results[str(battle.number)] = ReportedResult.of({**result, "battle": str(battle.number)})
    view.state.gm_needed = False
    done = f"battle {battle.number} result set: {format_result(battle.number, result)}"
    owed = [view.state.dr.factions[f].name for n, f in sheets_owing(view) if n == battle.number]
    if not owed:
        return done
    return (f"{done}; the post-battle sheets of {' and '.join(owed)} are still awaited: the battle's losses "
            "and experience are settled when they are in, or at the deadline")


def gm_sheet(view: DRView, words: Sequence[str]) -> str:
    """The GM enters or corrects one side's post-battle sheet (DR-GEN-6, DR-LOS-1):
    `SHEET <battle> <faction> <line>; <line>; ... [; PRIORITY ...]`, taken whole or not at all."""
    if len(words) < 3:
        raise ValueError("write `SHEET <battle> <faction> <line>; <line>; ...`, e.g. "
                         "`SHEET 1 Red U1 lost 11; C1 killed; PRIORITY U1`")
    try:
        battle = _battle(view, "", words[0])
        faction = _faction(view, words[1], [s.faction for s in battle.sides])
    except OrderProblem as problem:
        raise ValueError(problem.reason) from problem
    army = battle.side_of(faction).champion
    lst = view.state.dr.lists.get(army)
    if lst is None or lst.roster.empty:
        raise ValueError(f"{army} has no registered entries, so there is no sheet to enter")
    lines = [(n, part.strip()) for n, part in enumerate(" ".join(words[2:]).split(";"), start=1) if part.strip()]
    sheet, _, problems = sheets.parse_sheet(lst.roster, battle.number, lines)
    if sheet is None:
        raise ValueError(f"the sheet for {army} was not taken: " +
                         "; ".join(f"entry {p.line_no} ({p.line}): {p.reason}" for p in problems))
    sheet.source = "gm"
    view.state.gm_sheets.setdefault(str(battle.number), {})[faction] = sheet
    name = view.state.dr.factions[faction].name
    return f"battle {battle.number}: {name}'s sheet for {army} set: {'; '.join(sheet.format()[1:])}"


RESULT: GMVerb[DRGame, GameMap] = GMVerb("RESULT", "RESULT <battle> <winner|draw> [massacred] [obliterated]",
                                  "enter or override the result of a tabletop battle", gm_result)
SHEET: GMVerb[DRGame, GameMap] = GMVerb("SHEET", "SHEET <battle> <faction> <line>; <line>; ...",
                                 "enter or correct one side's post-battle sheet", gm_sheet)
