"""Units on the board and their one-line text form ("England: F SPA/SC")."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from pbem.kit.orders import InvalidOrder
from pbem.rulesets.diplomacy.board import Board, province_of

KIND_WORDS = {"a": "A", "army": "A", "f": "F", "fleet": "F"}


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit of a power at a location (a province, or a coast of one for fleets)."""

    power: str
    kind: str
    loc: str
    province: str = field(init=False, repr=False, compare=False)
    # Power, then location, as one string: sorting a phase's units compares
    # these instead of building a tuple per unit ("\0" sorts before any letter).
    sort_key: str = field(init=False, repr=False, compare=False)

    def __init__(self, power: str, kind: str, loc: str) -> None:
        # Slotted, so a unit is one object for the collector to walk, not two
        # (an instance and its dict); the fields are set through their slots
        # (see _SET below), as a frozen dataclass's own __init__ would set each
        # through object.__setattr__, which makes a unit cost half as much again.
        _SET_POWER(self, power)
        _SET_KIND(self, kind)
        _SET_LOC(self, loc)
        _SET_PROVINCE(self, loc if "/" not in loc else loc[: loc.index("/")])
        _SET_SORT_KEY(self, f"{power}\0{loc}")

    def __str__(self) -> str:
        return f"{self.power}: {self.kind} {self.loc}"

    @classmethod
    def parse(cls, text: str, board: Board) -> Unit:
        """Read "Power: T LOC"; the location may use a full name or alias. Each
        distinct line is read once per map (position files repeat them)."""
        memo = board.memo("units")
        unit = memo.get(text)
        if unit is None:
            unit = memo[text] = cls._read(text, board)
        return unit

    @classmethod
    def _read(cls, text: str, board: Board) -> Unit:
        from pbem.rulesets.diplomacy.orders import parse_location

        power, sep, rest = text.partition(":")
        if not sep:
            raise InvalidOrder(f"expected 'Power: T LOC', got {text!r}")
        words = rest.split()
        if len(words) < 2 or words[0].casefold() not in KIND_WORDS:
            raise InvalidOrder(f"expected a unit like 'A PAR' or 'F SPA/SC', got {rest.strip()!r}")
        kind = KIND_WORDS[words[0].casefold()]
        loc = parse_location(" ".join(words[1:]), board)
        return cls(board.power(power.strip()), kind, placed(kind, loc, board))


# The slots' own setters, which a frozen class's __setattr__ does not stand in front of.
_SET_POWER, _SET_KIND, _SET_LOC, _SET_PROVINCE, _SET_SORT_KEY = (
    getattr(Unit, name).__set__ for name in ("power", "kind", "loc", "province", "sort_key"))


@lru_cache(maxsize=8192)
def unit_at(power: str, kind: str, loc: str) -> Unit:
    """The unit of `power` and `kind` at `loc`. Units are values, so one object
    serves every phase that puts such a unit there: a phase moves most of its
    units, and looking one up costs a fraction of building it."""
    return Unit(power, kind, loc)


def placed(kind: str, loc: str, board: Board) -> str:
    """Check that a unit of `kind` can stand at `loc`; armies ignore coasts."""
    prov = board.provinces[province_of(loc)]
    if kind == "A":
        if prov.kind == "sea":
            raise InvalidOrder(f"an army cannot be in {prov.name}")
        return prov.id
    if prov.kind == "land":
        raise InvalidOrder(f"a fleet cannot be in {prov.name}")
    if prov.coasts and loc == prov.id:
        raise InvalidOrder(f"say which coast of {prov.name} the fleet is on",
                           suggestion=" or ".join(board.locations(prov.id)))
    return loc
