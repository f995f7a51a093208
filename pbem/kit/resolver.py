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
from boolean decisions, as the DATC describes. A rule system that can tell some
decisions without asking about others (a move into an empty, uncontested
province) passes them in as `known`, so only the entangled ones go through the
guessing machinery.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Sequence
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

# Chains of moves recurse one level per link; Python 3.11 runs pure-Python
# recursion without growing the C stack, so a generous limit is safe.
_RECURSION_LIMIT = 200_000

Decide = Callable[["Resolver[K]", K], bool]
Backup = Callable[["Resolver[K]", Sequence[K]], None]


class Resolver(Generic[K]):
    """Caches decisions and settles the cycles between them.

    `decide(resolver, key)` must be a pure function of the decisions it asks for.
    `backup(resolver, cycle)` is called when a cycle has no or two consistent
    outcomes; it must settle every key of the cycle with :meth:`settle`.
    `known` holds decisions the rule system has already settled; the resolver
    adds to that table rather than copying it (it is most of a phase), so pass
    one the caller no longer changes.
    """

    def __init__(self, decide: Decide[K], backup: Backup[K], known: dict[K, bool] | None = None) -> None:
        self._decide = decide
        self._backup = backup
        self._known: dict[K, bool] = {} if known is None else known
        # Decisions being worked out or standing on a guess, with their provisional value.
        self._guess: dict[K, bool] = {}
        # The guessed decisions that others have consulted, in order, and as a set.
        self._deps: list[K] = []
        self._in_deps: set[K] = set()

    def __call__(self, key: K) -> bool:
        """Shorthand for :meth:`resolve` (deep chains should call resolve directly:
        calling an instance goes through the C stack)."""
        return self.resolve(key)

    def decide_all(self, keys: Sequence[K]) -> dict[K, bool]:
        """Resolve many decisions at once, allowing long dependency chains."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, _RECURSION_LIMIT))
        try:
            resolve = self.resolve
            return {k: resolve(k) for k in keys}
        finally:
            sys.setrecursionlimit(old)

    def settled(self) -> dict[K, bool]:
        """Every decision settled so far, the `known` ones included: after
        `decide_all`, the whole outcome in one table (the resolver's own, so no
        copy is made; read it, do not change it)."""
        return self._known

    def settle(self, key: K, value: bool) -> None:
        """Fix a decision's value (used by backup rules)."""
        self._known[key] = value
        self._guess.pop(key, None)

    def is_resolved(self, key: K) -> bool:
        return key in self._known

    def resolve(self, key: K) -> bool:
        value = self._known.get(key)
        if value is not None:
            return value
        value = self._guess.get(key)
        if value is not None:
            if key not in self._in_deps:
                self._in_deps.add(key)
                self._deps.append(key)
            return value
        return self._resolve_fresh(key)

    def _resolve_fresh(self, key: K) -> bool:
        start = len(self._deps)
        self._guess[key] = False
        first = self._decide(self, key)
        if len(self._deps) == start:
            # Depends on no guess: final, unless a backup rule settled it meanwhile
            # (`settle` written out: this is the path most decisions take).
            settled = self._known.setdefault(key, first)
            self._guess.pop(key, None)
            return settled
        if self._deps[start] != key:
            # Part of a cycle around another decision: stay a guess for now.
            if key not in self._in_deps:
                self._in_deps.add(key)
                self._deps.append(key)
            self._guess[key] = first
            return first
        # `key` heads a cycle: try the other guess.
        self._reset_from(start)
        self._guess[key] = True
        second = self._decide(self, key)
        if first == second:
            self._reset_from(start)
            self.settle(key, first)
            return first
        cycle = list(self._deps[start:])
        self._reset_from(start)
        self._backup(self, cycle)
        if key not in self._known:
            raise RuntimeError(f"backup rule left {key!r} unsettled")
        return self._known[key]

    def _reset_from(self, start: int) -> None:
        """Forget the guesses made since `start`, for another try or for good."""
        for k in self._deps[start:]:
            self._guess.pop(k, None)
            self._in_deps.discard(k)
        del self._deps[start:]
