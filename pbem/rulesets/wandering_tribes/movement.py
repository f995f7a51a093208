"""One move attempt (WT-MOV, WT-CMD, WT-ROAD, WT-ENC): a command test, then tile by tile along the
road arrows until a test fails, the stack stops at a camp fire, locks in combat, is sent back to
its start tile or reaches a dead end. Every die goes through the dice API with its purpose."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.dice import Dice, dice_spec
from pbem.rulesets.wandering_tribes.armylist import command_value
from pbem.rulesets.wandering_tribes.model import Lock, Stack, State
from pbem.rulesets.wandering_tribes.plan import PASS, STOP, STOP_AT, Attempt
from pbem.rulesets.wandering_tribes.rules import Rules
from pbem.rulesets.wandering_tribes.squares import OPPOSITE, ORIGIN, SquareMap


@dataclass
class Turn:
    """What one player's round works on: the state it changes, and where its record goes."""

    state: State
    rules: Rules
    gmap: SquareMap
    player: str
    dice: Dice
    log: list[str] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)


@dataclass
class Outcome:
    stack: str
    start: str
    moved: bool = False           # WT-MOV-5: passed the first test and entered a tile
    path: list[str] = field(default_factory=list)
    no_recruit: bool = False      # sent back to its start tile (WT-REC-2)
    ends_round: bool = False      # the active player became resting: no more attempts (WT-MOV-8)


@dataclass
class Walk:
    """Where the attempt stands between steps."""

    tile: str
    entered_by: str = ORIGIN
    entered: int = 0
    route: list[str] = field(default_factory=list)


def command_test(turn: Turn, stack: Stack, entered: int) -> bool:
    """WT-CMD-3..10: 2D6, pass on total <= command + modifier; 12 fails; rolled even when hopeless."""
    nation = turn.rules.nations[turn.state.players[stack.owner].nation]
    target = command_value(nation, stack) + turn.rules["command_test.modifier_per_tile_entered"] * entered
    count, sides = dice_spec(turn.rules["command_test.dice"])
    roll = turn.dice.roll(f"command test {stack.id} in {stack.tile} (target {target})", count, sides)
    passed = roll.total <= target and not (roll.total == 12 and turn.rules["command_test.twelve_always_fails"])
    turn.log.append(f"  {stack.id} in {stack.tile}: command test {roll.total} vs {target}: "
                    + ("passed" if passed else "failed"))
    return passed


def choose_exit(turn: Turn, entry: Attempt, walk: Walk) -> str:
    """WT-PBEM-7: the planned route, then FIRST (first step) or the tile's FORK ranking, then the
    entry's default ranking, then N, E, S, W; "" when no exit is allowed."""
    allowed = turn.gmap.exits(walk.tile, walk.entered_by)
    if walk.route:
        side = turn.gmap.side_of(walk.tile, walk.route[0])
        if side in allowed:
            walk.route.pop(0)
            return side
        walk.route.clear()                  # gap 27: a route that cannot be followed is dropped
    ranked = entry.first if walk.entered_by == ORIGIN else entry.forks.get(walk.tile, [])
    for ranking in (ranked, entry.default, turn.rules["movement.default_direction_priority"]):
        side = next((s for s in ranking if s in allowed), "")
        if side:
            return side
    return ""


def attempt(turn: Turn, stack_id: str, entry: Attempt) -> Outcome:
    """Resolve one attempt completely (WT-MOV-7)."""
    stack = turn.state.stacks[stack_id]
    out = Outcome(stack.id, stack.tile)
    walk = Walk(stack.tile, route=list(entry.route))
    if not turn.gmap.exits(stack.tile):
        turn.log.append(f"  {stack.id} in {stack.tile}: no road leaves the tile; attempted without success")
        return out
    if not command_test(turn, stack, 0):
        return out
    forced = False
    while True:
        side = choose_exit(turn, entry, walk)
        if not side:
            return _dead_end(turn, stack, out, forced)
        _step(turn, stack, out, walk, side)
        if walk.entered > turn.rules["movement.max_steps"]:
            turn.alerts.append(f"{stack.id} entered more than {turn.rules['movement.max_steps']} tiles in one "
                               "attempt (WT-MOV-11); it was sent back to its start tile")
            return _back(turn, stack, out, "the step cap")
        verdict = _encounter(turn, stack, out)
        if verdict == "stop":
            return out
        forced = verdict == "forced"
        if not forced and _campfire_stop(turn, entry, walk.tile):
            turn.log.append(f"  {stack.id} stops at the camp fire in {walk.tile}")
            return out
        if not forced and not _next_exit_exists(turn, walk):
            return _dead_end(turn, stack, out, False)
        if not forced and not command_test(turn, stack, walk.entered):
            turn.log.append(f"  {stack.id} stops in {walk.tile}")
            return out


