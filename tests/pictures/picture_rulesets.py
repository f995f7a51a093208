"""A test-only rule system that draws no pictures (the base hook's answer): Conquest with its
scene hook turned off. Registered by tests through the registry."""

from __future__ import annotations

from typing import Any

from pbem.rulesets.conquest.ruleset import Conquest
from pbem.rulesets.phases import View


class NoPictures(Conquest):
    def scene(self, view: View[Any, Any]) -> Any:
        return None


NO_PICTURES = NoPictures()
