"""The movement adjudicator settles the decisions the orders alone decide before
it starts the resolver; those short cuts must agree with the full rules."""

from __future__ import annotations

import random

from pbem.rulesets.diplomacy import Unit, standard_board
from pbem.rulesets.diplomacy.accept import accept_unit_orders
from pbem.rulesets.diplomacy.movement import (
    DISLODGED,
    MOVE,
    PATH,
    SUPPORT,
    Key,
    Movement,
    _checker,
)

BOARD = standard_board()
POWERS = sorted(BOARD.powers)


class FullRulesOnly(Movement):
    """The same phase with every decision worked out by the resolver."""

    def _settled_at_once(self) -> dict[Key, bool]:
        return {}


def _crowded_phase(rng: random.Random) -> tuple[dict[str, Unit], list[tuple[str, str]]]:
    """Forty units of three powers: moves, supports of those moves or of holds, convoys."""
    provinces = rng.sample(sorted(BOARD.provinces), 40)
    units = {p: Unit(rng.choice(POWERS[:3]), "F" if p in BOARD.seas else "A", p) for p in provinces}
    reach = {p: sorted(BOARD.army_adj[p] if u.kind == "A" else BOARD.fleet_reach[p]) for p, u in units.items()}
    goes = {p: rng.choice(reach[p]) for p in provinces if rng.random() < 0.5}
    orders = [(units[p].power, f"{units[p].kind} {p} - {dst}") for p, dst in goes.items()]
    for p, u in units.items():
        if p in goes:
            continue
        helped = [q for q in provinces if q != p and goes.get(q, q) in reach[p]]
        if helped and rng.random() < 0.7:
            q = rng.choice(helped)
            tail = f" - {goes[q]}" if q in goes else ""
            orders.append((u.power, f"{u.kind} {p} S {units[q].kind} {q}{tail}"))
        elif u.kind == "F":
            coasts = [c for c in reach[p] if BOARD.provinces[c].kind == "coast"]
            armies = [c for c in coasts if c in units and units[c].kind == "A"]
            if armies and len(coasts) > 1:
                army = rng.choice(armies)
                dst = rng.choice([c for c in coasts if c != army])
                orders += [(u.power, f"F {p} C A {army} - {dst}"), (units[army].power, f"A {army} - {dst}")]
    return units, orders


def test_decisions_settled_at_once_agree_with_the_full_rules() -> None:
    rng = random.Random(2000)
    settled: dict[int, int] = {MOVE: 0, SUPPORT: 0, DISLODGED: 0, PATH: 0}
    for _ in range(150):
        units, submitted = _crowded_phase(rng)
        _, given, _ = accept_unit_orders(BOARD, units, submitted, "movement", _checker(BOARD, units))
        fast, full = Movement(BOARD, units, given, "3.0"), FullRulesOnly(BOARD, units, given, "3.0")
        fast.resolve()
        full.resolve()
        needed = fast._keys()
        assert {k: fast.decisions[k] for k in needed} == {k: full.decisions[k] for k in needed}
        for key in fast._settled_at_once():
            settled[MOVE if isinstance(key, str) else key[0]] += 1
    assert all(n > 50 for n in settled.values()), settled
