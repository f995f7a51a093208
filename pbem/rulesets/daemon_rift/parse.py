"""Reading a faction's order mail into `FactionOrders`, and writing it back.

Parse and format are a pair: `str(Order)` is the canonical form of an order and
`format_faction_orders` gives the whole submission as lines that parse back to the
same `FactionOrders`. Everything is case-insensitive; territories are named by id,
name or unique prefix; token ids may drop the hyphen (`R1`).

    R-1 H                         R-1 HOLD
    R-1 M T5                      R-1 MOVE T5    R-1 -> T5    R-1 - T5
    R-1 M T1-T2-T3                R-1 M T2 T3    (the start may be given first)
    R-2 S R-1 T5-T6               R-2 S R-1 -> T6    R-2 S R-1 T6
    R-2 S R-1                     (support R-1's hold; also `R-2 S R-1 H`)
    ... CHAMPION R-2              (or champion=R-2, at the end of any order)
    RETREAT R-1 T4 T2             ranked retreat territories (DR-RET-9)
    ROLLOFF Blue                  standing roll-off request (DR-ROL-8)
    PLACE T2 T4                   ranked placement of new tokens (DR-TOK-9)
    REMOVE R-3 R-2                ranked removal of tokens (DR-TOK-5)
    REPAIR R-1 3 model U1 @10; 1 wound M1; item C1 @15 Shield
                                  repair plan, used if R-1 holds unattacked (DR-REP-10)
    CHOOSE R-1 U3 I               an experience stat choice still open (DR-EXP-11)

Envelope words (CLEAR, STATUS, HELP, PASSWORD, RESULT) are passed through as
`commands`. Checks that can be made before the deadline are made here with the
same functions the deadline uses (DR-ORD-3, DR-TRN-2); an order that fails them
is reported and left out, so the token holds.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NoReturn

from pbem.kit.orders import AmbiguousOrder, IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem, quoted
from pbem.kit.roster import Roster
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.experience import allowed, open_choices
from pbem.rulesets.daemon_rift.model import (
    HOLD,
    MOVE,
    SUPPORT,
    DRState,
    FactionOrders,
    Order,
    RepairItem,
    Token,
)
from pbem.rulesets.daemon_rift.sheets import stat
from pbem.rulesets.daemon_rift.validate import order_problem, support_origin_problem

ENVELOPE_COMMANDS = ("CLEAR", "STATUS", "HELP", "PASSWORD", "RESULT")
DISBAND = "disband"

_TOKEN = re.compile(r"^([A-Za-z]+?)-?(D?\d+)$", re.IGNORECASE)
_CHAMPION = re.compile(r"\s+champion(?:\s*=\s*|\s+)(\S+)\s*$", re.IGNORECASE)
_SEPARATORS = re.compile(r"\s*->\s*|\s*,\s*|\s+|-")
_HOLD_WORDS = {"H", "HOLD"}
_MOVE_WORDS = {"M", "MOVE", "->", "-"}
_SUPPORT_WORDS = {"S", "SUPPORT"}


@dataclass
class Parsed:
    """What one submission said: orders, what was understood, what was not."""

    orders: FactionOrders
    accepted: list[tuple[int, str]] = field(default_factory=list)   # line number, canonical text
    problems: list[OrderProblem] = field(default_factory=list)      # each located on its line
    commands: list[str] = field(default_factory=list)               # envelope lines, verbatim


@dataclass(frozen=True)
class _Context:
    state: DRState
    gmap: GameMap
    rules: RuleBook
    faction: str


# --- small readers ------------------------------------------------------------------

def token_id(text: str) -> str:
    """Canonical token id for `r-1`, `R1`, `r-d1` (raises InvalidOrder)."""
    match = _TOKEN.match(text.strip())
    if not match:
        raise InvalidOrder(f"{quoted(text)} is not a token id (like R-1 or R-D1)")
    return f"{match.group(1).upper()}-{match.group(2).upper()}"


def own_token(ctx: _Context, text: str) -> Token:
    """A token of the submitting faction (DR-TRN-2: others' tokens are rejected)."""
    ident = token_id(text)
    token = ctx.state.tokens.get(ident)
    if token is None:
        raise IllegalOrder(f"there is no token {ident} on the map", suggestion=_own_ids(ctx))
    if token.faction != ctx.faction:
        raise IllegalOrder(f"{ident} is not yours")
    return token


def _own_ids(ctx: _Context) -> str:
    return ", ".join(t.id for t in ctx.state.tokens_of(ctx.faction))


def territories(gmap: GameMap, text: str) -> list[str]:
    """Territory ids in `text`, split at spaces, commas, `-` and `->`.

    Names may have several words: the longest run of words that names a territory wins. An id
    followed by the territory's own name (`T25 Northmarch`, as reports and suggestions write a
    place) is that one territory.
    """
    atoms = [a for a in _SEPARATORS.split(text) if a]
    out: list[str] = []
    i = last = 0
    while i < len(atoms):
        found = gmap.longest(atoms, i)
        if found is None:
            _unknown_place(gmap, atoms, last, i)
        ident, after = found
        if not (out and out[-1] == ident and atoms[last].casefold() == ident.casefold() != atoms[i].casefold()):
            out.append(ident)
        last, i = i, after
    return out


def _unknown_place(gmap: GameMap, atoms: list[str], last: int, bad: int) -> NoReturn:
    """Raise the problem of `atoms[bad]`: ambiguous as typed, or unknown judged with the words
    before it ("Cinder Reech" after "Cinder" was read as the start of Cinder Reach)."""
    try:
        gmap.lookup(atoms[bad])
    except AmbiguousOrder:
        raise
    except InvalidOrder:
        raise gmap.unknown(atoms, last, bad) from None
    raise AssertionError("unreachable: a word that names a place is a run that names it")


def _split_champion(text: str) -> tuple[str, str]:
    match = _CHAMPION.search(text)
    if not match:
        return text, ""
    return text[:match.start()], token_id(match.group(1))


# --- one order line -----------------------------------------------------------------

def parse_order(ctx: _Context, line: str) -> Order:
    """One order line as an Order, checked against the positions (raises OrderProblem)."""
    body, champion = _split_champion(line.replace("->", " -> "))
    words = body.split()
    token = own_token(ctx, words[0])
    verb = words[1].upper() if len(words) > 1 else ""
    rest = " ".join(words[2:])
    if verb in _HOLD_WORDS and not rest:
        order = Order(token.id, HOLD, champion=champion)
    elif verb in _MOVE_WORDS:
        order = Order(token.id, MOVE, _move_path(ctx, token, rest), champion=champion)
    elif verb in _SUPPORT_WORDS and rest:
        order = _support(ctx, token, rest, champion)
    else:
        raise InvalidOrder("not understood: expected H, M <path>, S <token> [<from>-<to>]",
                           suggestion=f"{token.id} H")
    reason = order_problem(ctx.state, ctx.gmap, ctx.rules, order) or support_origin_problem(ctx.state, order)
    if reason:
        raise IllegalOrder(reason)
    return order


def _move_path(ctx: _Context, token: Token, text: str) -> tuple[str, ...]:
    path = territories(ctx.gmap, text)
    if not path:
        raise InvalidOrder("a move needs a destination", suggestion=f"{token.id} M <territory>")
    if len(path) > 1 and path[0] == token.territory:
        path = path[1:]
    return tuple(path)


def _support(ctx: _Context, token: Token, text: str, champion: str) -> Order:
    first, _, rest = text.partition(" ")
    target = token_id(first)
    if rest.strip().upper() in {"", "H", "HOLD"}:
        return Order(token.id, SUPPORT, target=target, champion=champion)
    named = territories(ctx.gmap, rest)
    if len(named) > 2:
        raise InvalidOrder("a support names one move: <from>-<to> or just <to>")
    supported = ctx.state.tokens.get(target)
    origin = named[0] if len(named) == 2 else (supported.territory if supported else "")
    if not origin:
        raise IllegalOrder(f"there is no token {target} on the map")
    return Order(token.id, SUPPORT, (origin, named[-1]), target=target, champion=champion)


# --- conditional fields (DR-ORD-9) ----------------------------------------------------

def _retreat(ctx: _Context, fo: FactionOrders, rest: str) -> str:
    first, _, places = rest.partition(" ")
    if not first:
        raise InvalidOrder("RETREAT needs a token and ranked territories", suggestion="RETREAT R-1 T4 T2")
    token = own_token(ctx, first)
    ranked = territories(ctx.gmap, places)
    if not ranked:
        raise InvalidOrder("RETREAT needs a token and ranked territories", suggestion=f"RETREAT {token.id} T4 T2")
    fo.retreats[token.id] = ranked
    return f"RETREAT {token.id} {' '.join(ranked)}"


def _rolloff(ctx: _Context, fo: FactionOrders, rest: str) -> str:
    names = NameIndex({f.id: (f.name,) for f in ctx.state.factions.values()}, what="faction")
    named = [names.lookup(word) for word in rest.replace(",", " ").split()]
    if not named:
        raise InvalidOrder("ROLLOFF needs a faction", suggestion="ROLLOFF Blue")
    if ctx.faction in named:
        raise IllegalOrder("a roll-off request names an opposing faction, not your own")
    fo.rolloff_against.extend(f for f in named if f not in fo.rolloff_against)
    return f"ROLLOFF {' '.join(named)}"


def _place(ctx: _Context, fo: FactionOrders, rest: str) -> str:
    ranked = territories(ctx.gmap, rest)
    originals = ctx.state.factions[ctx.faction].originals
    outside = [t for t in ranked if t not in originals]
    if outside:
        raise IllegalOrder(f"{outside[0]} is not one of your home territories", suggestion=" ".join(originals))
    if not ranked:
        raise InvalidOrder("PLACE needs ranked home territories", suggestion=f"PLACE {' '.join(originals)}")
    fo.placement = ranked
    return f"PLACE {' '.join(ranked)}"


def _remove(ctx: _Context, fo: FactionOrders, rest: str) -> str:
    ranked = [own_token(ctx, word).id for word in rest.split()]
    if not ranked:
        raise InvalidOrder("REMOVE needs ranked tokens", suggestion="REMOVE R-3 R-2")
    fo.removal = ranked
    return f"REMOVE {' '.join(ranked)}"


_REPAIR = re.compile(r"^(?:(\d+)\s*x?\s+)?(models?|wounds?)\s+(.+?)(?:\s*@\s*(\d+(?:\s+\d+/\d+|/\d+)?))?$",
                     re.IGNORECASE)
_ITEM = re.compile(r"^items?\s+(?:(.+?)\s*@\s*|(\S+)\s+)(\d+)(?:\s+(.+))?$", re.IGNORECASE)


def _roster(ctx: _Context, text: str) -> tuple[Token, Roster]:
    token = own_token(ctx, text)
    lst = ctx.state.list_of(token)
    if lst is None:
        raise IllegalOrder(f"{token.id} is a defensive token: it has no list to repair (DR-TOK-13)")
    if lst.roster.empty:
        raise IllegalOrder(f"the list of {token.id} has no registered entries")
    return token, lst.roster


def repair_item(roster: Roster, text: str) -> RepairItem:
    """One plan entry: `3 model U1 @10`, `1 wound M1 @50`, `item C1 @15 Shield` (DR-REP-10)."""
    text = text.strip()
    found = _REPAIR.match(text)
    if found:
        count, kind, target, cost = found.groups()
        entry = roster.entry(target)
        return RepairItem(kind.lower().rstrip("s"), entry.id, int(count or 1), (cost or "").strip())
    found = _ITEM.match(text)
    if found:
        named, word, points, name = found.groups()
        return RepairItem("item", roster.entry(named or word).id, 1, points, (name or "").strip())
    raise InvalidOrder(f"a repair entry reads `<n> model <entry> [@<cost>]`, `<n> wound <entry> [@<cost>]` or "
                       f"`item <entry> @<points> [<name>]`, not {quoted(text)}", suggestion="3 model U1 @10")


def _repair(ctx: _Context, fo: FactionOrders, rest: str) -> str:
    first, _, plan = rest.partition(" ")
    if not first or not plan.strip():
        raise InvalidOrder("REPAIR needs a token and its plan", suggestion="REPAIR R-1 3 model U1 @10; item C1 @15")
    token, roster = _roster(ctx, first)
    items = [repair_item(roster, part) for part in re.split(r"[;,]", plan) if part.strip()]
    fo.repairs[token.id] = items
    return format_repair(token.id, items)


def format_repair(token: str, items: list[RepairItem]) -> str:
    return f"REPAIR {token} {'; '.join(str(i) for i in items)}"


def _choose(ctx: _Context, fo: FactionOrders, rest: str) -> str:
    words = rest.split()
    if len(words) < 3:
        raise InvalidOrder("CHOOSE needs a token, an entry and a stat", suggestion="CHOOSE R-1 U3 I")
    token, roster = _roster(ctx, words[0])
    entry, wanted = roster.entry(" ".join(words[1:-1])), stat(words[-1])
    offered = [s for e, m in open_choices(roster) if e is entry
               for s in allowed(ctx.rules, entry, m.value, m.name) if s != m.name]
    if wanted not in offered:
        raise IllegalOrder(f"{token.id} {entry.id} has no open experience choice that offers {wanted}",
                           suggestion=", ".join(dict.fromkeys(offered)))
    fo.choices.setdefault(token.id, {})[entry.id] = wanted
    return f"CHOOSE {token.id} {entry.id} {wanted}"


_FIELDS: dict[str, Callable[[_Context, FactionOrders, str], str]] = {
    "RETREAT": _retreat, "ROLLOFF": _rolloff, "ROLL-OFF": _rolloff, "PLACE": _place, "REMOVE": _remove,
    "REPAIR": _repair, "CHOOSE": _choose,
}


# --- whole submissions ------------------------------------------------------------------

def parse_orders(
    state: DRState, gmap: GameMap, rules: RuleBook, faction: str, lines: list[tuple[int, str]],
) -> Parsed:
    """A faction's orders-window submission (DR-ORD-1, DR-ORD-9, DR-TRN-2).

    A second order for the same token replaces the first, even when the second is
    rejected (the token then holds); the replaced line gets a note.
    """
    ctx = _Context(state, gmap, rules, faction)
    parsed = Parsed(FactionOrders())
    order_lines: dict[str, tuple[int, str]] = {}
    for line_no, line in lines:
        keyword = line.split(maxsplit=1)[0].upper()
        if keyword in ENVELOPE_COMMANDS:
            parsed.commands.append(line)
        elif keyword in _FIELDS:
            _field_line(ctx, parsed, line_no, line, keyword)
        else:
            _order_line(ctx, parsed, order_lines, line_no, line)
    parsed.problems.sort(key=lambda problem: problem.line_no)
    return parsed


def _field_line(ctx: _Context, parsed: Parsed, line_no: int, line: str, keyword: str) -> None:
    rest = line.split(maxsplit=1)[1] if len(line.split(maxsplit=1)) > 1 else ""
    try:
        parsed.accepted.append((line_no, _FIELDS[keyword](ctx, parsed.orders, rest)))
    except OrderProblem as problem:
        parsed.problems.append(problem.at(line_no, line))


def _order_line(ctx: _Context, parsed: Parsed, seen: dict[str, tuple[int, str]], line_no: int, line: str) -> None:
    fo = parsed.orders
    try:
        ident = _line_token(ctx, line)
    except OrderProblem as problem:
        parsed.problems.append(problem.at(line_no, line))
        return
    if ident in seen:
        _replace(parsed, ident, seen[ident], line_no)
    seen[ident] = (line_no, line)
    if ident not in fo.explicit:
        fo.explicit.append(ident)
    try:
        order = parse_order(ctx, line)
    except OrderProblem as problem:
        parsed.problems.append(problem.at(line_no, line))
        return
    fo.orders[ident] = order
    parsed.accepted.append((line_no, str(order)))


FIELD_WORDS = ("RETREAT", "ROLLOFF", "PLACE", "REMOVE", "REPAIR", "CHOOSE")
"""The words a line that orders no token starts with."""


def _line_token(ctx: _Context, line: str) -> str:
    """The submitter's token a line orders; anything else is not an order line."""
    first = line.replace("->", " -> ").split()[0]
    if not _TOKEN.match(first):
        raise NotAnOrder("not understood: an order starts with a token id, a field starts with "
                         + ", ".join(FIELD_WORDS[:-1]) + f" or {FIELD_WORDS[-1]}",
                         suggestion=NameIndex({w: () for w in FIELD_WORDS}, what="order").suggest(first))
    return own_token(ctx, first).id


def _replace(parsed: Parsed, ident: str, earlier: tuple[int, str], line_no: int) -> None:
    old_no, old_line = earlier
    parsed.orders.orders.pop(ident, None)
    parsed.accepted = [(n, text) for n, text in parsed.accepted if n != old_no]
    note = IllegalOrder(f"{ident} has another order on line {line_no}, which replaces this one")
    parsed.problems.append(note.at(old_no, old_line))


# --- formatting back ------------------------------------------------------------------

def _token_key(ident: str) -> tuple[str, int, int]:
    faction, _, tail = ident.rpartition("-")
    return (faction, 1, int(tail[1:])) if tail.startswith("D") else (faction, 0, int(tail))


def format_faction_orders(fo: FactionOrders) -> list[str]:
    """Canonical lines for a submission; `parse_orders` reads them back unchanged."""
    lines = [str(fo.orders[t]) for t in sorted(fo.orders, key=_token_key)]
    lines += [f"RETREAT {t} {' '.join(fo.retreats[t])}" for t in sorted(fo.retreats, key=_token_key)]
    lines += [f"ROLLOFF {' '.join(fo.rolloff_against)}"] if fo.rolloff_against else []
    lines += [f"PLACE {' '.join(fo.placement)}"] if fo.placement else []
    lines += [f"REMOVE {' '.join(fo.removal)}"] if fo.removal else []
    lines += [format_repair(t, fo.repairs[t]) for t in sorted(fo.repairs, key=_token_key)]
    lines += [f"CHOOSE {t} {e} {s}" for t in sorted(fo.choices, key=_token_key)
              for e, s in sorted(fo.choices[t].items())]
    return lines


# --- window 3: retreats ---------------------------------------------------------------

def parse_retreats(
    state: DRState, gmap: GameMap, faction: str, lines: list[tuple[int, str]], options: dict[str, list[str]],
) -> tuple[dict[str, str], list[tuple[int, str]], list[OrderProblem]]:
    """Retreat-window answers: `R-1 R T4`, `R-1 T4` or `R-1 DISBAND` (DR-RET-9, DR-RET-11).

    `options` maps each token that owes a retreat to its allowed territories. The
    result maps token -> territory, or `DISBAND`; a later line for a token wins.
    """
    chosen: dict[str, str] = {}
    accepted: list[tuple[int, str]] = []
    problems: list[OrderProblem] = []
    for line_no, line in lines:
        if line.split(maxsplit=1)[0].upper() in ENVELOPE_COMMANDS:
            continue
        try:
            token, where = _retreat_line(state, gmap, faction, line, options)
        except OrderProblem as problem:
            problems.append(problem.at(line_no, line))
            continue
        chosen[token] = where
        accepted = [(n, text) for n, text in accepted if not text.startswith(f"{token} ")]
        accepted.append((line_no, f"{token} DISBAND" if where == DISBAND else f"{token} R {where}"))
    return chosen, accepted, problems


def _retreat_line(
    state: DRState, gmap: GameMap, faction: str, line: str, options: dict[str, list[str]],
) -> tuple[str, str]:
    words = line.split()
    ctx = _Context(state, gmap, RuleBook({}), faction)
    token = own_token(ctx, words[0])
    rest = words[2:] if len(words) > 2 and words[1].upper() in {"R", "RETREAT"} else words[1:]
    if token.id not in options:
        raise IllegalOrder(f"{token.id} owes no retreat")
    if [w.upper() for w in rest] == ["DISBAND"]:
        return token.id, DISBAND
    named = territories(gmap, " ".join(rest))
    if len(named) != 1:
        raise InvalidOrder("a retreat names one territory, or DISBAND", suggestion=f"{token.id} R <territory>")
    if named[0] not in options[token.id]:
        allowed = ", ".join(options[token.id]) or "none (DISBAND)"
        raise IllegalOrder(f"{token.id} may not retreat to {named[0]}", suggestion=allowed)
    return token.id, named[0]
