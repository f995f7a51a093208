"""A Daemon Rift position at each window a turn waits in besides the orders (the army lists, the
battle window, the retreat window), as `pbem export-position` wrote it from the quick season of
tests/season: `pbem import` opens that window and an export of the imported campaign writes the
same position again, every record of the turn under way read back exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.rulesets import registry
from tests.support.roundtrip import position_body, reads_back, season_campaign

POSITIONS = Path(__file__).parent / "positions"


@pytest.mark.parametrize("window", ["lists", "battles", "retreats"])
def test_a_position_at_the_window_opens_it_and_reads_back_exactly(tmp_path: Path, window: str) -> None:
    position = POSITIONS / f"{window}.toml"
    kind, again = reads_back(season_campaign(tmp_path, "daemon_rift"), registry.get("daemon_rift"), position)
    assert kind == window
    assert position_body(again) == position_body(position.read_text(encoding="utf-8"))
