"""Winter: gather resources (MK-GTH-1..8)."""

from __future__ import annotations

from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import MKView


def run(view: MKView, sections: list[Section]) -> None:
    """Every player gathers at once: villages give food, cities gold, an own capital one more gold."""
    raise NotImplementedError("gather")
