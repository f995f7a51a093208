"""`pbem demo --ruleset diplomacy` plays the sample mails through the engine:
Spring 1901, Fall 1901 with a dislodgement and retreat, and the Winter 1901 builds."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.state.campaign import Campaign


def test_diplomacy_demo_plays_spring_fall_with_a_retreat_and_winter_builds(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--ruleset", "diplomacy", str(tmp_path / "demo")]) == 0
    log = capsys.readouterr().out
    for phase in ("Spring 1901 movement", "Fall 1901 movement", "Fall 1901 retreats", "Winter 1901 adjustments"):
        assert f"resolved {phase}" in log
    camp = Campaign(tmp_path / "demo" / "campaigns" / "dip-demo")
    assert camp.state["stage"]["title"] == "Spring 1902 movement"
    history = camp.folder / "history"
    spring = (history / "001" / "movement-report.md").read_text()
    assert "No orders received from: Turkey. Their units held." in spring
    fall = (history / "002" / "movement-report.md").read_text()
    assert "France `A BUR`, dislodged by the attack from MUN" in fall
    assert "`A BUR R PIC`: succeeds" in (history / "002" / "retreats-report.md").read_text()
    winter = (history / "002" / "adjustments-report.md").read_text()
    assert "`BUILD A PAR`: succeeds" in winter and "No orders received from: Italy." in winter
    units = camp.state["game"]["units"]
    assert {"France: A PIC", "France: A PAR", "France: F MAR", "Germany: A BUR", "England: A NWY"} <= set(units)
    assert camp.state["game"]["centers"]["NWY"] == "England"
