"""Reading a W1 mail: the ordered purchase list, quests and standing preferences.

    BUILD village T5
    RECRUIT T9 DISBAND A4          (DISBAND only at the army cap)
    LIST Iron Guard                the new army's list follows the RECRUIT line:
    Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100
    Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring | 80
    END LIST
    TITHE Brennia 1g 0f for the bridge
    QUEST ...                      handed to `quests.parse`
    BATTLE ... / RETREAT ...       standing preferences, handed to `standing.parse`

The list block opens with `LIST [name]` right after its RECRUIT line and ends with `END LIST`
(a bare `END` would close the whole mail); each line between is one unit in `armylist`'s format. Lines are read twice:
first what each says, then whether the rules allow it, with the whole list known, so a
BUILD city after the BUILD village it needs, or a RECRUIT at a fortress built further down
the list, is accepted (the cycles retry such items, A32). Refused: what can never be bought
this winter, a second recruit at one fortress, a second tithe to one player, a RECRUIT at the
cap without DISBAND or with DISBAND under it (MK-ARM-9, A32), a list the fortress's terrain
does not allow (MK-ARM-5..7). What the stock cannot pay yet is accepted: tithes may bring it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem, quoted
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms import armylist, quests, recruit, settlements, standing, tithes
from pbem.rulesets.mighty_kingdoms.model import FORTRESS, SETTLEMENTS, MKView
from pbem.rulesets.mighty_kingdoms.purchase import BUILD, RECRUIT, TITHE, VERBS, Item

WORDS = (*VERBS, "QUEST", "LIST", "END")      # the first words of this window's lines but a list's units

SUMMER = ("MOVE", "DEFEND", "RAZE")
DEPLOY = ("DEPLOY", "ALLOT")
_GOLD = re.compile(r"^(\d+)g$", re.IGNORECASE)
_FOOD = re.compile(r"^(\d+)f$", re.IGNORECASE)
LIST_HELP = "LIST <name>, one unit per line (`name | type | Sp Me Ra De Att Ne | rules | points`), END LIST"


@dataclass
class Entry:
    """One purchase as read, with the lines it came from (a recruit's list block included)."""

    line_no: int
    line: str
    item: dict[str, Any]
    block: list[tuple[int, str]] = field(default_factory=list)


@dataclass
class Reading:
    view: MKView
    player: str
    person: Player
    entries: list[Entry] = field(default_factory=list)
    problems: list[OrderProblem] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)        # quests, standing, echo
    accepted: list[tuple[int, str]] = field(default_factory=list)


def parse(view: MKView, player: Player, lines: Sequence[tuple[int, str]]) -> Parsed:
    reading = Reading(view, player.id, player)
    read_lines(reading, list(lines))
    kept = judge(reading)
    for entry in kept:
        reading.accepted += [(entry.line_no, entry.line), *entry.block]
    payload: dict[str, Any] = {"purchases": [e.item for e in kept], **reading.extra}
    return Parsed(payload, sorted(reading.accepted), reading.problems)


# -- what each line says ------------------------------------------------------------------------
def read_lines(reading: Reading, lines: list[tuple[int, str]]) -> None:
    at = 0
    while at < len(lines):
        number, text = lines[at]
        at += 1
        words = text.split()
        verb = words[0].upper()
        try:
            if verb == RECRUIT:
                entry = Entry(number, text, {})
                at = read_block(reading, entry, lines, at)
                entry.item = read_recruit(reading, words[1:], entry.block)
                reading.entries.append(entry)
            elif verb in (BUILD, TITHE):
                item = read_build(reading, words[1:]) if verb == BUILD else read_tithe(reading, words[1:])
                reading.entries.append(Entry(number, text, item))
            else:
                read_other(reading, verb, words)
                reading.accepted.append((number, text))
        except OrderProblem as problem:
            reading.problems.append(problem.at(number, text))


def read_other(reading: Reading, verb: str, words: list[str]) -> None:
    """QUEST and standing lines go to their owners; anything else is explained."""
    view, player = reading.view, reading.person
    if verb == "QUEST":
        earlier = reading.extra.setdefault("quests", [])
        earlier.append(quests.parse(view, player, words[1:], earlier))
    elif verb in standing.VERBS:
        reading.extra.setdefault("standing", []).append(standing.parse(view, player, verb, words[1:]))
    else:
        raise misplaced(reading, verb, words)
    reading.extra.setdefault("echo", []).append(" ".join(words))


