"""A strategic round half played at the table moves to another campaign as a position
(docs/positions/wandering_tribes.md, `[table]`): `pbem export-position` writes who has played and
their rounds' log, `pbem import` reads it back, the imported round waits for the table as the old
one did, and the GM's RESOLVE plays the rest from the mail with nobody played twice."""

from __future__ import annotations

import tomllib
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.state.campaign import Campaign
from pbem.table.session import Interrupted, Sitting
from pbem.tick.engine import tick
from tests.support.typed_dice import pbem
from tests.table.helpers import T0, campaign, game, mail, read_mail
from tests.table.test_table_tick import typing


def test_a_round_half_played_at_the_table_is_exported_imported_and_finished(tmp_path: Path) -> None:
    camp = campaign(tmp_path / "one")
    mail(camp, "anna", "TRY A1 ALWAYS FIRST E")
    camp = read_mail(camp)
    with pytest.raises(Interrupted):
        Sitting(camp.folder, typing(["u"])).run()
    played = game(camp.folder)
    assert played["played"] == ["anna"]
    out = tmp_path / "half.toml"
    code, said, _ = pbem("export-position", str(camp.folder), "--out", str(out))
    assert code == 0 and "position written" in said
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert data["table"]["played"] == ["anna"] and "anna's round:" in data["table"]["log"]

    other = campaign(tmp_path / "two")
    assert pbem("import", str(other.folder), str(out), "--force")[0] == 0
    moved = game(other.folder)
    for key in ("played", "round_log", "round_alerts", "sequence", "state"):
        assert moved[key] == played[key], key
    code, status, _ = pbem("status", "--root", str(other.folder.parent))
    assert "under way at the table (anna played; ben, cara to play)" in status
    mail(other, "ben", "TRY B1 ALWAYS FIRST E")
    other = read_mail(other)
    assert pbem("resolve", str(other.folder))[0] == 0
    tick(other.folder.parent, T0 + timedelta(hours=2))
    other = Campaign(other.folder)
    assert other.state["stage"]["title"] == "Strategic round 2: orders"
    report = next((other.folder / "history").glob("*/orders-turn-*.md")).read_text(encoding="utf-8")
    assert report.count("Anna's round:") == 1 and report.count("Ben's round:") == 1
