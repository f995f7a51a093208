"""Mighty Kingdoms tests see the rule system in the registry under its name."""

from __future__ import annotations

import pytest

from pbem.rulesets import registry


@pytest.fixture(autouse=True)
def _mighty_kingdoms_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    if "mighty_kingdoms" not in registry.RULESETS.names():
        monkeypatch.setitem(registry.RULESETS.extra, "mighty_kingdoms", "pbem.rulesets.mighty_kingdoms.ruleset:RULESET")
