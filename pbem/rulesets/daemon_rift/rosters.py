"""Daemon Rift army lists by mail: registration, checks, and the GM's approval.

A list is sent as lines (window 0, or with the orders for a new or raised token,
DR-LST-8):

    LIST R-1 Grimgor's Ironjaws
    ARTILLERY R-1 no
    FAST R-1 no
    DECLARE R-1 Grimgor Ironhide
    U1 infantry 20 Orc Boyz @6
    U2 twowound 6 Flesh Hounds @35
    M1 monster Wyvern @200 W5
    C1 character Orc Warboss @95 W3 general | Armour of Gork 50; Porko's Pigstikka 25

Entry lines belong to the LIST line above them. The same list may come as a
TOML file (a .toml or .txt attachment) in the format of `pbem.kit.roster`, with
`tags = ["artillery", "fast"]` for the two list flags.

Checks (each refusal names its line, and a list with any error is not taken at
all, so nothing half-registered is kept): the token is one of the faction's
list slots, never a defensive token (DR-TOK-13); entries are well formed and of
a known kind; the points stay within the list's value, 2250 or 2200 for a
replacement (DR-LST-2). Special characters (entries tagged `special`), magic
items and DECLARE names shared with another of the faction's lists are flagged
to the player and the GM, who approves (DR-LST-3).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder, OrderProblem, quoted
from pbem.kit.players import named
from pbem.kit.roster import (
    Entry,
    Roster,
    RosterError,
    format_entry,
    parse_entry,
    roster_from_data,
    toml_blocks,
)
from pbem.kit.rulebook import RuleBook
from pbem.kit.texts import counted
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.daemon_rift import losses, setup
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift.experience import label
from pbem.rulesets.daemon_rift.model import LIST_ACTIVE, LIST_SHELVED, ArmyList, DRState
from pbem.rulesets.daemon_rift.setup import guarded_names, roster_names

if TYPE_CHECKING:
    from pbem.rulesets.daemon_rift.game_state import DRView

# Every spelling a player may use, to the kind the loss and experience rules know (DR-LOS-1).
KINDS = {
    "infantry": "infantry", "inf": "infantry",
    "cavalry": "cavalry", "cav": "cavalry",
    "twowound": "twowound", "two-wound": "twowound", "2-wound": "twowound", "2w": "twowound",
    "monster": "monster",
    "machine": "machine", "chariot": "machine", "warmachine": "machine", "war-machine": "machine",
    "device": "machine",
    "character": "character", "char": "character", "lord": "character", "hero": "character",
}
UNIT_KINDS = ("infantry", "cavalry", "twowound")
TAGS = ("wizard", "general", "special", "artillery")
LIST_WORDS = ("LIST", "ARTILLERY", "FAST", "DECLARE")
_TOML_LINE = re.compile(r"^(\[\[?[\w.\s\"-]+\]\]?|[A-Za-z_][\w-]*\s*=.*)$")


@dataclass
class Registration:
    """A list as sent, waiting for the GM (stored under `pending_lists`)."""

    token: str
    name: str = ""
    artillery: bool = False
    fast: bool = False
    declared: list[str] = field(default_factory=list)
    roster: Roster = field(default_factory=lambda: Roster(""))
    flags: list[str] = field(default_factory=list)         # DR-LST-3 names shared with other lists

    def lines(self) -> list[str]:
        """Canonical lines; they parse back to the same registration."""
        out = [f"LIST {self.token} {self.name}", f"ARTILLERY {self.token} {'yes' if self.artillery else 'no'}",
               f"FAST {self.token} {'yes' if self.fast else 'no'}"]
        out += [f"DECLARE {self.token} {'; '.join(self.declared)}"] if self.declared else []
        return out + [format_entry(e) for e in self.roster.entries]


# --- which lines are list lines ----------------------------------------------------------

def is_entry_line(line: str) -> bool:
    """`<id> <kind> ...`, or any `<id> ... @<points>` line (an entry with a misspelt kind)."""
    words = line.split(maxsplit=2)
    if len(words) < 2 or not re.match(r"^[A-Za-z]\w*$", words[0]):
        return False
    return words[1].lower() in KINDS or bool(re.search(r"@\s*\d", line))


def is_list_word(line: str) -> bool:
    return line.split(maxsplit=1)[0].upper() in LIST_WORDS


def is_toml_line(line: str) -> bool:
    return bool(_TOML_LINE.match(line.strip()))


def split_list_lines(lines: list[tuple[int, str]]) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(list lines, other lines): LIST/ARTILLERY/FAST/DECLARE lines, entry lines after a LIST
    line, and TOML roster lines, apart from the orders around them."""
    mine, rest = [], []
    in_list = False
    for no, line in lines:
        word = line.split(maxsplit=1)[0].upper()
        if word in LIST_WORDS:
            in_list = in_list or word == "LIST"
            mine.append((no, line))
        elif (in_list and is_entry_line(line)) or is_toml_line(line):
            mine.append((no, line))
        else:
            in_list = False
            rest.append((no, line))
    return mine, rest


