"""The test seam of a tick: named points where a test injects a crash that no boundary catches."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pbem.intake.isolation import INJECTED


@dataclass
class Faults:
    """Test seam: called at named points so tests can inject a crash."""

    hook: Callable[[str], None] = lambda point: None

    def __post_init__(self) -> None:
        """What the hook raises stands for a kill of the process: tagged so that no
        boundary of the tick catches it (pbem/intake/isolation.py)."""
        inner = self.hook

        def hook(point: str) -> None:
            try:
                inner(point)
            except BaseException as exc:
                setattr(exc, INJECTED, True)
                raise

        self.hook = hook

    def hook_sent(self, name: str) -> None:
        self.hook("sent")
