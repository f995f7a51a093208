"""Every registered rule system plays a whole season through the tick (OpenSpiel's random_sim_test,
through mail): seeded simulated players and a GM, with silence, disputes, typos, a pause, an
extension and a replacement, every tick checked (tests/season/checks.py).

A few seeds run in the normal suite; `PBEM_SEASON_SEEDS=N python3 -m pytest -m season_long
tests/season` (or `python bench/season.py --seeds N`) plays N more seeds of every system.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pbem.rulesets import registry
from tests.season.agents import AGENTS
from tests.season.driver import play

SYSTEMS = sorted(registry.available())
NORMAL_SEEDS = (1, 2)
LONG_SEEDS = int(os.environ.get("PBEM_SEASON_SEEDS", "0"))


def test_every_registered_rule_system_has_simulated_players() -> None:
    """A new rule system (built in or through the entry point) joins the season simulation."""
    assert [s for s in SYSTEMS if s not in AGENTS] == [], "add an agent in tests/season/agents.py"


@pytest.mark.parametrize("seed", NORMAL_SEEDS)
@pytest.mark.parametrize("system", SYSTEMS)
def test_season_plays_to_its_end(season_root: Path, system: str, seed: int) -> None:
    season = play(season_root, system, seed, quick=True)
    assert season.stage().over and season.over_tick
    assert season.verified_turns, "no finished turn's dice were verified"
    assert season.gm_done == {"pause", "resume", "extend", "typo", "replace", "resolve", "rollback"}


@pytest.mark.season_long
@pytest.mark.skipif(not LONG_SEEDS, reason="set PBEM_SEASON_SEEDS=N to play N seeds of every rule system")
@pytest.mark.parametrize("seed", range(100, 100 + max(LONG_SEEDS, 1)))
@pytest.mark.parametrize("system", SYSTEMS)
def test_long_season(season_root: Path, system: str, seed: int) -> None:
    season = play(season_root, system, seed)
    assert season.stage().over