def _next_exit_exists(turn: Turn, walk: Walk) -> bool:
    return bool(turn.gmap.exits(walk.tile, walk.entered_by))


def _step(turn: Turn, stack: Stack, out: Outcome, walk: Walk, side: str) -> None:
    there = turn.gmap.toward(walk.tile, side)
    walk.tile, walk.entered_by, walk.entered = there, OPPOSITE[side], walk.entered + 1
    stack.tile = there
    out.moved = True
    out.path.append(there)
    turn.log.append(f"  {stack.id} moves {side} into {there} ({turn.gmap.terrain(there)}; "
                    f"tiles entered: {walk.entered})")


def _dead_end(turn: Turn, stack: Stack, out: Outcome, forced: bool) -> Outcome:
    """WT-ROAD-5: the movement ends; a forced move that cannot go on is WT-ENC-5."""
    if not forced:
        turn.log.append(f"  {stack.id}: the road ends in {stack.tile} (dead end); it stops there")
        return out
    turn.alerts.append(f"{stack.id} had to move on from {stack.tile} but the road ends there (WT-ENC-5)")
    if turn.rules["movement.forced_move_blocked"] == "stay":
        out.no_recruit = True
        turn.log.append(f"  {stack.id} must move on from {stack.tile} but cannot; it stays (GM told)")
        return out
    return _back(turn, stack, out, "a blocked forced move")


def _back(turn: Turn, stack: Stack, out: Outcome, why: str) -> Outcome:
    """The stack goes back to the tile it started from and cannot recruit (WT-ENC-5/9/11)."""
    stack.tile = out.start
    out.no_recruit = True
    out.path.append(out.start)
    turn.log.append(f"  {stack.id} goes back to {out.start} ({why}) and cannot recruit this round")
    return out


def _campfire_stop(turn: Turn, entry: Attempt, tile: str) -> bool:
    """WT-PBEM-8 / WT-ENC-12: STOP at the first camp fire, STOP-AT listed tiles, PASS never."""
    if not turn.gmap.tiles[tile].campfire or entry.campfire == PASS:
        return False
    return entry.campfire == STOP or (entry.campfire == STOP_AT and tile in entry.stop_at)


def _encounter(turn: Turn, stack: Stack, out: Outcome) -> str:
    """WT-ENC-1..11 in order: "forced" (move on, no roll), "stop" (movement over) or "" (go on)."""
    state = turn.state
    here = [s for s in state.stacks_in(stack.tile) if s.id != stack.id]
    enemies = [s for s in here if s.owner != turn.player]
    resting = [s for s in enemies if state.players[s.owner].resting]
    if resting or any(state.locked(s.id) for s in here):
        what = f"resting {resting[0].owner}'s {resting[0].id}" if resting else "stacks locked in combat"
        turn.log.append(f"  {stack.tile} holds {what}: {stack.id} must move on (no roll)")
        return "forced"
    if not enemies:
        return ""
    return _meet(turn, stack, out, enemies[0])


def _meet(turn: Turn, stack: Stack, out: Outcome, enemy: Stack) -> str:
    state, limit = turn.state, int(turn.rules.per_mode("rest.max_locked_per_player"))
    mine_full = bool(limit) and state.locked_count(turn.player) >= limit
    theirs_full = bool(limit) and state.locked_count(enemy.owner) >= limit
    if mine_full:
        _rest(turn, turn.player, "already has a stack locked (WT-ENC-9/11)")
        if theirs_full:
            _rest(turn, enemy.owner, "already has a stack locked (WT-ENC-11)")
        out.ends_round = True
        _back(turn, stack, out, f"{turn.player} already has a stack locked")
        return "stop"
    if theirs_full:
        _rest(turn, enemy.owner, "already has a stack locked (WT-ENC-10)")
        turn.log.append(f"  {stack.id} moves on through {stack.tile} (no roll)")
        return "forced"
    state.locks.append(Lock(enemy.id, stack.id, stack.tile))
    turn.log.append(f"  {stack.id} meets {enemy.owner}'s {enemy.id} in {stack.tile}: locked in combat "
                    f"({enemy.id} defends)")
    return "stop"


def _rest(turn: Turn, player: str, why: str) -> None:
    if not turn.state.players[player].resting:
        turn.state.rest(player)
        turn.log.append(f"  {player} becomes resting at once: {why}")
