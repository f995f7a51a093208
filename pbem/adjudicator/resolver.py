"""Dependency resolution for simultaneous-order adjudication.

The resolver knows nothing about what orders mean. A rule system asks it for the
value of a *decision* (any hashable key: "does this move succeed?", "is that unit
dislodged?"), and supplies a function that works one decision out, asking the
resolver for the decisions it depends on. The resolver caches answers, detects
cycles, and settles them with the guessing algorithm from the Diplomacy
Adjudicator Test Cases (Kruijswijk): a cycle whose decisions come out the same
under both guesses is consistent; one with a single consistent guess takes it;
otherwise the rule system's backup rule decides (circular movement, convoy
paradoxes, or whatever the variant needs).

Decisions are booleans. Rule systems that need numbers (strengths) compute them
from boolean decisions, as the DATC describes.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from enum import Enum
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

# Chains of moves recurse one level per link; Python 3.11 runs pure-Python
# recursion without growing the C stack, so a generous limit is safe.
_RECURSION_LIMIT = 200_000


class _Mark(Enum):
    GUESSING = 1
    RESOLVED = 2


Decide = Callable[["Resolver[K]", K], bool]
Backup = Callable[["Resolver[K]", Sequence[K]], None]


class Resolver(Generic[K]):
    """Caches decisions and settles the cycles between them.

    `decide(resolver, key)` must be a pure function of the decisions it asks for.
    `backup(resolver, cycle)` is called when a cycle has no or two consistent
    outcomes; it must settle every key of the cycle with :meth:`settle`.
    """

    def __init__(self, decide: Decide[K], backup: Backup[K]) -> None:
        self._decide = decide
        self._backup = backup
        self._mark: dict[K, _Mark] = {}
        self._value: dict[K, bool] = {}
        self._deps: list[K] = []

    def __call__(self, key: K) -> bool:
        """Shorthand for :meth:`resolve` (deep chains should call resolve directly:
        calling an instance goes through the C stack)."""
        return self.resolve(key)

    def decide_all(self, keys: Sequence[K]) -> dict[K, bool]:
        """Resolve many decisions at once, allowing long dependency chains."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, _RECURSION_LIMIT))
        try:
            return {k: self.resolve(k) for k in keys}
        finally:
            sys.setrecursionlimit(old)

    def settle(self, key: K, value: bool) -> None:
        """Fix a decision's value (used by backup rules)."""
        self._mark[key] = _Mark.RESOLVED
        self._value[key] = value

    def is_resolved(self, key: K) -> bool:
        return self._mark.get(key) is _Mark.RESOLVED

    def resolve(self, key: K) -> bool:
        mark = self._mark.get(key)
        if mark is _Mark.RESOLVED:
            return self._value[key]
        if mark is _Mark.GUESSING:
            if key not in self._deps:
                self._deps.append(key)
            return self._value[key]
        return self._resolve_fresh(key)

    def _resolve_fresh(self, key: K) -> bool:
        start = len(self._deps)
        first = self._try(key, guess=False)
        if len(self._deps) == start:
            # Depends on no guess: final, unless a backup rule settled it meanwhile.
            if self._mark.get(key) is not _Mark.RESOLVED:
                self.settle(key, first)
            return self._value[key]
        if self._deps[start] != key:
            # Part of a cycle around another decision: stay a guess for now.
            self._deps.append(key)
            self._value[key] = first
            return first
        # `key` heads a cycle: try the other guess.
        self._reset_from(start)
        second = self._try(key, guess=True)
        if first == second:
            self._reset_from(start)
            self.settle(key, first)
            return first
        cycle = list(self._deps[start:])
        self._reset_from(start)
        self._backup(self, cycle)
        if self._mark.get(key) is not _Mark.RESOLVED:
            raise RuntimeError(f"backup rule left {key!r} unsettled")
        return self.resolve(key)

    def _try(self, key: K, guess: bool) -> bool:
        self._mark[key] = _Mark.GUESSING
        self._value[key] = guess
        return self._decide(self, key)

    def _reset_from(self, start: int) -> None:
        for k in self._deps[start:]:
            if self._mark.get(k) is _Mark.GUESSING:
                del self._mark[k]
                self._value.pop(k, None)
        del self._deps[start:]