# --- reading a submission ----------------------------------------------------------------

SKIP = "?"                             # entry lines after a refused LIST line are left unread


def parse_lists(state: DRState, rules: RuleBook, faction: str, lines: list[tuple[int, str]]
                ) -> tuple[dict[str, Registration], list[tuple[int, str]], list[OrderProblem]]:
    """Registrations by token, accepted lines, problems. A list with any problem is left out whole."""
    regs: dict[str, Registration] = {}
    lines_of: dict[str, list[tuple[int, str]]] = {}
    problems: list[OrderProblem] = []
    bad: dict[str, int] = {}
    current = ""
    for no, line in lines:
        if is_toml_line(line):
            continue
        try:
            token, current = _read_line(state, rules, faction, regs, current, line)
        except OrderProblem as problem:
            problems.append(problem.at(no, line))
            if not is_list_word(line) and not is_entry_line(line):
                continue                   # a stray line (a greeting, a signature) spoils no list
            token = _line_token(line, current)
            bad.setdefault(token, no)
            if line.split(maxsplit=1)[0].upper() == "LIST":
                current = token if token in regs else SKIP
            continue
        lines_of.setdefault(token, []).append((no, line))
    for block in toml_blocks([(n, l) for n, l in lines if is_toml_line(l)]):
        _read_toml(state, faction, block, regs, lines_of, problems, bad)
    accepted: list[tuple[int, str]] = []
    for token, reg in list(regs.items()):
        mine = lines_of.get(token, [])
        whole = _whole_list_problems(rules, reg, mine)
        problems += whole
        if token in bad or whole:
            del regs[token]
            first = min([n for n, _ in mine] + ([bad[token]] if token in bad else []))
            problems.append(IllegalOrder(f"the list for {token} was not registered: correct the lines marked here "
                                         "and send the whole list again", first))
            continue
        reg.flags = shared_names(state, reg, rules)
        if reg.flags:                      # DR-LST-3: flagged, not refused; the GM rules on it
            head, text = mine[0]
            mine = [(head, f"{text} (the GM will check: {'; '.join(reg.flags)})")] + mine[1:]
        accepted += mine
    return regs, accepted, problems


def _line_token(line: str, current: str) -> str:
    words = line.split()
    if words[0].upper() in LIST_WORDS and len(words) > 1:
        try:
            return dr_parse.token_id(words[1])
        except OrderProblem:
            return SKIP
    return current or SKIP


def _read_line(state: DRState, rules: RuleBook, faction: str, regs: dict[str, Registration],
               current: str, line: str) -> tuple[str, str]:
    """One list line into `regs`: (the token it belongs to, the token later entry lines belong to)."""
    words = line.split(maxsplit=2)
    verb = words[0].upper()
    if verb not in LIST_WORDS:
        if current == SKIP:
            return SKIP, SKIP
        if not is_entry_line(line):
            raise NotAnOrder("not a list line: send `LIST <token> <name>`, ARTILLERY, FAST or DECLARE lines, "
                               "entry lines like `U1 infantry 20 Orc Boyz @6`, or the list as a TOML file")
        if not current:
            raise InvalidOrder("an entry line must follow a `LIST <token> <name>` line")
        regs[current].roster.entries.append(with_defaults(parse_entry(line, KINDS)))
        return current, current
    if len(words) < 3:
        raise InvalidOrder("write `LIST <token> <name>`, `ARTILLERY <token> yes|no`, `FAST <token> yes|no` "
                           "or `DECLARE <token> <item>; <item>`")
    token = list_slot(state, faction, words[1])
    reg = regs.setdefault(token, Registration(token, roster=Roster(token, limit=state.lists[token].points)))
    value = words[2].strip()
    if verb == "LIST":
        reg.name = reg.roster.name = value
        return token, token
    if verb == "DECLARE":
        reg.declared = [d.strip() for d in value.split(";") if d.strip()]
        return token, current
    answer = value.lower()
    if answer not in ("yes", "no", "y", "n", "true", "false"):
        raise InvalidOrder(f"{verb} takes yes or no")
    setattr(reg, verb.lower(), answer in ("yes", "y", "true"))
    return token, current


