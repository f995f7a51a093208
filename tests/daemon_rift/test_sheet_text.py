"""A post-battle sheet line is quoted back as players write it: no internal stat keys."""

from __future__ import annotations

from pbem.rulesets.daemon_rift.sheets import SheetLine, stat


def test_stat_preferences_are_written_as_players_type_them() -> None:
    line = SheetLine("C3", prefer=["power_die", "dispel_die", "WS"])
    assert str(line) == "C3 lost 0 [power, dispel, WS]"
    assert [stat(word) for word in ("power", "dispel", "WS")] == line.prefer      # and read back
