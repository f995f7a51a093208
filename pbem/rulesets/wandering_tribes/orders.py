"""Reading a strategic order by mail (WT-PBEM-1/2): the catalog's conditional order, line by line.

    REST IF-ALLOWED | NO
    DIVIDE A1 INTO A1:m1,m3,m5 A1b:m2,m4,m6
    TRY A1b UNTIL-SUCCESS FIRST E,S ROUTE T7,T8 FORK T8:S,E DEFAULT N,E CAMPFIRE STOP-AT:T8
    RECRUIT A1 towns: 2 Halberdiers, 1 Knights        (or RECRUIT ALL plains: ...)
    REMOVE A1 Crossbowmen, m12                         (or REMOVE ALL ...)
    VOLUNTEER YES | NO                                 (mode one_on_one)

Every line is checked against the player's own stacks and markers, the map and his nation's
table; a faulty line is refused with its reason and a suggestion, the others are kept. A line
the rules refuse is never stored.
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field

from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder, OrderProblem
from pbem.rulesets.wandering_tribes import divide
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.nations import TERRAINS, canonical
from pbem.rulesets.wandering_tribes.plan import (
    ALL,
    ALWAYS,
    PASS,
    STOP,
    STOP_AT,
    UNTIL_SUCCESS,
    Attempt,
    Division,
    RoundOrders,
)
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import SIDES, SquareMap

WORDS = ("REST", "DIVIDE", "TRY", "RECRUIT", "REMOVE", "VOLUNTEER")
TRY_KEYS = ("FIRST", "ROUTE", "FORK", "DEFAULT", "CAMPFIRE")


@dataclass
class Reading:
    orders: RoundOrders = field(default_factory=lambda: RoundOrders(rest=False))
    accepted: list[tuple[int, str]] = field(default_factory=list)
    problems: list[OrderProblem] = field(default_factory=list)


@dataclass
class Context:
    state: State
    rules: Rules
    gmap: SquareMap
    player: str

    @property
    def nation(self) -> str:
        return self.state.players[self.player].nation

    def own_ids(self, orders: RoundOrders) -> list[str]:
        made = [n for d in orders.divisions for n, _ in d.parts]
        return [s.id for s in self.state.stacks_of(self.player)] + made


def read(ctx: Context, lines: Sequence[tuple[int, str]]) -> Reading:
    """Every line read; without a REST line the player does not rest (gap 27)."""
    out = Reading()
    for line_no, line in lines:
        try:
            _line(ctx, out.orders, line)
            out.accepted.append((line_no, line))
        except OrderProblem as problem:
            out.problems.append(problem.at(line_no, line))
    return out


def _suggest(word: str, choices: Sequence[str]) -> str:
    found = difflib.get_close_matches(word.upper(), [c.upper() for c in choices], n=1, cutoff=0.6)
    return next((c for c in choices if found and c.upper() == found[0]), "")


def _line(ctx: Context, orders: RoundOrders, line: str) -> None:
    words = line.split()
    verb = words[0].upper()
    if verb not in WORDS:
        raise NotAnOrder(f"{words[0]} is not an order; orders start with {', '.join(WORDS)}",
                           suggestion=_suggest(verb, WORDS))
    {"REST": _rest, "DIVIDE": _divide, "TRY": _try, "RECRUIT": _recruit, "REMOVE": _remove,
     "VOLUNTEER": _volunteer}[verb](ctx, orders, words[1:])


def _rest(ctx: Context, orders: RoundOrders, words: list[str]) -> None:
    choice = " ".join(words).upper()
    if choice not in ("IF-ALLOWED", "NO"):
        raise InvalidOrder("write REST IF-ALLOWED or REST NO", suggestion=_suggest(choice, ["IF-ALLOWED", "NO"]))
    orders.rest = choice == "IF-ALLOWED"


def _volunteer(ctx: Context, orders: RoundOrders, words: list[str]) -> None:
    choice = " ".join(words).upper()
    if choice not in ("YES", "NO"):
        raise InvalidOrder("write VOLUNTEER YES or VOLUNTEER NO")
    if ctx.rules.mode != "one_on_one":
        raise IllegalOrder("VOLUNTEER is for mode one_on_one; this campaign pairs idle players instead")
    orders.volunteer = choice == "YES"


def _stack(ctx: Context, orders: RoundOrders, word: str, allow_all: bool = False) -> str:
    mine = ctx.own_ids(orders)
    if allow_all and word.upper() == ALL:
        return ALL
    match = next((s for s in mine if s.casefold() == word.casefold()), "")
    if match:
        return match
    if word in ctx.state.stacks:
        raise IllegalOrder(f"{word} is {ctx.state.stacks[word].owner}'s stack, not yours; yours are {', '.join(mine)}")
    raise InvalidOrder(f"{word} is not one of your stacks ({', '.join(mine) or 'none'})",
                       suggestion=_suggest(word, mine))


def _divide(ctx: Context, orders: RoundOrders, words: list[str]) -> None:
    if len(words) < 4 or words[1].upper() != "INTO":
        raise InvalidOrder("write DIVIDE <stack> INTO <new-id>:<marker,...> <new-id>:<marker,...>")
    stack = _stack(ctx, orders, words[0])
    parts = []
    for word in words[2:]:
        name, _, ids = word.partition(":")
        if not name or not ids:
            raise InvalidOrder(f"{word}: write each part as <new-id>:<marker,...>, like A1b:m2,m4,m6")
        parts.append((name, [i for i in ids.split(",") if i]))
    division = Division(stack, parts)
    wrong = divide.problems(ctx.state, ctx.rules, ctx.player, division, at_intake=True)
    if wrong:
        raise IllegalOrder("; ".join(wrong))
    orders.divisions.append(division)


def _sides(text: str) -> list[str]:
    out = [s.upper() for s in text.split(",") if s]
    bad = [s for s in out if s not in SIDES]
    if bad or not out:
        raise InvalidOrder(f"{text}: directions are N, E, S, W, like E,S")
    return out


def _tiles(ctx: Context, text: str) -> list[str]:
    out = []
    for word in (w for w in text.split(",") if w):
        try:
            out.append(ctx.gmap.lookup(word))
        except OrderProblem as problem:
            raise InvalidOrder(f"{word} is not a tile of the map", suggestion=problem.suggestion) from None
    return out


def _try(ctx: Context, orders: RoundOrders, words: list[str]) -> None:
    if len(words) < 2 or words[1].upper() not in ("UNTIL-SUCCESS", "ALWAYS"):
        raise InvalidOrder("write TRY <stack> UNTIL-SUCCESS|ALWAYS [FIRST ...] [ROUTE ...] [FORK ...] "
                           "[DEFAULT ...] [CAMPFIRE STOP|PASS|STOP-AT:<tiles>]")
    entry = Attempt(_stack(ctx, orders, words[0]), UNTIL_SUCCESS if words[1].upper() == "UNTIL-SUCCESS" else ALWAYS)
    rest = words[2:]
    if len(rest) % 2:
        raise InvalidOrder(f"{rest[-1]} needs a value after it")
    for key, value in zip(rest[::2], rest[1::2], strict=True):
        _try_part(ctx, entry, key.upper(), value)
    if any(e.stack == entry.stack for e in orders.attempts):
        raise IllegalOrder(f"{entry.stack} is already in your attempt list; a stack is tried at most once")
    _route_check(ctx, orders, entry)
    orders.attempts.append(entry)


def _try_part(ctx: Context, entry: Attempt, key: str, value: str) -> None:
    if key == "FIRST":
        entry.first = _sides(value)
    elif key == "ROUTE":
        entry.route = _tiles(ctx, value)
    elif key == "DEFAULT":
        entry.default = _sides(value)
    elif key == "FORK":
        tile, _, sides = value.partition(":")
        entry.forks[_tiles(ctx, tile)[0]] = _sides(sides)
    elif key == "CAMPFIRE":
        _campfire(ctx, entry, value)
    else:
        raise InvalidOrder(f"{key} is not part of a TRY line; use {', '.join(TRY_KEYS)}",
                           suggestion=_suggest(key, TRY_KEYS))


def _campfire(ctx: Context, entry: Attempt, value: str) -> None:
    upper = value.upper()
    if upper in ("STOP", "PASS"):
        entry.campfire = STOP if upper == "STOP" else PASS
    elif upper.startswith("STOP-AT:"):
        entry.campfire, entry.stop_at = STOP_AT, _tiles(ctx, value.split(":", 1)[1])
    else:
        raise InvalidOrder("write CAMPFIRE STOP, CAMPFIRE PASS or CAMPFIRE STOP-AT:<tile,...>")


def _route_check(ctx: Context, orders: RoundOrders, entry: Attempt) -> None:
    """A planned route must follow tiles that touch one after another (the arrows are judged as
    the stack moves: a route that leaves the roads is dropped there, gap 27)."""
    stack = ctx.state.stacks.get(entry.stack)
    start = stack.tile if stack else next((ctx.state.stacks[d.stack].tile for d in orders.divisions
                                           if any(n == entry.stack for n, _ in d.parts)), "")
    here = start
    for tile in entry.route:
        side = ctx.gmap.side_of(here, tile) if here else ""
        if here and not side:
            raise IllegalOrder(f"ROUTE: {tile} is not next to {here}; a route goes tile by tile along the roads")
        if here and side not in ctx.gmap.exits(here):
            raise IllegalOrder(f"ROUTE: no road leaves {here} towards {tile} ({side}); the route leaves the roads",
                               suggestion=",".join(ctx.gmap.exits(here)))
        here = tile


def _recruit(ctx: Context, orders: RoundOrders, words: list[str]) -> None:
    head, _, tail = " ".join(words).partition(":")
    parts = head.split()
    if len(parts) != 2 or not tail.strip():
        raise InvalidOrder("write RECRUIT <stack|ALL> <terrain>: <n> <type>, <n> <type>")
    stack = _stack(ctx, orders, parts[0], allow_all=True)
    terrain = parts[1].lower()
    if terrain not in TERRAINS:
        raise InvalidOrder(f"{parts[1]} is not a terrain ({', '.join(TERRAINS)})",
                           suggestion=_suggest(terrain, TERRAINS))
    nation = ctx.rules.nations[ctx.nation]
    cell = [o.type for o in nation.cell(terrain)]
    picks = [_pick(ctx, item.strip(), cell, terrain) for item in tail.split(",") if item.strip()]
    types = [t for t, _ in picks]
    if len(set(types)) < len(types):
        raise IllegalOrder(f"a type is named twice in the {terrain} list; rank each type once")
    orders.recruit.setdefault(stack, {})[terrain] = picks


def _pick(ctx: Context, item: str, cell: list[str], terrain: str) -> tuple[str, int]:
    count, _, name = item.partition(" ")
    if not count.isdigit() or not name.strip() or int(count) < 1:
        raise InvalidOrder(f"{item}: write a count and a type, like 2 Halberdiers")
    type_ = canonical(name.strip(), ctx.rules["aliases"])
    match = next((t for t in cell if t.casefold() == type_.casefold()), "")
    if not match:
        offered = ", ".join(cell) or "nothing"
        raise IllegalOrder(f"{name.strip()} cannot be recruited in {terrain} by your nation (it offers {offered})",
                           suggestion=_suggest(type_, cell))
    return match, int(count)


def _remove(ctx: Context, orders: RoundOrders, words: list[str]) -> None:
    if len(words) < 2:
        raise InvalidOrder("write REMOVE <stack|ALL> <marker or type>, <marker or type>, ...")
    stack = _stack(ctx, orders, words[0], allow_all=True)
    nation = ctx.rules.nations[ctx.nation]
    known_ids = {m.id for s in ctx.state.stacks_of(ctx.player) for m in s.markers}
    entries = []
    for item in (i.strip() for i in " ".join(words[1:]).split(",") if i.strip()):
        type_ = canonical(item, ctx.rules["aliases"])
        match = next((t for t in nation.entries if t.casefold() == type_.casefold()), "")
        if item in known_ids or match:
            entries.append(item if item in known_ids else match)
            continue
        raise InvalidOrder(f"{item} is neither one of your markers nor a {nation.name} type",
                           suggestion=_suggest(item, list(nation.entries)))
    orders.remove[stack] = entries


def canonical_lines(orders: RoundOrders) -> list[str]:
    """The order as the processor will apply it, one line each, in the mail syntax."""
    out = [f"REST {'IF-ALLOWED' if orders.rest else 'NO'}"]
    out += [f"DIVIDE {d.stack} INTO " + " ".join(f"{n}:{','.join(ids)}" for n, ids in d.parts)
            for d in orders.divisions]
    out += [_try_line(e) for e in orders.attempts]
    for stack, cells in orders.recruit.items():
        out += [f"RECRUIT {stack} {t}: " + ", ".join(f"{n} {ty}" for ty, n in picks) for t, picks in cells.items()]
    out += [f"REMOVE {stack} " + ", ".join(items) for stack, items in orders.remove.items()]
    if orders.volunteer is not None:
        out.append(f"VOLUNTEER {'YES' if orders.volunteer else 'NO'}")
    return out


def _try_line(entry: Attempt) -> str:
    words = ["TRY", entry.stack, "UNTIL-SUCCESS" if entry.mode == UNTIL_SUCCESS else "ALWAYS"]
    if entry.first:
        words += ["FIRST", ",".join(entry.first)]
    if entry.route:
        words += ["ROUTE", ",".join(entry.route)]
    for tile, sides in entry.forks.items():
        words += ["FORK", f"{tile}:{','.join(sides)}"]
    if entry.default:
        words += ["DEFAULT", ",".join(entry.default)]
    camp = {STOP: "STOP", PASS: "PASS"}.get(entry.campfire, "STOP-AT:" + ",".join(entry.stop_at))
    return " ".join([*words, "CAMPFIRE", camp])
