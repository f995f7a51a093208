"""What the projector shows: the current map picture and the round's log, with a version that
moves on at every step, so a page waiting for a change (`wait`) is answered at once."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any


class Board:
    """Shared between the table's sitting (which changes it) and the page server's threads."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self.version = 0
        self.title = ""
        self.svg = ""
        self.log: list[str] = []
        self.status = ""
        self.watching = 0          # pages waiting for the next change now

    def show(self, title: str | None = None, svg: str | None = None, lines: Sequence[str] = (),
             status: str | None = None) -> None:
        """Change what is shown: a new title, map or status, and log lines added."""
        with self._changed:
            self.title = self.title if title is None else title
            self.svg = self.svg if svg is None else svg
            self.status = self.status if status is None else status
            self.log += lines
            self.version += 1
            self._changed.notify_all()

    def snapshot(self) -> dict[str, Any]:
        with self._changed:
            return {"version": self.version, "title": self.title, "status": self.status, "log": list(self.log),
                    "svg": self.svg, "watching": self.watching}

    def wait(self, after: int, seconds: float) -> dict[str, Any]:
        """The board once its version is no longer `after`, or as it is after `seconds`."""
        with self._changed:
            self.watching += 1
            try:
                self._changed.wait_for(lambda: self.version != after, timeout=seconds)
            finally:
                self.watching -= 1
        return self.snapshot()