def with_defaults(e: Entry) -> Entry:
    """A 2-wound unit given without W has models of 2 wounds."""
    if e.kind == "twowound" and e.wounds == 1:
        e.wounds = 2
    return e


def list_slot(state: DRState, faction: str, text: str) -> str:
    """A list slot of `faction` that may be (re-)registered now."""
    token = dr_parse.token_id(text)
    if not token.startswith(f"{faction}-"):
        raise IllegalOrder(f"{token} is not one of your list slots")
    if token.rsplit("-", 1)[-1].startswith("D"):
        raise IllegalOrder(f"{token} is a defensive token: defensive tokens have no list (DR-TOK-13)")
    lst = state.lists.get(token)
    if lst is None or lst.status not in (LIST_ACTIVE, LIST_SHELVED):
        raise IllegalOrder(f"{token} has no list waiting to be registered")
    if lst.approved and not reopened(lst):
        raise IllegalOrder(f"the list of {token} is already approved; ask the GM to change it")
    return token


def reopened(lst: ArmyList) -> bool:
    """An approved list may be sent again whole when it has no entries yet, or was raised
    above the points its entries were registered for (the added units, DR-REP-9)."""
    return lst.roster.empty or 0 < lst.roster.limit < lst.points


def _read_toml(state: DRState, faction: str, block: list[tuple[int, str]], regs: dict[str, Registration],
               lines_of: dict[str, list[tuple[int, str]]], problems: list[OrderProblem], bad: dict[str, int]) -> None:
    """A roster sent as TOML (an attachment): the same checks as list lines."""
    first, head = block[0]
    try:
        data = tomllib.loads("\n".join(line for _, line in block))
    except tomllib.TOMLDecodeError as exc:
        problems.append(InvalidOrder(f"the attached list is not valid TOML: {exc}").at(_toml_line(block, exc), ""))
        return
    except RecursionError:             # tomllib reads nested arrays and tables by recursion
        problems.append(InvalidOrder("the attached list is not valid TOML: its arrays or tables are nested too "
                                     "deeply").at(first, ""))
        return
    try:
        token = list_slot(state, faction, str(data.get("army", "")) or "(no army = ...)")
        roster = roster_from_data(data, KINDS, ledger=False)
    except OrderProblem as problem:
        problems.append(problem.at(first, head))
        return
    except RosterError as error:
        problems += [InvalidOrder(f"attached list for {token}: {p}").at(first, head) for p in error.problems]
        bad.setdefault(token, first)
        return
    unknown = [t for t in roster.tags if t not in ("artillery", "fast")]
    if unknown:
        problems.append(InvalidOrder(f"unknown list tag(s) {', '.join(unknown)}; use artillery, fast").at(first, head))
        bad.setdefault(token, first)
    roster.army, roster.limit = token, state.lists[token].points
    roster.entries = [with_defaults(e) for e in roster.entries]
    regs[token] = Registration(token, roster.name, "artillery" in roster.tags, "fast" in roster.tags, [], roster)
    lines_of[token] = [(first, f"LIST {token} {roster.name} (attached, {len(roster.entries)} entries)")]


def _toml_line(block: list[tuple[int, str]], exc: tomllib.TOMLDecodeError) -> int:
    found = re.search(r"line (\d+)", str(exc))
    index = int(found.group(1)) - 1 if found else 0
    return block[min(max(index, 0), len(block) - 1)][0]


def _whole_list_problems(rules: RuleBook, reg: Registration, lines: list[tuple[int, str]]) -> list[OrderProblem]:
    """Checks on the list as a whole, placed on the line of the entry at fault or the LIST line."""
    first = lines[0][0] if lines else 0
    at = {e.id: n for (n, l), e in _entry_lines(lines, reg.roster)}
    out: list[OrderProblem] = []
    if not reg.name:
        out.append(InvalidOrder(f"{reg.token}: the list needs a name (`LIST {reg.token} <name>`)", first))
    if not reg.roster.entries:         # nothing for the GM to approve, nothing to field in a battle
        out.append(InvalidOrder(f"{reg.token}: the list has no entries: after the LIST line, one line per unit, "
                                "character or machine, e.g. `U1 infantry 20 Orc Boyz @6`", first))
    for problem in reg.roster.problems(sorted(set(KINDS.values()))):
        ident = problem.split(":", 1)[0]
        out.append(IllegalOrder(f"{reg.token}: {problem}", at.get(ident, first)))
    for entry in reg.roster.entries:
        out += [IllegalOrder(f"{reg.token}: {entry.id}: {p}", at.get(entry.id, first))
                for p in entry_problems(rules, entry)]
    return out


