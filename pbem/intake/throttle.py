"""One sliding window for everything pbem limits per sender or account.

A throttle counts events per key (an address, a forum account) within the last `window`, in a
book kept in state.toml or auth.toml: key -> the ISO times of the events still in the window.
What counts as an event is the caller's: automatic replies given (the reply limit, the
postmaster), failed logins (every one, answered or not), alerts told (the forum).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from pbem.state.schedule import iso, parse_time

Book = MutableMapping[str, Any]
"""key -> list of ISO times, as stored in a TOML table."""


@dataclass(frozen=True)
class Throttle:
    limit: int
    """Events a key may have within the window."""
    window: timedelta

    def count(self, book: Book, key: str, now: datetime) -> int:
        """The key's events within the window; older ones are dropped from the book."""
        return len(self._recent(book, key, now))

    def allows(self, book: Book, key: str, now: datetime) -> bool:
        """Another event is within the limit."""
        return self.count(book, key, now) < self.limit

    def record(self, book: Book, key: str, now: datetime) -> int:
        """Count an event now; the key's events within the window, this one included."""
        recent = self._recent(book, key, now)
        recent.append(iso(now))
        return len(recent)

    def admit(self, book: Book, key: str, now: datetime) -> bool:
        """Record an event now if the limit allows it; whether it did."""
        allowed = self.allows(book, key, now)
        if allowed:
            self.record(book, key, now)
        return allowed

    def forget(self, book: Book, now: datetime) -> None:
        """Drop the keys with no event within the window, so the book does not grow forever."""
        for key in [key for key in book if not self._live(book[key], now)]:
            del book[key]

    def _recent(self, book: Book, key: str, now: datetime) -> list[str]:
        recent = self._live(book.get(key, []), now)
        book[key] = recent
        return recent

    def _live(self, times: Any, now: datetime) -> list[str]:
        """The times within the window; a single time (an older book's shape) counts as one."""
        listed = [times] if isinstance(times, str) else list(times)
        return [time for time in listed if parse_time(time) > now - self.window]