def misplaced(reading: Reading, verb: str, words: list[str]) -> OrderProblem:
    allowed = "BUILD, RECRUIT (with its LIST block), TITHE, QUEST or a standing preference"
    second = words[1].upper() if len(words) > 1 else ""
    if verb in SUMMER or second in SUMMER:
        return IllegalOrder(f"armies are ordered in the summer months; this winter window takes {allowed}")
    if verb in DEPLOY:
        return IllegalOrder("deployment and artefacts are sent in the next window, after the purchases")
    if verb in ("LIST", "END"):
        return InvalidOrder(f"{verb} belongs to a recruit's list block: RECRUIT <fortress>, then {LIST_HELP}")
    return NotAnOrder(f"{quoted(words[0])} is not a purchase; this window takes {allowed}")


def tile_of(reading: Reading, words: Sequence[str]) -> str:
    if not words:
        raise InvalidOrder("a tile is missing, like T5")
    return reading.view.map.lookup(" ".join(words))


def read_build(reading: Reading, words: list[str]) -> dict[str, Any]:
    if len(words) < 2:
        raise InvalidOrder("BUILD reads BUILD <village|city|fortress> <tile>, like BUILD village T5")
    kind = NameIndex({k: () for k in SETTLEMENTS}, what="settlement").lookup(words[0])
    return {"verb": BUILD, "settlement": kind, "tile": tile_of(reading, words[1:])}


def army_of(reading: Reading, text: str) -> str:
    state = reading.view.state
    index = NameIndex({a: () for a in state.armies}, what="army")
    found = index.find(text)
    if found is None:
        raise InvalidOrder(f"unknown army {quoted(text)}", suggestion=index.suggest(text))
    if state.armies[found].owner != reading.player:
        raise IllegalOrder(f"{found} is not one of your armies; you disband only your own")
    return found


def read_block(reading: Reading, entry: Entry, lines: list[tuple[int, str]], at: int) -> int:
    """The list block after a RECRUIT line, into `entry`; returns where reading goes on. A block
    not closed before the next purchase line (or the end of the mail) is reported on its LIST line."""
    if at >= len(lines) or lines[at][1].split()[0].upper() != "LIST":
        return at
    opened = lines[at]
    entry.block = [opened]
    at += 1
    while at < len(lines) and lines[at][1].split()[0].upper() != "END" and not starts_order(lines[at][1]):
        entry.block.append(lines[at])
        at += 1
    if at < len(lines) and not starts_order(lines[at][1]):
        entry.block.append(lines[at])
        return at + 1
    reading.problems.append(InvalidOrder(f"the list opened here has no END LIST; {LIST_HELP}").at(*opened))
    return at


def starts_order(text: str) -> bool:
    """A line that opens a purchase, quest or preference (no unit line does: units have `|`),
    so a list block left open ends before it."""
    return "|" not in text and text.split()[0].upper() in (*VERBS, "LIST", "QUEST", *standing.VERBS)


def read_recruit(reading: Reading, words: list[str], block: list[tuple[int, str]]) -> dict[str, Any]:
    """The RECRUIT line's fortress and disband, with its list block's name and unit lines."""
    if not block:
        raise InvalidOrder(f"RECRUIT needs the new army's list on the next lines: {LIST_HELP}")
    if block[-1][1].split()[0].upper() != "END":
        raise InvalidOrder("the recruit's list block is not closed, so the recruit is not taken")
    units = block[1:-1]
    _, unread = armylist.read("new", "", units)
    for number, text, why in unread:
        reading.problems.append(InvalidOrder(why).at(number, text))
    upper = [w.upper() for w in words]
    cut = upper.index("DISBAND") if "DISBAND" in upper else len(words)
    disband = ""
    if cut < len(words):
        if len(words) != cut + 2:
            raise InvalidOrder("DISBAND names one army, like RECRUIT T9 DISBAND A4")
        disband = army_of(reading, words[cut + 1])
    tile = tile_of(reading, words[:cut])
    if unread:
        raise InvalidOrder("some unit lines of its list cannot be read (see them below); the recruit is not taken")
    name = block[0][1].split(None, 1)[1:]
    return {"verb": RECRUIT, "tile": tile, "disband": disband, "name": name[0] if name else "",
            "units": [text for _, text in units]}