def _entry_lines(lines: list[tuple[int, str]], roster: Roster) -> list[tuple[tuple[int, str], Entry]]:
    entries = {e.id: e for e in roster.entries}
    out = []
    for n, line in lines:
        ident = line.split(maxsplit=1)[0].upper()
        if ident in entries and is_entry_line(line):
            out.append(((n, line), entries[ident]))
    return out


def entry_problems(rules: RuleBook, e: Entry) -> list[str]:
    """What the loss and experience rules need an entry to be (DR-LOS-1)."""
    out = [f"unknown tag {quoted(t)} (tags: {', '.join(TAGS)})" for t in e.tags if t not in TAGS]
    if e.kind == "character" and e.models != 1:
        out.append("a character is a single model")
    if e.kind == "monster" and e.wounds < int(rules["losses.monster_min_wounds"]):
        least = rules["losses.monster_min_wounds"]
        out.append(f"a monster has {least}+ wounds (W{least}); "
                   "enter smaller creatures as infantry, cavalry or twowound")
    if e.kind == "twowound" and e.wounds != 2:
        out.append("a twowound unit has models of 2 wounds (W2)")
    if e.kind != "character" and ({"wizard", "general"} & set(e.tags)):
        out.append("only characters are wizards or generals")
    return out


# --- DR-LST-3 ---------------------------------------------------------------------------

def declared_names(reg_or_list: Registration | ArmyList) -> list[str]:
    """Special characters, magic items and declared names of a list, each once."""
    names: dict[str, str] = {}
    for name in roster_names(reg_or_list.roster) + list(reg_or_list.declared):
        names.setdefault(name.casefold(), name)
    return list(names.values())


def shared_names(state: DRState, reg: Registration, rules: RuleBook | None = None) -> list[str]:
    """DR-LST-3: special characters or magic items twice in the list, or also in another of the
    faction's active or shelved lists (what `lists.share_*` allows is left out)."""
    mine = guarded_names(rules, reg.roster, declared_names(reg))
    faction = reg.token.rsplit("-", 1)[0]
    names = guarded_names(rules, reg.roster, roster_names(reg.roster))
    counts = Counter(n.casefold() for n in names)
    flags = [f"{reg.token}: {quoted(n)} appears twice in this list"
             for n in dict.fromkeys(names) if counts.pop(n.casefold(), 0) > 1]
    for other in state.lists.values():
        if other.faction != faction or other.key == reg.token or other.status not in (LIST_ACTIVE, LIST_SHELVED):
            continue
        theirs = {d.casefold() for d in declared_names(other)}
        flags += [f"{reg.token}: {quoted(n)} is also in {other.key} ({other.status})"
                  for n in dict.fromkeys(mine) if n.casefold() in theirs]
    return flags


# --- the game's side -----------------------------------------------------------------------

def store(view: DRView, by_faction: Mapping[str, Mapping[str, Any]]) -> None:
    """Registrations sent in this window wait for the GM; a new one for a token replaces the old."""
    stored = view.state.pending_lists
    for sub in by_faction.values():
        stored.update({token: from_data(Registration, reg) for token, reg in sub.get("lists", {}).items()})


def alerts(view: DRView) -> list[str]:
    out = []
    for token, reg in sorted(view.state.pending_lists.items()):
        out.append(f'List {token} "{reg.name}": {len(reg.roster.entries)} entries, {reg.roster.points}/'
                   f"{reg.roster.limit} points (artillery: {'yes' if reg.artillery else 'no'}, "
                   f"fast: {'yes' if reg.fast else 'no'}, declared: {', '.join(declared_names(reg)) or '-'})"
                   + (f"; check: {'; '.join(reg.flags)}" if reg.flags else "")
                   + f" awaits approval: reply `APPROVE {token}`.")
    return out


