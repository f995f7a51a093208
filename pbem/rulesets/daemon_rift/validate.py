"""The deadline step that turns submitted orders into effective orders (DR-ORD-10).

Step A.1-A.3 of the turn: validate every order against the state at the deadline
(invalid orders become holds, DR-ORD-3), roll the artillery dice (DR-ART), cut
crossing paths when `movement.path_crossing = "intercept"` (DR-SPD-9), then void
the supports that no longer match what their target does (DR-ORD-5, DR-ORD-6, G-7).

The position checks are plain functions returning a reason ("" when the order is
fine) so that the parser can give the same verdict in the acknowledgement mail.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.model import (
    HOLD,
    MOVE,
    SUPPORT,
    ArtilleryRoll,
    DRState,
    Effective,
    FactionOrders,
    Order,
    Token,
)

Step = tuple[str, str]


# --- checks that depend only on positions -------------------------------------------

def order_problem(state: DRState, gmap: GameMap, rules: RuleBook, order: Order) -> str:
    """Why `order` cannot be carried out from the current positions, or ""."""
    token = state.tokens.get(order.token)
    if token is None:
        return f"there is no token {order.token} on the map"
    reason = champion_problem(state, token, order)
    if reason or order.kind == HOLD:
        return reason
    if order.kind == MOVE:
        return move_problem(state, gmap, rules, token, order.path)
    if order.kind == SUPPORT:
        return support_problem(state, gmap, rules, token, order)
    return f"unknown order kind {order.kind!r}"


def champion_problem(state: DRState, token: Token, order: Order) -> str:
    """A champion must be a token of the ordering faction (DR-BAT-3)."""
    if not order.champion:
        return ""
    champion = state.tokens.get(order.champion)
    if champion is None or champion.faction != token.faction:
        return f"champion {order.champion} is not one of your tokens"
    return ""


def steps_of(start: str, path: tuple[str, ...]) -> list[Step]:
    """The borders a path crosses, in order."""
    return list(zip((start, *path), path, strict=False))     # n places, n - 1 borders


def move_problem(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, path: tuple[str, ...]) -> str:
    """Path rules: DR-ORD-4, DR-SPD-1..6, DR-SPD-13 and DR-ORD-8."""
    checks = (_path_shape_problem, _allowance_problem, _pass_through_problem, _defensive_problem)
    for check in checks:
        reason = check(state, gmap, rules, token, path)
        if reason:
            return reason
    return ""


def _path_shape_problem(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, path: tuple[str, ...]) -> str:
    """DR-ORD-4: adjacent steps, no territory twice, never back to the start."""
    if not path:
        return "a move needs a destination"
    if token.territory in path:
        return f"the path returns to {token.territory}, where {token.id} starts"
    twice = [t for i, t in enumerate(path) if t in path[:i]]
    if twice:
        return f"the path enters {twice[0]} twice"
    for a, b in steps_of(token.territory, path):
        if not gmap.adjacent(a, b):
            return f"{b} is not next to {a}"
    return ""


def is_fast(state: DRState, token: Token) -> bool:
    """A fast army is a list token whose list is all Move 7+; never a defensive token (DR-SPD-13)."""
    army = state.list_of(token)
    return army is not None and army.fast


def is_road_move(gmap: GameMap, start: str, path: tuple[str, ...]) -> bool:
    """Every step follows a road joining the two territories (DR-SPD-3)."""
    return all(gmap.border(a, b).road for a, b in steps_of(start, path))


def open_terrain_problem(gmap: GameMap, rules: RuleBook, start: str, path: tuple[str, ...]) -> str:
    """Why a path is not open terrain (Ambiguity 7: every territory entered open, no unbridged river)."""
    open_types = rules["movement.open_terrain"]
    for a, b in steps_of(start, path):
        if gmap.border(a, b).unbridged_river:
            return f"the border {a}-{b} is a river without a bridge"
        if gmap.terrain(b) not in open_types:
            return f"{b} is {gmap.terrain(b)}, not open terrain"
    return ""


def _allowance_problem(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, path: tuple[str, ...]) -> str:
    """DR-SPD-1..5: 1 anywhere; 2 by road or fast over open terrain; 3 by road, fast only."""
    length = len(path)
    if length <= rules["movement.base_spaces"]:
        return ""
    fast = is_fast(state, token)
    if is_road_move(gmap, token.territory, path):
        return _road_problem(rules, token, length, fast)
    if not fast:
        return f"a move of {length} territories must follow roads all the way (off the road only a fast army may)"
    reason = open_terrain_problem(gmap, rules, token.territory, path)
    if reason:
        return f"off the road a fast army moves {length} territories only over open terrain: {reason}"
    limit = rules["movement.fast_open_spaces"]
    return "" if length <= limit else f"off the road a fast army moves at most {limit} territories"


def _road_problem(rules: RuleBook, token: Token, length: int, fast: bool) -> str:
    if token.defensive and not rules["movement.defensive_road_moves"]:
        return "a defensive token may not make road moves"
    limit = rules["movement.road_fast_spaces"] if fast else rules["movement.road_spaces"]
    if length <= limit:
        return ""
    who = "a fast army" if fast else "an army that is not fast"
    return f"along roads {who} moves at most {limit} territories"


def _pass_through_problem(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, path: tuple[str, ...]) -> str:
    """DR-SPD-6: no foreign token may stand on an intermediate territory at the start."""
    if rules["movement.pass_through_foreign"]:
        return ""
    for territory in path[:-1]:
        other = state.token_at(territory)
        if other is not None and other.faction != token.faction:
            return f"cannot pass through {territory}: {other.id} stands there"
    return ""


def _defensive_problem(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, path: tuple[str, ...]) -> str:
    """DR-ORD-8: a defensive token moves only through territory its faction controls at the start."""
    if not token.defensive or not rules["tokens.defensive_own_territory_only"]:
        return ""
    for territory in path:
        if state.control.get(territory) != token.faction:
            return f"a defensive token moves only within its own territory, and {territory} is not yours"
    return ""


def support_problem(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, order: Order) -> str:
    """DR-ORD-5/6 position checks, DR-ORD-7 self-support, DR-SUP-2 own faction, DR-SPD-11 adjacency."""
    target = state.tokens.get(order.target)
    if target is None:
        return f"there is no token {order.target} on the map"
    if target.id == token.id:
        return f"{token.id} cannot support itself"
    if target.faction != token.faction and not rules["support.allow_foreign"]:
        return f"{token.id} may support only tokens of its own faction, not {target.id}"
    where = order.path[-1] if order.path else target.territory
    if not gmap.adjacent(token.territory, where):
        what = "the destination" if order.path else f"where {target.id} stands"
        return f"{token.id} in {token.territory} is not next to {where}, {what}"
    return ""


def support_origin_problem(state: DRState, order: Order) -> str:
    """G-7: a support of a move that names the wrong origin is void."""
    target = state.tokens.get(order.target)
    if target is None or len(order.path) < 2 or order.path[0] == target.territory:
        return ""
    return f"{target.id} starts in {target.territory}, not {order.path[0]}"


# --- the deadline step ---------------------------------------------------------------

def token_order(state: DRState) -> list[Token]:
    """Faction order, then list tokens 1-3 before defensive tokens D1-D2 (DR-GEN-4)."""
    ranked = {f: i for i, f in enumerate(state.ordered_factions())}
    return sorted(state.tokens.values(), key=lambda t: (ranked.get(t.faction, len(ranked)), t.faction, t.sort_key))


def effective_orders(
    state: DRState, gmap: GameMap, rules: RuleBook, submitted: dict[str, FactionOrders], dice: Dice,
) -> Effective:
    """Step A.1-A.3: validate, roll artillery, intercept, then void supports."""
    eff = Effective()
    _validate(state, gmap, rules, submitted, eff)
    _roll_artillery(state, gmap, rules, dice, eff)
    if rules["movement.path_crossing"] == "intercept":
        _intercept(state, eff)
    _void_supports(state, eff)
    return eff


def _validate(state: DRState, gmap: GameMap, rules: RuleBook, submitted: Mapping[str, FactionOrders],
              eff: Effective) -> None:
    """DR-ORD-3: no order or an invalid one means Hold; the reason is kept."""
    for token in token_order(state):
        sent = submitted.get(token.faction, FactionOrders())
        order = sent.orders.get(token.id)
        eff.orders[token.id] = Order(token.id, HOLD)
        if order is None:
            if token.id in sent.explicit:
                eff.invalid[token.id] = "its order was rejected when it was received"
            continue
        eff.submitted[token.id] = order
        reason = order_problem(state, gmap, rules, order) if order.token == token.id else "order for another token"
        if reason:
            eff.invalid[token.id] = reason
        else:
            eff.orders[token.id] = order


def difficult_steps(state: DRState, gmap: GameMap, rules: RuleBook, token: Token, path: tuple[str, ...]) -> list[Step]:
    """Steps that make an artillery list roll (DR-ART-1, DR-ART-2, DR-ART-6); none for road moves."""
    army = state.list_of(token)
    if army is None or not army.artillery:
        return []
    exempt = rules["artillery.road_moves_exempt"]
    if exempt and is_road_move(gmap, token.territory, path):
        return []
    rough = rules["artillery.difficult_territories"]
    rivers = rules["artillery.river_without_bridge_difficult"]
    out = []
    for a, b in steps_of(token.territory, path):
        border = gmap.border(a, b)
        if exempt and border.road:
            continue
        if gmap.terrain(b) in rough or (rivers and border.unbridged_river):
            out.append((a, b))
    return out


def _roll_artillery(state: DRState, gmap: GameMap, rules: RuleBook, dice: Dice, eff: Effective) -> None:
    """DR-ART-2..7: one die per qualifying move (or per difficult step), in token order."""
    for token in token_order(state):
        order = eff.orders[token.id]
        if order.kind != MOVE:
            continue
        steps = difficult_steps(state, gmap, rules, token, order.path)
        if steps and _artillery_fails(token, order, steps, rules, dice, eff):
            eff.orders[token.id] = Order(token.id, HOLD)
            eff.stopped.append(token.id)


def _artillery_fails(token: Token, order: Order, steps: list[Step], rules: RuleBook, dice: Dice,
                     eff: Effective) -> bool:
    route = "-".join((token.territory, *order.path))
    fail_on = rules["artillery.fail_on"]
    per_step = rules["artillery.roll_per"] == "step"
    for a, b in steps if per_step else steps[:1]:
        purpose = f"artillery {token.id} {route}" + (f" step {a}-{b}" if per_step else "")
        die = dice.d6(purpose)
        failed = die in fail_on
        eff.artillery.append(ArtilleryRoll(token.id, die, failed))
        if failed:
            return True
    return False


def _intercept(state: DRState, eff: Effective) -> None:
    """DR-SPD-9: hostile moves whose paths share a territory stop where they first meet.

    Every round cuts each move against all hostile paths at once, so the result does
    not depend on the order tokens are looked at; rounds repeat until nothing changes.
    """
    movers = [t for t in token_order(state) if eff.orders[t.id].kind == MOVE]
    while True:
        paths = {t.id: eff.orders[t.id].path for t in movers}
        cuts = {t.id: cut_back(paths[t.id], _hostile_territories(t, movers, paths)) for t in movers}
        changed = {ident: path for ident, path in cuts.items() if path != paths[ident]}
        if not changed:
            return
        for ident, path in changed.items():
            eff.intercepted.setdefault(ident, list(paths[ident]))
            eff.orders[ident] = Order(ident, MOVE, path, champion=eff.orders[ident].champion)


def _hostile_territories(token: Token, movers: list[Token], paths: Mapping[str, tuple[str, ...]]) -> set[str]:
    return {t for other in movers if other.faction != token.faction for t in paths[other.id]}


def cut_back(own: tuple[str, ...], other: Collection[str]) -> tuple[str, ...]:
    """`own` ended at its first territory that also lies in `other`."""
    for i, territory in enumerate(own):
        if territory in other:
            return own[:i + 1]
    return own


def _void_supports(state: DRState, eff: Effective) -> None:
    """DR-ORD-5, DR-ORD-6, G-7, DR-ART-4: supports checked against effective orders."""
    for token in token_order(state):
        order = eff.orders[token.id]
        if order.kind == SUPPORT:
            reason = support_void_reason(state, eff, order)
            if reason:
                eff.void_supports[token.id] = reason


def support_void_reason(state: DRState, eff: Effective, order: Order) -> str:
    """Why a (position-valid) support adds nothing given what its target actually does."""
    target = eff.orders[order.target]
    if not order.path:
        return f"{order.target} is moving, so it cannot be supported to hold" if target.kind == MOVE else ""
    if order.target in eff.stopped:
        return f"{order.target}'s move was stopped by its artillery die"
    if target.kind != MOVE:
        return f"{order.target} is not moving"
    if target.destination != order.path[-1]:
        return f"{order.target} moves to {target.destination}, not {order.path[-1]}"
    return support_origin_problem(state, order)