def read_tithe(reading: Reading, words: list[str]) -> dict[str, Any]:
    cut = next((i for i, w in enumerate(words) if i and _GOLD.match(w)), 0)
    if not cut or cut + 1 >= len(words) or not _FOOD.match(words[cut + 1]):
        raise InvalidOrder("TITHE reads TITHE <player> <gold>g <food>f [message], like TITHE Brennia 1g 0f")
    state = reading.view.state
    who = NameIndex({p: (k.name, *names_of(reading, p)) for p, k in state.kingdoms.items()}, what="player")
    gold_match, food_match = _GOLD.match(words[cut]), _FOOD.match(words[cut + 1])
    assert gold_match is not None and food_match is not None
    return {"verb": TITHE, "to": who.lookup(" ".join(words[:cut])), "gold": int(gold_match.group(1)),
            "food": int(food_match.group(1)), "message": " ".join(words[cut + 2:])}


def names_of(reading: Reading, player: str) -> tuple[str, ...]:
    found = reading.view.settings.player(player)
    return (found.name,) if found is not None else ()


# -- whether the rules allow it -------------------------------------------------------------------
def judge(reading: Reading) -> list[Entry]:
    """The entries the rules allow, in list order; every other one becomes a problem."""
    kept: list[Entry] = []
    for entry in reading.entries:
        reason = refusal(reading, entry, kept)
        if reason:
            reading.problems.append(IllegalOrder(reason).at(entry.line_no, entry.line))
        else:
            kept.append(entry)
    return kept


def refusal(reading: Reading, entry: Entry, kept: list[Entry]) -> str:
    view, player, item = reading.view, reading.player, entry.item
    state, gmap, rules = view.state, view.map, view.rules
    if item["verb"] == BUILD:
        return (settlements.never(state, gmap, rules, player, item["settlement"], item["tile"])
                or build_refusal(reading, item))
    if item["verb"] == TITHE:
        earlier = next((e for e in kept if e.item["verb"] == TITHE and e.item["to"] == item["to"]), None)
        if earlier is not None:
            return (f"one tithe per player per winter; line {earlier.line_no} already tithes "
                    f"{state.kingdoms[item['to']].name}")
        return tithes.verdict(state, rules, player, item).never
    return recruit_refusal(reading, item, kept)


def possible_contents(reading: Reading, tile: str) -> set[str]:
    """What the tile may hold when an item on it is tried: now, or after any build of the list."""
    built = {e.item["settlement"] for e in reading.entries if e.item["verb"] == BUILD and e.item["tile"] == tile}
    return {reading.view.state.tile(tile).settlement} | built


def build_refusal(reading: Reading, item: Item) -> str:
    view = reading.view
    reasons = [settlements.not_now(view.state, view.map, view.rules, item["settlement"], item["tile"], held)
               for held in sorted(possible_contents(reading, item["tile"]))]
    return "" if not all(reasons) else reasons[0]


def recruit_refusal(reading: Reading, item: Item, kept: list[Entry]) -> str:
    view, player = reading.view, reading.player
    state, gmap = view.state, view.map
    tile = item["tile"]
    if FORTRESS not in possible_contents(reading, tile):
        return f"{gmap.label(tile)} holds no fortress, and none is built there in your list"
    recruits = [e.item for e in kept if e.item["verb"] == RECRUIT]
    if any(r["tile"] == tile for r in recruits):
        return f"{gmap.label(tile)} already recruits in your list (one army per fortress per winter)"
    if any(r["disband"] and r["disband"] == item["disband"] for r in recruits):
        return f"{item['disband']} is already disbanded by an earlier recruit in your list"
    armies = len(state.armies_of(player)) + sum(1 for r in recruits if not r["disband"])
    return recruit.cap(view.rules, armies, item["disband"]) or recruit.never(state, gmap, view.rules, player, item)
