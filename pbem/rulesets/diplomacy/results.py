"""What a phase produced: per-order results, the new board, dislodged units.

Plain frozen dataclasses so a campaign can store them and templates can show
them; `to_json` gives the shape `pbem adjudicate --json` prints.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, NamedTuple

from pbem.kit.orders import OrderProblem
from pbem.rulesets.diplomacy.orders import Order
from pbem.rulesets.diplomacy.units import Unit

SUCCEEDS, FAILS, VOID, INVALID = "succeeds", "fails", "void", "invalid"
EDITIONS = ("3.0", "2.4")

# What players submit: (power, order text), or an order already parsed.
Submitted = tuple[str, "str | Order"]


class OrderResult(NamedTuple):
    """One submitted order and what became of it; `order` is the canonical form when understood.

    A named tuple rather than a dataclass: every phase makes one per order, and
    a tuple is the cheapest immutable record Python builds."""

    power: str
    order: str
    result: str
    reason: str = ""

    def to_json(self, detail: bool = False) -> dict[str, str]:
        out = {"power": self.power, "order": self.order, "result": self.result}
        if detail:
            out["reason"] = self.reason
        return out


@dataclass(frozen=True)
class DislodgedUnit:
    """A unit forced out of its province, and where its attacker came from.

    A unit dislodged by a convoyed army may retreat to the army's origin
    (DATC 4.A.5), hence `by_convoy`. The text form is "Power: T LOC <- ORIGIN";
    position files may add " VIA CONVOY" to carry the flag.
    """

    unit: Unit
    attacker_from: str
    by_convoy: bool = False

    def __str__(self) -> str:
        return f"{self.unit} <- {self.attacker_from}"


@dataclass(frozen=True)
class PhaseResult:
    phase: str
    orders: list[OrderResult]
    units: list[Unit]
    dislodged: list[DislodgedUnit] = field(default_factory=list)
    disbanded: list[Unit] = field(default_factory=list)
    contested: list[str] = field(default_factory=list)

    def __init__(
        self, phase: str, orders: list[OrderResult], units: list[Unit], dislodged: list[DislodgedUnit] | None = None,
        disbanded: list[Unit] | None = None, contested: list[str] | None = None,
    ) -> None:
        # Written into the instance's dict directly, as Unit does: the generated
        # frozen __init__ sets each field through object.__setattr__, and every
        # phase builds one (the fields and their defaults are as declared above).
        fields = self.__dict__
        fields["phase"], fields["orders"], fields["units"] = phase, orders, units
        fields["dislodged"] = [] if dislodged is None else dislodged
        fields["disbanded"] = [] if disbanded is None else disbanded
        fields["contested"] = [] if contested is None else contested

    def to_json(self, detail: bool = False) -> dict[str, Any]:
        """The `pbem adjudicate --json` object; `detail` adds reasons and contested provinces."""
        out: dict[str, Any] = {
            "orders": [o.to_json(detail) for o in self.orders],
            "units": [str(u) for u in self.units],
            "dislodged": [str(d) for d in self.dislodged],
            "disbanded": [str(u) for u in self.disbanded],
        }
        if detail:
            out["contested"] = list(self.contested)
        return out


def check_edition(edition: str) -> str:
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; use one of {', '.join(EDITIONS)}")
    return edition


_BY_POWER_AND_LOCATION = attrgetter("sort_key")


def sort_units(units: Iterable[Unit]) -> list[Unit]:
    """By power, then location."""
    return sorted(units, key=_BY_POWER_AND_LOCATION)


def rejected(power: str, text: str, problem: OrderProblem) -> OrderResult:
    """An order that could not be used: it is reported as invalid and the unit holds."""
    reason = problem.reason + (f" (did you mean {problem.suggestion}?)" if problem.suggestion else "")
    return OrderResult(power, text, INVALID, reason)


def as_text(order: Order | str) -> str:
    return order if isinstance(order, str) else str(order)


def by_power(orders: Sequence[Submitted]) -> dict[str, list[str | Order]]:
    out: dict[str, list[str | Order]] = {}
    for power, order in orders:
        out.setdefault(power, []).append(order)
    return out
