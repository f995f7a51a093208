"""Window S's lines: the army list, ranked starting tiles, ring layouts and where the army starts.

    LIST Ironjaw Warband                        the list's name (optional)
    Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100      one line per unit (armylist)
    START T12, T3                               starting tiles, best first (MK-SET-3)
    RING city village fortress village control control       the general layout, NE E SE SW W NW
    RING T12 fortress city village village control control   a layout for one starting tile
    ARMY capital                                or ARMY NE: a settled ring tile (MK-SET-7)

The list is checked at once for points and forbidden categories (MK-SET-8/9, MK-PBM-13); a
list that fails is not stored, and every reason is quoted. Standing preferences are read by
`standing.parse` in this window as in every other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem, quoted
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms import armylist, standing, tiles
from pbem.rulesets.mighty_kingdoms.model import CONTROL, DIRECTIONS, SETTLEMENTS, MKView
from pbem.rulesets.mighty_kingdoms.setup import CAPITAL, Wish, layout_problem
from pbem.rulesets.phases import Lines, Payload

PLACEMENT = ("START", "RING", "ARMY")
REFUSED = "refused_list"
"""The payload key that keeps why a list sent was not taken: the report says "refused", not "sent none"."""
LIST_WORDS = ("LIST",)
PIECES = NameIndex({p: () for p in (*SETTLEMENTS, CONTROL)}, what="ring piece")
WORDS = (*LIST_WORDS, *PLACEMENT, *standing.VERBS)     # every first word of a setup line but a unit's name


def parse(view: MKView, player: Player, lines: Lines, placement: bool = True) -> Parsed:
    """Window S (`placement`) or the list stage (army list lines only)."""
    payload: dict[str, Any] = {}
    units: list[tuple[int, str]] = []
    unread = 0
    accepted: list[tuple[int, str]] = []
    problems: list[OrderProblem] = []
    for no, line in lines:
        try:
            if "|" in line:
                unread += 1
                armylist.parse_unit(line, "U1")
                unread -= 1
                units.append((no, line.strip()))
                continue
            accepted.append((no, _line(view, player, payload, line, placement)))
        except OrderProblem as exc:
            problems.append(exc.at(no, line))
    if unread:
        problems.append(IllegalOrder(f"army list not taken: {unread} unit line{'s' if unread > 1 else ''} could not "
                                     "be read; send the whole list again with every line right"))
        payload[REFUSED] = f"{unread} unit line{'s' if unread > 1 else ''} could not be read"
        units = []
    taken = _army_list(view, payload, units, problems)
    if (units and not taken) or unread:
        accepted = [a for a in accepted if not a[1].startswith("LIST")]     # no list, no name for it
    return Parsed(payload=payload, accepted=sorted(accepted + taken), problems=problems)


def _line(view: MKView, player: Player, payload: dict[str, Any], line: str, placement: bool) -> str:
    word, _, rest = line.strip().partition(" ")
    verb = word.upper()
    if verb == "LIST":
        payload["name"] = rest.strip()
        return f"LIST {rest.strip()}".strip()
    if verb in standing.VERBS:
        payload.setdefault("standing", []).append(standing.parse(view, player, verb, rest.split()))
        return line.strip()
    if verb in PLACEMENT and not placement:
        raise IllegalOrder("the starting tiles and rings are placed already; only your army list is wanted now "
                           "(one line per unit)")
    if verb == "START":
        return _starts(view, payload, rest)
    if verb == "RING":
        return _ring(view, payload, rest.replace(",", " ").split())
    if verb == "ARMY":
        return _army(payload, rest)
    raise NotAnOrder(f"{quoted(word)} is no setup line; send LIST, unit lines (name | type | stats | rules | "
                     "points), START, RING and ARMY", suggestion=_verb_like(verb))


def _verb_like(verb: str) -> str:
    return NameIndex({v: () for v in WORDS}, what="word").suggest(verb)


def _starts(view: MKView, payload: dict[str, Any], rest: str) -> str:
    starting = tiles.starting_tiles(view.map)
    ranked: list[str] = []
    for text in (t.strip() for t in rest.replace(";", ",").split(",")):
        if not text:
            continue
        tile = view.map.lookup(text)
        if tile not in starting:
            raise IllegalOrder(f"{view.map.label(tile)} is no starting tile; the starting tiles are "
                               + ", ".join(starting))
        if tile in ranked:
            raise IllegalOrder(f"{view.map.label(tile)} is on the list twice")
        ranked.append(tile)
    if not ranked:
        raise InvalidOrder("START needs starting tiles, best first, e.g. START " + ", ".join(starting[:2]))
    payload["start"] = ranked
    return "START " + ", ".join(ranked)


def _ring(view: MKView, payload: dict[str, Any], words: Sequence[str]) -> str:
    tile = "*"
    if len(words) == len(DIRECTIONS) + 1:
        tile = view.map.lookup(words[0])
        if tile not in tiles.starting_tiles(view.map):
            raise IllegalOrder(f"{view.map.label(tile)} is no starting tile; a layout is given for a starting "
                               "tile or for all (RING with six pieces)")
        words = words[1:]
    pieces = [PIECES.lookup(w) for w in words]
    problem = layout_problem(pieces, view.rules)
    if problem:
        raise IllegalOrder(f"{problem}; for example RING {' '.join(view.rules['setup.default_ring_layout'])} "
                           f"(directions {' '.join(DIRECTIONS)})")
    payload.setdefault("rings", {})[tile] = pieces
    return "RING " + ("" if tile == "*" else tile + " ") + " ".join(pieces)


def _army(payload: dict[str, Any], rest: str) -> str:
    where = rest.strip().upper()
    if where == CAPITAL.upper():
        where = CAPITAL
    elif where not in DIRECTIONS:
        raise InvalidOrder(f"ARMY takes capital or a direction ({' '.join(DIRECTIONS)}), not {quoted(rest)}")
    rings = payload.get("rings", {})
    if where != CAPITAL and rings and all(p[DIRECTIONS.index(where)] == CONTROL for p in rings.values()):
        raise IllegalOrder(f"{where} holds a control marker in your layout; an army starts in the capital or on a "
                           "ring tile with a settlement (MK-SET-7)")
    payload["army"] = where
    return f"ARMY {where}"


def _army_list(view: MKView, payload: dict[str, Any], units: list[tuple[int, str]],
               problems: list[OrderProblem]) -> list[tuple[int, str]]:
    """The unit lines as one list, stored only when the rules allow it (MK-SET-8/9, A30)."""
    if not units:
        return []
    roster, _ = armylist.read("", payload.get("name", ""), units)
    wrong = armylist.problems(roster, view.rules)
    if wrong:
        first_no, first = units[0]
        problems += [IllegalOrder(f"army list not taken: {reason}").at(first_no, first) for reason in wrong]
        payload.pop("name", None)
        payload[REFUSED] = "; ".join(wrong)
        return []
    payload["units"] = [line for _, line in units]
    return units


def wish_of(payload: Payload) -> Wish:
    return Wish(list(payload.get("start", [])), {k: list(v) for k, v in payload.get("rings", {}).items()},
                str(payload.get("army", CAPITAL)))


def canonical(payload: Payload) -> list[str]:
    """The setup on file as lines a player could send again."""
    out = [f"LIST {payload['name']}"] if payload.get("name") else []
    out += list(payload.get("units", []))
    if payload.get("start"):
        out.append("START " + ", ".join(payload["start"]))
    out += ["RING " + ("" if t == "*" else t + " ") + " ".join(p) for t, p in payload.get("rings", {}).items()]
    if "army" in payload:
        out.append(f"ARMY {payload['army']}")
    return out + [standing.canonical(entry) for entry in standing.entries(payload)]
