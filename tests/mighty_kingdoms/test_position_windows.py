"""A Mighty Kingdoms position at each window besides a month's Orders and a winter's purchases
(setup's roll-off, window S and army lists, a battle window, the winter's deployment), as `pbem
export-position` wrote it from the quick season of tests/season: `pbem import` opens that
window and an export of the imported campaign writes the same position again, every record of
the window read back exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.rulesets import registry
from tests.support.roundtrip import position_body, reads_back, season_campaign

POSITIONS = Path(__file__).parent / "positions"


@pytest.mark.parametrize("window", ["opening", "setup", "lists", "battle", "deployment"])
def test_a_position_at_the_window_opens_it_and_reads_back_exactly(tmp_path: Path, window: str) -> None:
    position = POSITIONS / f"{window}.toml"
    kind, again = reads_back(season_campaign(tmp_path, "mighty_kingdoms"), registry.get("mighty_kingdoms"), position)
    assert kind == window
    assert position_body(again) == position_body(position.read_text(encoding="utf-8"))


def test_a_battle_window_written_by_hand_without_its_records_is_refused_naming_the_window(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (POSITIONS / "battle.toml").read_text(encoding="utf-8")
    position = tmp_path / "battle.toml"
    position.write_text(text[:text.index("[records")], encoding="utf-8")      # the board alone
    folder = season_campaign(tmp_path / "season", "mighty_kingdoms")
    capsys.readouterr()
    assert main(["import", str(folder), str(position)]) != 0
    err = capsys.readouterr().err
    assert "window: the battle window goes on from the [records] of the month or winter under way" in err
    assert err.count("\n") == 1
