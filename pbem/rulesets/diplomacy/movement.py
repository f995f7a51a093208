"""Movement phase adjudication on the shared dependency resolver.

The rules are the 2000 rulebook as the DATC reads it, written as the DATC's
decisions: *move* (does a move succeed), *support* (is a support given, i.e. not
cut), *dislodged* and *path* (does a convoyed army find an unbroken chain of
fleets). Strengths are computed from those booleans. The shared resolver settles
dependency cycles; the backup rule here says what an undecidable cycle means in
Diplomacy: with a convoy in it, a paradox settled by the Szykman rule (the
convoyed moves in it fail and cut nothing); without one, circular movement (all
its moves succeed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from operator import attrgetter

from pbem.kit.resolver import Resolver
from pbem.rulesets.diplomacy.accept import Check, accept_unit_orders
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.orders import Convoy, Hold, Move, Order, Support
from pbem.rulesets.diplomacy.results import (
    FAILS,
    SUCCEEDS,
    VOID,
    DislodgedUnit,
    OrderResult,
    PhaseResult,
    Submitted,
    check_edition,
)
from pbem.rulesets.diplomacy.units import Unit

MOVE, SUPPORT, DISLODGED, PATH = 0, 1, 2, 3
# Whether the move from a province succeeds is keyed by that province alone: it
# is the decision looked up most, and a tuple built per lookup costs more than
# the lookup. The others are keyed (kind, province).
Key = str | tuple[int, str]


def adjudicate_movement(
    board: Board, units: Sequence[Unit], orders: Sequence[Submitted], edition: str = "3.0"
) -> PhaseResult:
    """Resolve one movement phase; units without a usable order hold."""
    check_edition(edition)
    at = {u.province: u for u in units}
    results, given, places = accept_unit_orders(board, at, orders, "movement", _checker(board, at))
    table = Movement(board, at, given, edition)
    table.resolve()
    return table.outcome(table.report(results, places))


def _checker(board: Board, at: dict[str, Unit]) -> Check:
    """Checks each order against its unit and the position. The orders most
    phases are made of, given from the unit's own place, are answered here as
    their own `validate` would, without calling it: a hold; a move to a
    neighbouring location (an army's over land); a support, into a province the
    unit can reach, of the unit the position has where the order says."""
    seas = board.seas
    routes = board.sea_routes(u.province for u in at.values() if u.kind == "F" and u.province in seas)
    # A fleet names a location; a bare province is a neighbour only when it has no coasts.
    steps = {"A": board.army_adj, "F": board.fleet_adj}
    reach = {"A": board.army_adj, "F": board.fleet_reach}

    def check(order: Order, unit: Unit) -> Order:
        kind, loc = unit.kind, unit.loc
        if order.loc != loc or order.kind != kind:
            return order.validate(board, unit, at, routes)
        if type(order) is Hold:
            return order
        if type(order) is Move:
            dst = order.dst
            if dst in steps[kind].get(loc, ()) and (dst not in seas if kind == "A" else not order.via_convoy):
                return order
        elif type(order) is Support:
            supported = at.get(order.target)
            if (supported is not None and supported.loc == order.target_loc and supported.kind == order.target_kind
                    and order.target != unit.province and order.aim in reach[kind].get(loc, ())):
                return order
        return order.validate(board, unit, at, routes)

    return check


class Movement:
    """One movement phase: the orders in indexed form, the decisions, the outcome."""

    def __init__(self, board: Board, units: dict[str, Unit], given: dict[str, Order], edition: str) -> None:
        self.board, self.units, self.edition = board, units, edition
        self.given = given
        # One pass sorts the orders by type, indexes moves by target and pairs
        # the units trading places (head-to-head, unless one of them goes by convoy).
        self.moves: dict[str, Move] = {}
        # Who moves into each province, and whose supports each move and hold gets: tuples,
        # which the collector stops tracking once it has seen them hold only strings (a
        # list it would walk at every collection; a large phase keeps one per target).
        self.moves_to: dict[str, tuple[str, ...]] = {}
        self.convoy_orders: dict[tuple[str, str], list[str]] = {}
        self.h2h: dict[str, str] = {}
        support_orders: list[tuple[str, Support]] = []
        moves, moves_to, h2h = self.moves, self.moves_to, self.h2h
        # (`type(o) is` rather than isinstance: the four order types have no subclasses.)
        for p, o in given.items():
            if type(o) is Move:
                moves[p] = o
                target = o.target
                rivals = moves_to.get(target)
                moves_to[target] = (p,) if rivals is None else (*rivals, p)
                other = moves.get(target)
                if other is not None and other.target == p:
                    h2h[p], h2h[target] = target, p
            elif type(o) is Support:
                support_orders.append((p, o))
            elif type(o) is Convoy:
                self.convoy_orders.setdefault((o.army_loc, o.dst), []).append(p)
        # Most armies walk to a neighbour nobody offers to convoy them to: no need to ask.
        army_adj, convoy_orders = board.army_adj, self.convoy_orders
        self.convoyed = {
            p for p, m in moves.items()
            if m.kind == "A" and (m.target not in army_adj[p] or m.via_convoy
                                  or (convoy_orders and (p, m.target) in convoy_orders))
            and self._goes_by_convoy(p, m)
        }
        if self.convoyed and h2h:
            for p in [p for p, q in h2h.items() if p in self.convoyed or q in self.convoyed]:
                del h2h[p]
        self.move_supports: dict[str, tuple[str, ...]] = {}
        self.hold_supports: dict[str, tuple[str, ...]] = {}
        self.supports: dict[str, Support] = {}
        self.void: set[str] = set()
        self._match_supports(support_orders)
        self.decisions: dict[Key, bool] = {}

    # ------------------------------------------------------------ setup

    def _goes_by_convoy(self, src: str, move: Move) -> bool:
        """Whether an army's move takes the sea route (DATC 4.A.3, per edition)."""
        if move.target not in self.board.army_adj[src]:
            return True
        fleets = self.convoy_orders.get((src, move.target))
        if fleets is None and not move.via_convoy:
            return False  # a walk to a neighbour nobody offers to convoy
        fleets = fleets or []
        power = self.units[src].power
        intent = move.via_convoy or any(self.units[f].power == power for f in fleets)
        if self.edition == "2.4":
            return intent and self._chain(src, move.target, set(fleets))
        return intent

    def _match_supports(self, support_orders: list[tuple[str, Support]]) -> None:
        moves = self.moves
        for p, o in support_orders:
            # A support to hold fits a unit not moving; one to move, the move it names
            # (and the coast, if it names one).
            move = moves.get(o.target)
            if not o.dst:
                fits = move is None
            else:
                fits = move is not None and move.target == o.dst and (
                    not o.dst_coast or move.dst.endswith(f"/{o.dst_coast}"))
            if fits:
                self.supports[p] = o
                table = self.move_supports if o.dst else self.hold_supports
                table[o.target] = (*table.get(o.target, ()), p)
            else:
                self.void.add(p)
        for (army, dst), fleets in self.convoy_orders.items():
            move = self.moves.get(army)
            if move is None or move.target != dst or army not in self.convoyed:
                self.void.update(fleets)
                self.convoy_orders[(army, dst)] = []

    # ------------------------------------------------------------ decisions

    def resolve(self) -> None:
        """Work out every decision: those the orders alone settle first, then the
        rest on the resolver."""
        known = self._settled_at_once()
        pending = [k for k in self._keys() if k not in known]
        if pending:  # (many phases settle at once: then no resolver is built)
            resolver = Resolver(self._decide, _backup, known)
            resolver.decide_all(pending)
            known = resolver.settled()
        self.decisions = known

    def _keys(self) -> list[Key]:
        """Every decision the phase's outcome needs."""
        keys: list[Key] = list(self.moves)
        keys += [(SUPPORT, p) for p in self.supports]
        keys += [(DISLODGED, p) for p in self.moves_to if p in self.units]
        keys += [(PATH, p) for p in self.convoyed]
        return keys

    def _settled_at_once(self) -> dict[Key, bool]:
        """Decisions the orders settle without weighing any other decision; most
        of a phase is like this, and sparing them the resolver's bookkeeping is
        most of its speed. Each is what the full rule below would find:

        - a move over land into an empty province no other unit enters succeeds,
          and moves over land without support into the same empty province all fail;
        - a move without support into a province whose unit stays fails (an
          attack of 1 never beats a hold of at least 1);
        - a support nobody attacks is given; one attacked over land by another
          power, not from where the support goes, is cut;
        - a move into a province whose unit's move is settled: if that unit
          leaves, the only move over land there (not trading places) gets in;
          if it stays, a move without support fails (along chains of moves);
        - a unit whose own move succeeds, or whose attackers all fail, stays;
        - a convoy route that the ordered fleets cannot form fails, and one that
          no attack threatens holds.
        """
        known: dict[Key, bool] = {}
        units, moves, moves_to, convoyed = self.units, self.moves, self.moves_to, self.convoyed
        for p in convoyed:
            fleets = set(self.convoy_orders.get((p, moves[p].target), ()))
            if not self._chain(p, moves[p].target, fleets):
                known[(PATH, p)] = False
            elif moves_to.keys().isdisjoint(fleets):
                known[(PATH, p)] = True
        for p, m in moves.items():
            if m.target in units:
                if m.target not in moves and p not in self.move_supports:
                    known[p] = False
            elif p not in convoyed:
                rivals = moves_to[m.target]
                if len(rivals) == 1:
                    known[p] = True
                elif self._bare_standoff(rivals):
                    known[p] = False
        self._follow_chains(known)
        for p, s in self.supports.items():
            attackers = moves_to.get(p)
            if attackers is None:
                known[(SUPPORT, p)] = True
                continue
            power = units[p].power
            for a in attackers:
                if a != s.aim and a not in convoyed and units[a].power != power:
                    known[(SUPPORT, p)] = False
                    break
        for p, attackers in moves_to.items():
            if p in units and (known.get(p) or _all_fail(known, attackers)):
                known[(DISLODGED, p)] = False
        return known

    def _follow_chains(self, known: dict[Key, bool]) -> None:
        """Settle moves into provinces whose units move, once those moves are
        settled; a chain of moves settles from its head, one link per round."""
        moves, moves_to, convoyed, h2h = self.moves, self.moves_to, self.convoyed, self.h2h
        # (Moves into a province whose unit moves are not settled by the loop above.)
        waiting = [p for p, m in moves.items() if m.target in moves]
        while waiting:
            still = []
            for p in waiting:
                target = moves[p].target
                left = known.get(target)
                if left is None:
                    still.append(p)
                elif left and p not in convoyed and p not in h2h and len(moves_to[target]) == 1:
                    known[p] = True
                elif not left and p not in self.move_supports:
                    known[p] = False
            if len(still) == len(waiting):
                return
            waiting = still

    def _bare_standoff(self, movers: tuple[str, ...]) -> bool:
        """Whether these moves into one empty province are all over land and
        unsupported, so each meets an equal rival and none gets in."""
        for p in movers:
            if p in self.move_supports or p in self.convoyed:
                return False
        return True

    def _decide(self, r: Resolver[Key], key: Key) -> bool:
        if isinstance(key, str):
            return self._move(r, key)
        kind, p = key
        return _RULES[kind](self, r, p)

    def _move(self, r: Resolver[Key], src: str) -> bool:
        if src in self.convoyed and not r.resolve((PATH, src)):
            return False
        dst = self.moves[src].target
        attack = self._attack(r, src, dst)
        if attack == 0:
            return False
        opponent = self.h2h.get(src)
        if opponent is not None:
            if attack <= 1 + self._supports(r, opponent, None):
                return False
        elif attack <= self._hold(r, dst):
            return False
        for other in self.moves_to[dst]:
            if other != src and attack <= self._prevent(r, other):
                return False
        return True

    def _attack(self, r: Resolver[Key], src: str, dst: str) -> int:
        occupant = self.units.get(dst)
        if occupant is None:
            return 1 + self._supports(r, src, None)
        if dst in self.moves and src not in self.h2h and r.resolve(dst):
            return 1 + self._supports(r, src, None)
        if occupant.power == self.units[src].power:
            return 0
        return 1 + self._supports(r, src, occupant.power)

    def _supports(self, r: Resolver[Key], src: str, not_from: str | None) -> int:
        """Supports given to the move from `src`, leaving out those of power `not_from`."""
        n = 0
        for s in self.move_supports.get(src, ()):
            if self.units[s].power != not_from and r.resolve((SUPPORT, s)):
                n += 1
        return n

    def _hold(self, r: Resolver[Key], prov: str) -> int:
        if prov not in self.units:
            return 0
        if prov in self.moves:
            return 0 if r.resolve(prov) else 1
        n = 1
        for s in self.hold_supports.get(prov, ()):
            if r.resolve((SUPPORT, s)):
                n += 1
        return n

    def _prevent(self, r: Resolver[Key], src: str) -> int:
        if src in self.convoyed and not r.resolve((PATH, src)):
            return 0
        opponent = self.h2h.get(src)
        if opponent is not None and r.resolve(opponent):
            return 0
        return 1 + self._supports(r, src, None)

    def _support_given(self, r: Resolver[Key], sup: str) -> bool:
        """A support is cut by an attack from a foreign unit, unless the attack comes
        from where the support goes (then only dislodging the supporter cuts it)."""
        aim, power = self.supports[sup].aim, self.units[sup].power
        for a in self.moves_to.get(sup, ()):
            if a == aim or self.units[a].power == power:
                continue
            if a not in self.convoyed or r.resolve((PATH, a)):
                return False
        return not r.resolve((DISLODGED, sup))

    def _dislodged(self, r: Resolver[Key], prov: str) -> bool:
        if prov in self.moves and r.resolve(prov):
            return False
        for a in self.moves_to.get(prov, ()):
            if r.resolve(a):
                return True
        return False

    def _path(self, r: Resolver[Key], src: str) -> bool:
        dst = self.moves[src].target
        fleets = set(self.convoy_orders.get((src, dst), ()))
        return self._chain(src, dst, fleets, lambda f: not r.resolve((DISLODGED, f)))

    def _chain(self, src: str, dst: str, fleets: set[str], usable: Callable[[str], bool] | None = None) -> bool:
        """Whether the fleets (all, or those `usable`) link `src` to `dst` through adjacent seas."""
        reach = self.board.fleet_reach
        frontier = [f for f in fleets if src in reach[f]]
        seen = set(frontier)
        while frontier:
            f = frontier.pop()
            if usable is not None and not usable(f):
                continue
            if dst in reach[f]:
                return True
            for g in fleets:
                if g not in seen and g in reach[f]:
                    seen.add(g)
                    frontier.append(g)
        return False

    # ------------------------------------------------------------ outcome

    def report(self, results: list[OrderResult | None], places: dict[str, int]) -> list[OrderResult]:
        """Every order's result, the accepted ones' put in their `places` among the rejected."""
        d, void, convoyed, units = self.decisions, self.void, self.convoyed, self.units
        for p, order in self.given.items():
            result, reason = SUCCEEDS, ""
            if p in void:
                result = VOID
                reason = ("the supported unit was not ordered so" if type(order) is Support
                          else "no such convoyed move was ordered")
            elif type(order) is Move:
                if not d[p]:
                    result, reason = FAILS, "no convoy" if p in convoyed and not d[(PATH, p)] else "bounced"
            elif type(order) is Support:
                if not d[(SUPPORT, p)]:
                    result, reason = FAILS, "dislodged" if d.get((DISLODGED, p)) else "cut"
            elif d.get((DISLODGED, p)):
                result, reason = FAILS, "dislodged"
            elif type(order) is Convoy and not d[(PATH, order.army_loc)]:
                result, reason = FAILS, "convoy disrupted"
            results[places[p]] = _order_result((units[p].power, order.text, result, reason))
        return [r for r in results if r is not None]

    def outcome(self, results: list[OrderResult]) -> PhaseResult:
        d, moves, attacked, convoyed, h2h = self.decisions, self.moves, self.moves_to, self.convoyed, self.h2h
        staying: list[Unit] = []
        dislodged: list[DislodgedUnit] = []
        contested: set[str] = set()
        for p, unit in self.units.items():
            move = moves.get(p)
            if move is not None:
                if d[p]:
                    staying.append(Unit(unit.power, unit.kind, move.dst))
                    continue
                # A failed move leaves its target contested, unless it never arrived
                # (no convoy) or lost a head-to-head battle (DATC 6.H.9).
                if (p not in convoyed or d[(PATH, p)]) and (p not in h2h or not d[h2h[p]]):
                    contested.add(move.target)
            if p in attacked and d[(DISLODGED, p)]:
                dislodged.append(self._dislodged_by(unit))
            else:
                staying.append(unit)
        if contested:
            contested -= {u.province for u in staying}
        # Both lists are this call's own, so they are sorted in place (by power, then location).
        staying.sort(key=_SORT_KEY)
        if dislodged:
            dislodged.sort(key=_DISLODGED_SORT_KEY)
        return PhaseResult("movement", results, staying, dislodged, [], sorted(contested) if contested else [])

    def _dislodged_by(self, unit: Unit) -> DislodgedUnit:
        for a in self.moves_to[unit.province]:
            if self.decisions[a]:
                return DislodgedUnit(unit, a, a in self.convoyed)
        raise AssertionError(f"{unit} dislodged by nobody")


# An OrderResult from its four fields, built in C: calling the class goes through
# its Python __new__ (and `_make` through a Python classmethod), once per order.
_order_result = partial(tuple.__new__, OrderResult)

_SORT_KEY = attrgetter("sort_key")
_DISLODGED_SORT_KEY = attrgetter("unit.sort_key")

# The rule for each kind of decision, by its number in the key (a move's key is
# its province alone, and `_decide` sends it to `_move` directly).
_RULES: tuple[Callable[[Movement, Resolver[Key], str], bool], ...] = (
    Movement._move, Movement._support_given, Movement._dislodged, Movement._path,
)


def _all_fail(known: dict[Key, bool], moves: tuple[str, ...]) -> bool:
    """Whether each of these moves is known to fail."""
    for p in moves:
        if known.get(p) is not False:
            return False
    return True


def _backup(r: Resolver[Key], cycle: Sequence[Key]) -> None:
    """Settle a cycle with no single consistent outcome: Szykman for a convoy
    paradox, otherwise circular movement where every move succeeds."""
    paths = [k for k in cycle if not isinstance(k, str) and k[0] == PATH]
    if paths:
        for path in paths:
            r.settle(path, False)
    else:
        for move in cycle:
            if isinstance(move, str):
                r.settle(move, True)
    for k in cycle:
        if not r.is_resolved(k):
            value = r.resolve(k)
            if not r.is_resolved(k):
                r.settle(k, value)
