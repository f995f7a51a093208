"""Sequential rules played by email: ranked lists, orders with alternates, windows per round.

Tabletop rules that let players act one after another ("smallest empire
first") become one email window: everyone sends, in advance, what he wants in
order of preference, and the processor walks the players in the rules' order.
Three shapes cover the rule systems so far:

- `ranked_choices`: each player, at his turn, gets the first entry of his
  ranked list that is legal at that moment (an event nobody took yet, a
  challenge target). The rule system supplies `check` (why an entry is not
  legal now, or "") and `apply` (take it, changing the state later players see).
- `carry_out`: each player's ordered actions, each with alternates, are tried
  at his turn; an action that fails tries its alternates in turn, and `stop`
  ends everything at once (a victory).
- `Cycle`: the windows of a round in order; a window nobody needs is skipped,
  and passing the last window opens a new round.

Nothing here knows what an entry or an action means.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Attempt(Generic[T]):
    """One entry tried for one player: taken, or skipped with the reason."""

    player: str
    entry: T
    rank: int                     # position in the player's list (0-based); -1 for a fallback
    taken: bool
    reason: str = ""
    alternate: int = 0            # 0 = the action itself, 1.. = its alternates


@dataclass
class Turn(Generic[T]):
    """What one player got at his turn."""

    player: str
    attempts: list[Attempt[T]] = field(default_factory=list)
    skipped: str = ""             # why the player did not act at all ("already challenged")

    @property
    def chosen(self) -> list[T]:
        return [a.entry for a in self.attempts if a.taken]

    @property
    def fallback(self) -> bool:
        return any(a.taken and a.rank == -1 for a in self.attempts)


def ranked_choices(order: Sequence[str], lists: Mapping[str, Sequence[T]],
                   check: Callable[[str, T], str], apply: Callable[[str, T], None],
                   fallback: Callable[[str], T | None] | None = None,
                   skip: Callable[[str], str] | None = None) -> list[Turn[T]]:
    """Walk `order`; each player takes the first legal entry of his list.

    `skip(player)` gives a reason to pass the player by entirely. `fallback(player)`
    is asked when he sent no list or none of its entries is legal; it returns an
    entry (checked like any other) or None for nothing."""
    turns: list[Turn[T]] = []
    for player in order:
        turn: Turn[T] = Turn(player)
        turns.append(turn)
        reason = skip(player) if skip else ""
        if reason:
            turn.skipped = reason
            continue
        for rank, entry in enumerate(lists.get(player, ())):
            if _try(turn, entry, rank, check, apply):
                break
        else:
            extra = fallback(player) if fallback else None
            if extra is not None:
                _try(turn, extra, -1, check, apply)
    return turns


def _try(turn: Turn[T], entry: T, rank: int, check: Callable[[str, T], str],
         apply: Callable[[str, T], None]) -> bool:
    reason = check(turn.player, entry)
    if reason:
        turn.attempts.append(Attempt(turn.player, entry, rank, False, reason))
        return False
    apply(turn.player, entry)
    turn.attempts.append(Attempt(turn.player, entry, rank, True))
    return True


@dataclass
class Run(Generic[T]):
    """The outcome of `carry_out`: every attempt in order, and whether `stop` cut it short."""

    turns: list[Turn[T]] = field(default_factory=list)
    stopped_after: str = ""       # the player whose action triggered `stop`
    not_reached: list[str] = field(default_factory=list)


def carry_out(order: Sequence[str], actions: Mapping[str, Sequence[Sequence[T]]],
              attempt: Callable[[str, T], str], stop: Callable[[], bool] = lambda: False,
              before: Callable[[str], None] | None = None,
              after: Callable[[str], None] | None = None) -> Run[T]:
    """Each player in `order` works down his actions; each action is a list of the
    action followed by its alternates. `attempt(player, action)` carries it out
    and returns "" or returns why it could not be done (nothing changed). After
    every action carried out `stop()` is asked; True ends the whole run at once.
    `before`/`after` run around each player's turn (e.g. his budget)."""
    run: Run[T] = Run()
    for index, player in enumerate(order):
        turn: Turn[T] = Turn(player)
        run.turns.append(turn)
        if before:
            before(player)
        for rank, options in enumerate(actions.get(player, ())):
            for alt, option in enumerate(options):
                reason = attempt(player, option)
                turn.attempts.append(Attempt(player, option, rank, not reason, reason, alt))
                if not reason:
                    break
            if stop():
                run.stopped_after = player
                run.not_reached = list(order[index + 1:])
                return run
        if after:
            after(player)
    return run


@dataclass(frozen=True)
class Cycle:
    """The windows of one round, in order, e.g. ("campaign", "setup", "results", "conquest")."""

    windows: tuple[str, ...]

    def after(self, current: str, needed: Callable[[str], bool]) -> tuple[str, bool]:
        """The next window that is needed after `current`, and whether a new round began.

        The first window of a round is always needed (it opens the round)."""
        if current not in self.windows:
            raise ValueError(f"{current!r} is not one of the windows {', '.join(self.windows)}")
        for window in self.windows[self.windows.index(current) + 1:]:
            if needed(window):
                return window, False
        return self.windows[0], True

    def skipped(self, current: str, following: str) -> list[str]:
        """Windows passed over between `current` and `following` in the same round."""
        start = self.windows.index(current) + 1
        stop = self.windows.index(following) if following in self.windows[start:] else len(self.windows)
        return list(self.windows[start:stop])
