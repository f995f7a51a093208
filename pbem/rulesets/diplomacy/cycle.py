"""The Diplomacy year as a pipeline of pure steps.

    Spring movement -> (Spring retreats) -> Fall movement -> (Fall retreats)
    -> supply-centre ownership -> (solo victory) -> (Winter adjustments) -> next Spring

`advance` plays the phase the game is in with the orders given and walks on to
the next phase that needs orders, skipping what has nothing to decide: a
retreat phase without dislodged units, one whose dislodged units have nowhere
to go (they are disbanded at once), and a winter in which no power can build
or must remove. Centres change owner only after the Fall retreats, when a unit
stands in them; a power that owns 18 (`victory`) or more then wins alone.
A power with neither units nor centres is eliminated. Draws are declared by
the game master (`declare_draw`) among surviving powers and end the game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from pbem.rulesets.diplomacy.adjustments import adjudicate_adjustments
from pbem.rulesets.diplomacy.board import Board
from pbem.rulesets.diplomacy.movement import adjudicate_movement
from pbem.rulesets.diplomacy.orders import Retreat
from pbem.rulesets.diplomacy.results import (
    INVALID,
    DislodgedUnit,
    PhaseResult,
    Submitted,
    sort_units,
)
from pbem.rulesets.diplomacy.retreats import adjudicate_retreats
from pbem.rulesets.diplomacy.units import Unit

SPRING, FALL, WINTER = "spring", "fall", "winter"
MOVEMENT, RETREAT, ADJUSTMENT, OVER = "movement", "retreat", "adjustment", "over"
VICTORY_CENTRES = 18


@dataclass(frozen=True)
class GameState:
    """Where a game stands: the phase it waits for and the board."""

    year: int
    season: str                                   # spring | fall | winter
    phase: str                                    # movement | retreat | adjustment | over
    units: tuple[Unit, ...]
    centers: Mapping[str, str]                    # owned supply centre -> owner
    dislodged: tuple[DislodgedUnit, ...] = ()     # retreat phase only
    contested: tuple[str, ...] = ()               # retreat phase: left empty by a standoff
    eliminated: tuple[str, ...] = ()
    winner: str = ""
    draw: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """"Spring 1901 movement", "Winter 1901 adjustments", "Game over after Fall 1905"."""
        if self.phase == OVER:
            return f"Game over after {self.season.title()} {self.year}"
        name = {MOVEMENT: "movement", RETREAT: "retreats", ADJUSTMENT: "adjustments"}[self.phase]
        return f"{self.season.title()} {self.year} {name}"

    def units_of(self, power: str) -> list[Unit]:
        return [u for u in self.units if u.power == power]

    def centres_of(self, power: str) -> list[str]:
        return sorted(c for c, owner in self.centers.items() if owner == power)

    def survivors(self, board: Board) -> list[str]:
        return [p for p in board.powers if p not in self.eliminated]


@dataclass(frozen=True)
class OwnerChange:
    centre: str
    before: str          # "" when the centre was neutral
    after: str


@dataclass
class Step:
    """What one call of `advance` did: the phases resolved (the ordered one first,
    then any resolved automatically), ownership changes, eliminations."""

    before: GameState
    after: GameState
    results: list[PhaseResult] = field(default_factory=list)
    changes: list[OwnerChange] = field(default_factory=list)
    eliminated: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)     # titles of phases with nothing to decide
    ownership_updated: bool = False                      # the Fall ended: centres changed hands


# ---------------------------------------------------------------- opening


def opening(board: Board, year: int = 1901) -> GameState:
    """Spring of the first year: every power on its home centres with its starting units."""
    units = [Unit.parse(f"{power}: {text}", board) for power, spec in board.powers.items() for text in spec.units]
    centers = {c: power for power, spec in board.powers.items() for c in spec.home}
    return GameState(year, SPRING, MOVEMENT, tuple(sort_units(units)), centers)


# ---------------------------------------------------------------- what each phase asks


def adjustments_due(board: Board, state: GameState) -> dict[str, int]:
    """Per power: builds it may make (> 0, at most its free home centres) or units it must remove (< 0)."""
    out: dict[str, int] = {}
    for power in state.survivors(board):
        change = len(state.centres_of(power)) - len(state.units_of(power))
        if change > 0:
            change = min(change, len(build_sites(board, state, power)))
        if change:
            out[power] = change
    return out


def build_sites(board: Board, state: GameState, power: str) -> list[str]:
    """Home centres the power still owns and no unit stands in."""
    occupied = {u.province for u in state.units}
    return [c for c in board.powers[power].home if state.centers.get(c) == power and c not in occupied]


def retreat_options(board: Board, state: GameState, dislodged: DislodgedUnit) -> list[str]:
    """Where a dislodged unit may retreat, as the retreat adjudicator would accept it."""
    unit = dislodged.unit
    reach = board.army_adj if unit.kind == "A" else board.fleet_adj
    options = []
    for dst in sorted(reach.get(unit.loc, ())):
        order = Retreat(unit.kind, unit.loc, dst)
        trial = adjudicate_retreats(board, state.units, [dislodged], state.contested, [(unit.power, order)])
        if trial.orders[0].result != INVALID:
            options.append(dst)
    return options


def owing(board: Board, state: GameState) -> list[str]:
    """Powers that have something to order in the current phase, in map order."""
    if state.phase == MOVEMENT:
        return [p for p in state.survivors(board) if state.units_of(p)]
    if state.phase == RETREAT:
        powers = {d.unit.power for d in state.dislodged if retreat_options(board, state, d)}
        return [p for p in board.powers if p in powers]
    if state.phase == ADJUSTMENT:
        return list(adjustments_due(board, state))
    return []


# ---------------------------------------------------------------- the pipeline


def advance(
    board: Board, state: GameState, orders: Sequence[Submitted], edition: str = "3.0",
    victory: int = VICTORY_CENTRES,
) -> Step:
    """Resolve the current phase with `orders` and move on to the next phase that needs orders."""
    if state.phase == OVER:
        raise ValueError("the game is over")
    step = Step(state, state)
    if state.phase == MOVEMENT:
        result = adjudicate_movement(board, state.units, orders, edition)
        step.results.append(result)
        _after_movement(board, step, result, edition, victory)
    elif state.phase == RETREAT:
        result = _retreats(board, state, orders, edition)
        step.results.append(result)
        _after_retreats(board, step, replace(state, units=tuple(result.units), dislodged=(), contested=()),
                        edition, victory)
    else:
        result = adjudicate_adjustments(board, state.units, state.centers, orders, edition)
        step.results.append(result)
        _next_spring(board, step, replace(state, units=tuple(result.units)))
    return step


def _retreats(board: Board, state: GameState, orders: Sequence[Submitted], edition: str) -> PhaseResult:
    return adjudicate_retreats(board, state.units, state.dislodged, state.contested, orders, edition)


def _after_movement(board: Board, step: Step, result: PhaseResult, edition: str, victory: int) -> None:
    state = replace(step.before, units=tuple(result.units), dislodged=tuple(result.dislodged),
                    contested=tuple(result.contested), phase=RETREAT)
    if not result.dislodged:
        _after_retreats(board, step, replace(state, dislodged=(), contested=()), edition, victory)
        return
    if not owing(board, state):
        auto = _retreats(board, state, [], edition)
        step.results.append(auto)
        step.skipped.append(state.title)
        _after_retreats(board, step, replace(state, units=tuple(auto.units), dislodged=(), contested=()),
                        edition, victory)
        return
    _settle(board, step, state)


def _after_retreats(board: Board, step: Step, state: GameState, edition: str, victory: int) -> None:
    if state.season == SPRING:
        _settle(board, step, replace(state, season=FALL, phase=MOVEMENT))
        return
    state, step.changes = update_ownership(board, state)
    step.ownership_updated = True
    winners = [p for p in board.powers if len(state.centres_of(p)) >= victory]
    if winners:
        best = max(winners, key=lambda p: len(state.centres_of(p)))
        _settle(board, step, replace(state, phase=OVER, winner=best))
        return
    winter = replace(state, season=WINTER, phase=ADJUSTMENT)
    if not owing(board, winter):
        step.skipped.append(winter.title)
        _next_spring(board, step, winter)
        return
    _settle(board, step, winter)


def _next_spring(board: Board, step: Step, state: GameState) -> None:
    _settle(board, step, replace(state, year=state.year + 1, season=SPRING, phase=MOVEMENT))


def _settle(board: Board, step: Step, state: GameState) -> None:
    """Record eliminations and the state reached; a game with one power left is won by it."""
    gone = [p for p in state.survivors(board) if not state.units_of(p) and not _has_dislodged(state, p)
            and not state.centres_of(p)]
    if gone:
        step.eliminated += gone
        state = replace(state, eliminated=tuple(p for p in board.powers if p in {*state.eliminated, *gone}))
    left = state.survivors(board)
    if len(left) == 1 and state.phase != OVER:
        state = replace(state, phase=OVER, winner=left[0])
    step.after = state


def _has_dislodged(state: GameState, power: str) -> bool:
    return any(d.unit.power == power for d in state.dislodged)


def update_ownership(board: Board, state: GameState) -> tuple[GameState, list[OwnerChange]]:
    """After the Fall retreats: a supply centre belongs to the power whose unit stands in it."""
    centers = dict(state.centers)
    changes = []
    for unit in state.units:
        prov = unit.province
        if board.provinces[prov].supply and centers.get(prov, "") != unit.power:
            changes.append(OwnerChange(prov, centers.get(prov, ""), unit.power))
            centers[prov] = unit.power
    return replace(state, centers=centers), sorted(changes, key=lambda c: c.centre)


# ---------------------------------------------------------------- the game master


def declare_draw(board: Board, state: GameState, powers: Sequence[str]) -> GameState:
    """End the game in a draw shared by the named surviving powers (`ALL`: every survivor)."""
    if state.phase == OVER:
        raise ValueError("the game is already over")
    survivors = state.survivors(board)
    if [p.upper() for p in powers] == ["ALL"]:
        named = survivors
    else:
        named = []
        for text in powers:
            power = board.power_names.lookup(text)
            if power not in survivors:
                raise ValueError(f"{power} is eliminated and cannot share a draw")
            if power not in named:
                named.append(power)
    if len(named) < 2:
        raise ValueError("a draw is shared by at least two surviving powers (DRAW England France ..., or DRAW ALL)")
    ordered = tuple(p for p in board.powers if p in named)
    return replace(state, phase=OVER, draw=ordered, dislodged=(), contested=())
