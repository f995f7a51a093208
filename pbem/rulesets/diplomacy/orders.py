"""Diplomacy orders in the standard notation: one class per order type.

Each class parses its line (`Order.parse`) and writes the canonical form back
(`str(order)`), so an acknowledgement can quote what pbem understood. Parsing
knows the map but not the position; `validate` then checks an order against the
unit it commands and raises `IllegalOrder` with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import ClassVar

from pbem.kit.orders import IllegalOrder, InvalidOrder, NotAnOrder, normalise, quoted
from pbem.rulesets.diplomacy.board import COAST_NAMES, Board, SeaRoutes, province_of
from pbem.rulesets.diplomacy.units import KIND_WORDS, Unit

PHASES = ("movement", "retreat", "adjustment")
_MEMO_TABLES = {phase: f"orders {phase}" for phase in PHASES}
_NO_UNITS: Mapping[str, Unit] = MappingProxyType({})

VERBS: dict[str, str] = {}
for _verb, _words in {
    "hold": ("h", "hold", "holds", "stand", "stands"),
    "move": ("-", "m", "move", "moves"),
    "support": ("s", "support", "supports"),
    "convoy": ("c", "convoy", "convoys"),
    "via": ("via",),
    "retreat": ("r", "retreat", "retreats"),
    "disband": ("d", "disband", "disbands", "remove", "removes"),
    "build": ("b", "build", "builds"),
    "waive": ("waive", "waives"),
}.items():
    VERBS.update(dict.fromkeys(_words, _verb))

_COAST_ALIASES = {alias: coast for coast, aliases in COAST_NAMES.items() for alias in aliases}
# The same words as typed most often (upper or lower case), so the quick reader
# looks most tokens up without case-folding them first.
_QUICK_KINDS = {**{w.upper(): k for w, k in KIND_WORDS.items()}, **KIND_WORDS}
_QUICK_VERBS = {**{w.upper(): v for w, v in VERBS.items()}, **VERBS}


# ---------------------------------------------------------------- locations


def parse_location(text: str, board: Board) -> str:
    """A location typed by a player -> `PROV` or `PROV/COAST` (coast checked to exist)."""
    name, _, coast_text = text.partition("/")
    prov = board.province(name.strip())
    if not coast_text:
        return prov
    coast = _COAST_ALIASES.get(normalise(coast_text))
    province = board.provinces[prov]
    if coast is None or coast not in province.coasts:
        raise InvalidOrder(f"{province.name} has no coast {coast_text.strip()!r}",
                           suggestion=" or ".join(board.locations(prov)) if province.coasts else prov)
    return f"{prov}/{coast}"


def _tokens(text: str, board: Board) -> list[str]:
    if "(" in text:
        text = re.sub(r"\s*\(\s*([A-Za-z ]+?)\s*\)", lambda m: "/" + m.group(1).replace(" ", ""), text)
    if "/" in text:
        text = re.sub(r"\s*/\s*", "/", text)
    for dash in ("->", "=>", "\u2013", "\u2014"):
        if dash in text:
            text = text.replace(dash, " - ")
    out: list[str] = []
    for word in text.split():
        if "-" in word and word != "-":
            out.extend(_split_hyphens(word, board))
        else:
            out.append(word)
    return out


def _split_hyphens(word: str, board: Board) -> list[str]:
    """`PAR-BUR` is a move; `Mid-Atlantic` is a name: split only when both halves are places."""
    if "-" not in word or word == "-":
        return [word]
    parts = word.split("-")
    if any(board.names.find(part.split("/")[0]) is None for part in parts):     # no "did you mean" per part
        return [word]
    out = [parts[0]]
    for part in parts[1:]:
        out += ["-", part]
    return [w for w in out if w]


class _Cursor:
    """Walks the words of one order."""

    def __init__(self, words: list[str], board: Board) -> None:
        self.words, self.i, self.board = words, 0, board

    def peek_verb(self) -> str:
        return self._verb_at(self.i)

    def _verb_at(self, i: int) -> str:
        return VERBS.get(self.words[i].casefold(), "") if i < len(self.words) else ""

    def at_end(self) -> bool:
        return self.i >= len(self.words)

    def verb(self) -> str:
        verb = self.peek_verb()
        if verb:
            self.i += 1
        return verb

    def unit(self, kind_required: bool = True) -> tuple[str, str]:
        kind = ""
        if self.i < len(self.words) and self.words[self.i].casefold() in KIND_WORDS:
            kind = KIND_WORDS[self.words[self.i].casefold()]
            self.i += 1
        elif kind_required:
            raise NotAnOrder("expected a unit type, A or F")
        return kind, self.location()

    def location(self) -> str:
        if self.i < len(self.words):
            exact = self.board.location_ids.get(self.words[self.i].upper())
            if exact is not None and (self.i + 1 == len(self.words) or self._verb_at(self.i + 1)):
                self.i += 1
                return exact
        start = self.i
        while self.i < len(self.words) and not self.peek_verb():
            self.i += 1
        if start == self.i:
            raise InvalidOrder("expected a province")
        return parse_location(" ".join(self.words[start:self.i]), self.board)

    def end(self) -> None:
        if not self.at_end():
            raise InvalidOrder(f"unexpected {quoted(' '.join(self.words[self.i:]))} at the end")


# ---------------------------------------------------------------- base


@dataclass(slots=True, unsafe_hash=True)
class Order:
    """An order for the unit of type `kind` at location `loc`.

    Orders are values: compared and hashed by their fields, shared through the
    reading memo, never changed (`dataclasses.replace` makes a new one). They
    are slotted rather than frozen because a frozen dataclass sets each field
    through `object.__setattr__`, which makes reading a new line several times
    slower."""

    kind: str
    loc: str
    province: str = field(init=False, repr=False, compare=False)
    # The canonical form (what `str` gives), formed once with the order: results
    # quote it, and memoised orders serve many phases.
    text: str = field(init=False, repr=False, compare=False)

    verb: ClassVar[str] = ""
    phases: ClassVar[tuple[str, ...]] = ("movement",)

    def __post_init__(self) -> None:
        self.province = province_of(self.loc)
        self.text = self._format()

    # The four orders of a movement phase (Hold, Move, Support, Convoy) write
    # their own __init__, deriving `province` and `text` in the same call (with
    # province_of written out): a phase read afresh builds one per line, and the
    # generated __init__ with its chain of __post_init__, province_of and
    # _format calls costs twice as much.

    @property
    def unit_text(self) -> str:
        return f"{self.kind} {self.loc}"

    def __str__(self) -> str:
        return self.text

    def _format(self) -> str:
        """The canonical form, from the order's own fields (each type writes
        out "T LOC" itself: it is formed for every new line read)."""
        return self.unit_text

    @classmethod
    def parse(cls, text: str, board: Board, phase: str = "movement") -> Order:
        """Read one order; raises InvalidOrder / AmbiguousOrder / IllegalOrder.

        Orders are immutable and their reading depends only on the map and the
        phase, so each distinct line is read once and then served from a memo
        kept with the board (the same lines recur from phase to phase)."""
        return order_reader(board, phase)(text)

    @classmethod
    def read(cls, kind: str, loc: str, cur: _Cursor) -> Order:
        return cls(kind, loc)

    @classmethod
    def read_after_verb(cls, cur: _Cursor) -> Order:
        kind, loc = cur.unit()
        return cls(kind, loc)

    def matches(self, unit: Unit) -> None:
        """Check that this order names `unit` (its type; the coast of a fleet may be left out)."""
        if self.kind != unit.kind:
            have = "an army" if unit.kind == "A" else "a fleet"
            raise IllegalOrder(f"the unit in {unit.province} is {have}", suggestion=f"{unit.kind} {unit.loc}")

    def validate(
        self, board: Board, unit: Unit, units: Mapping[str, Unit] = _NO_UNITS, routes: SeaRoutes | None = None
    ) -> Order:
        """The order as `unit` will try it (at the unit's own location), or
        IllegalOrder; `units` are the units on the board by province, `routes`
        the convoys the fleets now at sea could make. Each order type adds its checks."""
        return self if self.loc == unit.loc else type(self)(self.kind, unit.loc)


def order_memo(board: Board, phase: str) -> dict[str, Order]:
    """The lines of `phase` already read on this board, and their orders."""
    return board.memo(_MEMO_TABLES.get(phase) or f"orders {phase}")


def order_reader(board: Board, phase: str) -> Callable[[str], Order]:
    """`Order.parse` for the many lines of one phase, with the memo looked up once."""
    memo = order_memo(board, phase)

    def read(text: str) -> Order:
        order = memo.get(text)
        if order is None:
            order = memo[text] = read_line(text, board, phase)
        return order

    return read


def read_line(text: str, board: Board, phase: str) -> Order:
    """Read one line of orders without the memo (its callers keep one)."""
    return read_short(text.split(), board, phase) or read_fully(text, board, phase)


def read_fully(text: str, board: Board, phase: str) -> Order:
    """Read any line of orders `read_short` leaves: full names, odd spacing, mistakes."""
    cur = _Cursor(_tokens(text, board), board)
    if cur.at_end():
        raise InvalidOrder("empty order")
    lead = cur.peek_verb()
    if lead in ("build", "disband", "waive"):
        cur.verb()
        order = _LEADING[lead].read_after_verb(cur)
    else:
        kind, loc = cur.unit()
        verb = cur.verb()
        if verb == "move" and phase == "retreat":
            verb = "retreat"
        if verb not in _BY_VERB:
            raise InvalidOrder("expected an order such as H, -, S, C, R, D or B after the unit")
        order = _BY_VERB[verb].read(kind, loc, cur)
    cur.end()
    if phase not in order.phases:
        raise IllegalOrder(f"{order.verb} orders are not allowed in the {phase} phase")
    return order


@dataclass(slots=True, unsafe_hash=True)
class Hold(Order):
    verb: ClassVar[str] = "hold"

    def __init__(self, kind: str, loc: str) -> None:
        self.kind, self.loc = kind, loc
        self.province = loc if "/" not in loc else loc[: loc.index("/")]
        self.text = f"{kind} {loc} H"


@dataclass(slots=True, unsafe_hash=True)
class Move(Order):
    dst: str = ""
    via_convoy: bool = False
    target: str = field(init=False, repr=False, compare=False)

    verb: ClassVar[str] = "move"

    def __init__(self, kind: str, loc: str, dst: str = "", via_convoy: bool = False) -> None:
        self.kind, self.loc, self.dst, self.via_convoy = kind, loc, dst, via_convoy
        self.province = loc if "/" not in loc else loc[: loc.index("/")]
        self.target = dst if "/" not in dst else dst[: dst.index("/")]
        self.text = f"{kind} {loc} - {dst} VIA CONVOY" if via_convoy else f"{kind} {loc} - {dst}"

    @classmethod
    def read(cls, kind: str, loc: str, cur: _Cursor) -> Order:
        dst = cur.location()
        via = cur.verb() == "via"
        if via and cur.peek_verb() == "convoy":
            cur.verb()
        return cls(kind, loc, dst, via)

    def validate(
        self, board: Board, unit: Unit, units: Mapping[str, Unit] = _NO_UNITS, routes: SeaRoutes | None = None
    ) -> Move:
        """The move as it will be tried (fleet coast filled in), or IllegalOrder.

        An army may name a province it cannot reach over land when fleets now at
        sea could convoy it there; without `routes` (retreats) it may not."""
        target = self.target
        if target == unit.province:
            raise IllegalOrder("a unit cannot move to the province it is in")
        if unit.kind == "F":
            return self._fleet(board, unit)
        if target in board.seas:
            raise IllegalOrder(f"an army cannot move to {board.provinces[target].name}")
        if target not in board.army_adj[unit.loc] and not (
            routes is not None and routes.possible(unit.province, target)
        ):
            raise IllegalOrder(f"{target} is not adjacent to {unit.province} and no fleets at sea can convoy there")
        if self.loc == unit.loc and self.dst == target:
            return self
        return Move(self.kind, unit.loc, target, self.via_convoy)

    def _fleet(self, board: Board, unit: Unit) -> Move:
        if self.via_convoy:
            raise IllegalOrder("only armies can be convoyed")
        if self.dst != self.target:
            if not board.can_move("F", unit.loc, self.dst):
                raise IllegalOrder(f"a fleet in {unit.loc} cannot reach {self.dst}")
            return self if self.loc == unit.loc else Move(self.kind, unit.loc, self.dst)
        options = board.fleet_targets(unit.loc, self.target)
        if not options:
            raise IllegalOrder(f"a fleet in {unit.loc} cannot reach {self.target}")
        if len(options) > 1:
            raise IllegalOrder(f"say which coast of {self.target}", suggestion=" or ".join(sorted(options)))
        if self.loc == unit.loc and self.dst == options[0]:
            return self
        return Move(self.kind, unit.loc, options[0])


@dataclass(slots=True, unsafe_hash=True)
class Support(Order):
    """Support to hold (`dst` empty) or to move into province `dst`."""

    target_kind: str = ""
    target_loc: str = ""
    dst: str = ""
    dst_coast: str = ""
    """The coast a support to move names, if any: it must be the coast the move goes to
    (DATC 6.B.9, the preferred ruling), while a support naming no coast fits either."""
    target: str = field(init=False, repr=False, compare=False)
    aim: str = field(init=False, repr=False, compare=False)

    verb: ClassVar[str] = "support"

    def __init__(
        self, kind: str, loc: str, target_kind: str = "", target_loc: str = "", dst: str = "", dst_coast: str = ""
    ) -> None:
        """`aim` is the province the support goes into: an attack from there does not cut it."""
        self.kind, self.loc, self.target_kind, self.target_loc = kind, loc, target_kind, target_loc
        self.dst, self.dst_coast = dst, dst_coast
        self.province = loc if "/" not in loc else loc[: loc.index("/")]
        self.target = target_loc if "/" not in target_loc else target_loc[: target_loc.index("/")]
        self.aim = (dst if "/" not in dst else dst[: dst.index("/")]) if dst else self.target
        supported = f"{target_kind} {target_loc}".strip()
        into = f"{dst}/{dst_coast}" if dst_coast else dst
        self.text = f"{kind} {loc} S {supported} - {into}" if dst else f"{kind} {loc} S {supported}"

    @classmethod
    def read(cls, kind: str, loc: str, cur: _Cursor) -> Order:
        target_kind, target_loc = cur.unit(kind_required=False)
        verb = cur.verb()
        if verb == "move":
            into = cur.location()
            return cls(kind, loc, target_kind, target_loc, province_of(into), into.partition("/")[2])
        if verb not in ("", "hold"):
            raise InvalidOrder("a support is 'S A PAR' (to hold) or 'S A PAR - BUR' (to move)")
        return cls(kind, loc, target_kind, target_loc, "")

    def validate(
        self, board: Board, unit: Unit, units: Mapping[str, Unit] = _NO_UNITS, routes: SeaRoutes | None = None
    ) -> Support:
        supported = units.get(self.target)
        if supported is None:
            raise IllegalOrder(f"there is no unit in {self.target} to support")
        if self.target_kind and self.target_kind != supported.kind:
            kind = "an army" if self.target_kind == "A" else "a fleet"
            raise IllegalOrder(f"the unit in {self.target} is not {kind}")
        if self.target == unit.province:
            raise IllegalOrder("a unit cannot support itself")
        if not board.can_reach(unit.kind, unit.loc, self.aim):
            raise IllegalOrder(f"{unit.kind} {unit.loc} cannot reach {self.aim}, so cannot support there")
        if self.loc == unit.loc and self.target_kind == supported.kind and self.target_loc == supported.loc:
            return self
        return Support(self.kind, unit.loc, supported.kind, supported.loc, self.dst, self.dst_coast)


@dataclass(slots=True, unsafe_hash=True)
class Convoy(Order):
    army_loc: str = ""
    dst: str = ""

    verb: ClassVar[str] = "convoy"

    def __init__(self, kind: str, loc: str, army_loc: str = "", dst: str = "") -> None:
        self.kind, self.loc, self.army_loc, self.dst = kind, loc, army_loc, dst
        self.province = loc if "/" not in loc else loc[: loc.index("/")]
        self.text = f"{kind} {loc} C A {army_loc} - {dst}"

    @classmethod
    def read(cls, kind: str, loc: str, cur: _Cursor) -> Order:
        army_kind, army_loc = cur.unit(kind_required=False)
        if army_kind == "F":
            raise IllegalOrder("only armies can be convoyed")
        if cur.verb() != "move":
            raise InvalidOrder("a convoy is 'C A LON - BEL'")
        return cls(kind, loc, province_of(army_loc), province_of(cur.location()))

    def validate(
        self, board: Board, unit: Unit, units: Mapping[str, Unit] = _NO_UNITS, routes: SeaRoutes | None = None
    ) -> Convoy:
        if unit.kind != "F" or unit.province not in board.seas:
            raise IllegalOrder("only fleets at sea can convoy")
        if routes is None:
            raise IllegalOrder("convoys are ordered in movement phases only")
        army = units.get(self.army_loc)
        if army is None or army.kind != "A":
            raise IllegalOrder(f"there is no army in {self.army_loc} to convoy")
        if not routes.possible(self.army_loc, self.dst, via=unit.province):
            raise IllegalOrder(f"no convoy through {unit.province} can take an army from {self.army_loc} to {self.dst}")
        return self if self.loc == unit.loc else Convoy(self.kind, unit.loc, self.army_loc, self.dst)


@dataclass(slots=True, unsafe_hash=True)
class Retreat(Order):
    dst: str = ""
    target: str = field(init=False, repr=False, compare=False)

    verb: ClassVar[str] = "retreat"
    phases: ClassVar[tuple[str, ...]] = ("retreat",)

    def _format(self) -> str:
        return f"{self.kind} {self.loc} R {self.dst}"

    def __post_init__(self) -> None:
        Order.__post_init__(self)
        self.target = province_of(self.dst)

    @classmethod
    def read(cls, kind: str, loc: str, cur: _Cursor) -> Order:
        return cls(kind, loc, cur.location())


@dataclass(slots=True, unsafe_hash=True)
class Disband(Order):
    """Disband a dislodged unit (retreat phase) or remove a unit (adjustment phase)."""

    verb: ClassVar[str] = "disband"
    phases: ClassVar[tuple[str, ...]] = ("retreat", "adjustment")

    def _format(self) -> str:
        return f"{self.kind} {self.loc} D"


@dataclass(slots=True, unsafe_hash=True)
class Build(Order):
    verb: ClassVar[str] = "build"
    phases: ClassVar[tuple[str, ...]] = ("adjustment",)

    def _format(self) -> str:
        return f"BUILD {self.kind} {self.loc}"


@dataclass(slots=True, unsafe_hash=True)
class Waive(Order):
    """Give up one build."""

    verb: ClassVar[str] = "waive"
    phases: ClassVar[tuple[str, ...]] = ("adjustment",)

    def _format(self) -> str:
        return "WAIVE"

    @classmethod
    def read_after_verb(cls, cur: _Cursor) -> Order:
        return cls("", "")


def read_short(words: list[str], board: Board, phase: str) -> Order | None:
    """The common abbreviated forms ("A PAR - BUR", "F NTH C A LON - BEL") in one
    step, from the line's words; anything else (full names, odd spacing,
    mistakes) gives None, for `read_fully`."""
    n = len(words)
    if n < 3 or phase == "adjustment":
        return None
    kind = _QUICK_KINDS.get(words[0]) or KIND_WORDS.get(words[0].casefold(), "")
    verb = _QUICK_VERBS.get(words[2]) or VERBS.get(words[2].casefold())
    ids = board.location_ids
    loc = ids.get(words[1]) or ids.get(words[1].upper())
    if not kind or loc is None:
        return None
    if phase == "retreat":
        if n == 4 and verb in ("move", "retreat") and words[3].upper() in ids:
            return Retreat(kind, loc, ids[words[3].upper()])
        return Disband(kind, loc) if n == 3 and verb == "disband" else None
    if n == 3:
        return Hold(kind, loc) if verb == "hold" else None
    if verb == "move" and n == 4:
        dst = ids.get(words[3]) or ids.get(words[3].upper())
        return Move(kind, loc, dst) if dst else None
    other_kind = _QUICK_KINDS.get(words[3]) or KIND_WORDS.get(words[3].casefold(), "") if n > 4 else ""
    other = ids.get(words[4]) or ids.get(words[4].upper()) if other_kind else None
    if other is None:
        return None
    if verb == "support" and n == 5:
        return Support(kind, loc, other_kind, other)
    far = ids.get(words[6]) or ids.get(words[6].upper()) if n == 7 else None
    if far and VERBS.get(words[5]) == "move":
        dst, _, coast = far.partition("/")
        if verb == "support":
            return Support(kind, loc, other_kind, other, dst, coast)
        if verb == "convoy" and other_kind == "A":
            return Convoy(kind, loc, province_of(other), dst)
    return None


_BY_VERB: dict[str, type[Order]] = {
    "hold": Hold, "move": Move, "support": Support, "convoy": Convoy,
    "retreat": Retreat, "disband": Disband, "build": Build,
}
_LEADING: dict[str, type[Order]] = {"build": Build, "disband": Disband, "waive": Waive}