def approve(view: DRView, words: Sequence[str]) -> str:
    """The GM's APPROVE (DR-LST-3, DR-LST-8): the registrations named, or ALL, become the lists."""
    stored = view.state.pending_lists
    tokens = sorted(stored) if [w.upper() for w in words] == ["ALL"] else approved_tokens(view, words)
    if not tokens and words:
        raise ValueError("no army list is waiting for approval")
    if not tokens:
        raise ValueError("APPROVE needs a token (R-1) or ALL")
    out = []
    for token in tokens:
        if token not in stored:
            raise ValueError(f"no list registered for {token}")
        reg = stored.pop(token)
        warnings = setup.approve_list(view.state.dr, token, name=reg.name, artillery=reg.artillery, fast=reg.fast,
                                      declared=reg.declared, roster=reg.roster, rules=view.rules)
        out.append(f"{token} approved" + (f" (check: {'; '.join(warnings)})" if warnings else ""))
    return "; ".join(out)


def approved_tokens(view: DRView, words: Sequence[str]) -> list[str]:
    """The tokens APPROVE names: token ids (R-1), and players by id, name or faction, each standing for
    every list of his waiting for approval."""
    stored = view.state.pending_lists

    def find(text: str) -> str:
        token = _token(text)
        if token:
            return token
        person = view.settings.player(text)
        return f"player:{person.faction}" if person is not None else ""

    out: list[str] = []
    for found in named(words, find):
        faction = found.removeprefix("player:")
        mine = sorted(t for t in stored if t.split("-")[0] == faction) if found.startswith("player:") else [found]
        if not mine:
            raise ValueError(f"no list of {view.state.dr.factions[faction].name} waits for approval")
        out += [t for t in mine if t not in out]
    return out


def _token(text: str) -> str:
    try:
        return dr_parse.token_id(text)
    except OrderProblem:
        return ""


def payload(regs: Mapping[str, Registration]) -> dict[str, Any]:
    return {token: to_data(reg) for token, reg in regs.items()}


def canonical(stored: Mapping[str, Any]) -> list[str]:
    lines: list[str] = []
    for token in sorted(stored):
        lines += from_data(Registration, stored[token]).lines()
    return lines


# --- what reports show -----------------------------------------------------------------------

def entry_row(e: Entry, army: str = "") -> dict[str, str]:
    """One entry for the briefing and the private report: size, pending losses, scars, upgrades."""
    size = f"W{e.wounds}" if e.models == 1 else f"{e.models} models" + (f", W{e.wounds}" if e.wounds > 1 else "")
    pending = []
    if e.total(losses.MISSING):
        pending.append(f"{counted(e.total(losses.MISSING), 'model')} fewer")
    if e.total(losses.WOUNDS):
        pending.append(f"{counted(e.total(losses.WOUNDS), 'wound')} lost")
    scars = ["green replacement"] if e.marks_of(losses.GREEN) else []
    scars += [f"lacks {m.name} ({m.value} points, repairable)" for m in e.marks_of(losses.LOST_ITEM)]
    if e.counters.get(losses.DEATHS):
        scars.append(f"death count {e.counters[losses.DEATHS]}")
    upgrades = [f"+1 {label(m.name)}" for m in e.marks_of(losses.UPGRADE)]
    upgrades += [f"{m.value:+d} {m.name} (trauma)" for m in e.marks_of(losses.TRAUMA)]
    choices = [f"+1 {label(m.name)} is a default choice: change it with `CHOOSE {army} {e.id} <stat>`"
               for m in e.marks_of(losses.CHOICE)]
    return {"id": e.id, "name": e.name, "kind": e.kind, "size": size, "points": str(e.cost),
            "magic": ", ".join(f"{i.name} ({i.points})" for i in e.items), "pending": "; ".join(pending),
            "scars": "; ".join(scars), "upgrades": ", ".join(upgrades), "choices": "; ".join(choices)}


def roster_rows(roster: Roster) -> list[dict[str, str]]:
    return [entry_row(e, roster.army) for e in roster.entries]


def veterans(state: DRState, limit: int = 5) -> list[dict[str, str]]:
    """The public roll of honour: the most upgraded entries of active lists, and survivors of deaths."""
    rows = []
    for lst in state.lists.values():
        if lst.status != LIST_ACTIVE:
            continue
        for e in lst.roster.entries:
            ups = [label(m.name) for m in e.marks_of(losses.UPGRADE)]
            deaths = e.counters.get(losses.DEATHS, 0)
            if ups or deaths:
                rows.append((len(ups) + deaths, {
                    "faction": state.factions[lst.faction].name, "army": lst.name or lst.key, "name": e.name,
                    "honours": ", ".join([f"+1 {u}" for u in ups]
                                         + ([f"survived {counted(deaths, 'death')}"] if deaths else []))}))
    rows.sort(key=lambda r: -r[0])
    return [r for _, r in rows[:limit]]
