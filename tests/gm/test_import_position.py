"""`pbem import CAMPAIGN POSITION.toml` and `pbem new ... --position FILE`: a campaign starts at
the turn and stage of a position written by hand; every problem is one line, nothing is written
unless the position reads, and a campaign already played is replaced only with --force."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.delivery.outqueue import pending
from pbem.delivery.welcome import send_owed
from pbem.gm.creation import create
from pbem.rulesets import registry
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import PLAYERS, SECRETS, T0

PLAIN_PLAYERS = [replace(p, extras={}) for p in PLAYERS]     # Tally declares no player fields

Capture = pytest.CaptureFixture[str]
GOOD = 'turn = 7\ndeadline = "2099-01-05T20:00Z"\n[counts]\nred = 12\nblue = 3\n'


@pytest.fixture
def tally(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Campaign:
    monkeypatch.setitem(registry.RULESETS.extra, "tally", "tests.support.tally_ruleset:RULESET")
    camp, _ = create(tmp_path / "campaigns", "rift", "tally", "", PLAIN_PLAYERS, "gm@test.localhost", T0,
                     fixed_secrets=SECRETS)
    return camp


def position(tmp_path: Path, text: str) -> str:
    path = tmp_path / "position.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def snapshot(camp: Campaign) -> dict[str, bytes]:
    files = [p for p in sorted(camp.folder.rglob("*")) if p.is_file() and p.name != ".lock"]   # the lock is no state
    return {str(p.relative_to(camp.folder)): p.read_bytes() for p in files}


def test_import_starts_at_the_positions_turn_and_mails_each_player(tally: Campaign, tmp_path: Path,
                                                                   capsys: Capture) -> None:
    before = len(pending(tally.folder))
    assert main(["import", str(tally.folder), position(tmp_path, GOOD)]) == 0
    assert "started at Turn 7: orders" in capsys.readouterr().out
    camp = Campaign(tally.folder)
    assert camp.state["game"]["tally"]["counts"] == {"red": 12, "blue": 3}
    stage = camp.state["stage"]
    assert (stage["turn"], stage["kind"], stage["title"]) == (7, "orders", "Turn 7: orders")
    assert stage["deadline"] == "2099-01-05T20:00:00+00:00"
    assert (camp.history(7) / "start.toml").exists()
    mails = [m.read_text() for m in pending(camp.folder)[before:]]
    assert len(mails) == 2 and all("Turn 7: orders" in m for m in mails)
    assert any("alice@test.localhost" in m and "ADD <number>" in m and "2099" in m for m in mails)


def test_import_refuses_a_campaign_already_played_unless_forced(tally: Campaign, tmp_path: Path,
                                                                capsys: Capture) -> None:
    assert main(["gm", str(tally.folder), "EXTEND", "1d"]) == 0
    capsys.readouterr()
    before = snapshot(tally)
    assert main(["import", str(tally.folder), position(tmp_path, GOOD)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already started" in err and "--force" in err and "Traceback" not in err
    assert snapshot(tally) == before
    assert main(["import", str(tally.folder), position(tmp_path, GOOD), "--force"]) == 0
    camp = Campaign(tally.folder)
    assert camp.state["stage"]["turn"] == 7 and "gm_log" not in camp.state
    assert camp.state["generation"] > 1                          # mail keys of the new stage are new
    assert [p.name for p in camp.folder.glob("history.replaced-*")]


@pytest.mark.parametrize(("text", "expected"), [
    ("turn = [\n", ["not valid TOML"]),
    ('turn = 0\ndeadline = "soon"\n[counts]\nred = "x"\nzed = 1\n',
     ["turn: found 0", "counts.zed: no such player", "counts.red: expected a whole number",
      "deadline: soon is no time"]),
    ('turn = 2\ndeadline = 2020-01-01T00:00:00Z\n', ["deadline: 2020-01-01T00:00:00+00:00 has passed"]),
])
def test_a_bad_position_is_one_line_per_problem_and_writes_nothing(tally: Campaign, tmp_path: Path, capsys: Capture,
                                                                   text: str, expected: list[str]) -> None:
    before = snapshot(tally)
    assert main(["import", str(tally.folder), position(tmp_path, text)]) != 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == len(expected) and "Traceback" not in "\n".join(err)
    for line, wanted in zip(err, expected, strict=True):
        assert line.startswith("pbem") and "position.toml" in line and wanted in line
    assert snapshot(tally) == before


def test_a_missing_position_file_is_one_line(tally: Campaign, tmp_path: Path, capsys: Capture) -> None:
    before = snapshot(tally)
    assert main(["import", str(tally.folder), str(tmp_path / "nowhere.toml")]) == 1
    err = capsys.readouterr().err
    assert err == f"pbem: {tmp_path / 'nowhere.toml'}: no such position file\n"
    assert snapshot(tally) == before


def test_new_with_a_position_starts_there_and_welcomes_with_its_deadline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Capture) -> None:
    monkeypatch.setitem(registry.RULESETS.extra, "tally", "tests.support.tally_ruleset:RULESET")
    root = tmp_path / "campaigns"
    args = ["new", "rift", "--root", str(root), "--ruleset", "tally", "--gm-email", "gm@test.localhost",
            "--player", "red,Alice,alice@test.localhost", "--player", "blue,Bob,bob@test.localhost"]
    assert main([*args, "--position", position(tmp_path, 'turn = 0\n[counts]\nzed = 1\n')]) == 2
    err = capsys.readouterr().err.splitlines()
    assert [line.split(": ", 2)[2][:10] for line in err] == ["turn: foun", "counts.zed"]
    assert not root.exists() or not list(root.iterdir())
    assert main([*args, "--position", position(tmp_path, GOOD)]) == 0
    camp = Campaign(root / "rift")
    assert camp.state["stage"]["turn"] == 7 and camp.state["game"]["tally"]["counts"]["red"] == 12
    assert send_owed(camp, T0) == 3          # the welcomes, rendered when the first tick sends them
    welcome = [m.read_text() for m in pending(camp.folder) if "alice@" in m.read_text()]
    assert welcome and "2099" in welcome[0]


def test_import_into_a_campaign_toml_written_by_hand(tally: Campaign, tmp_path: Path) -> None:
    (tally.folder / "state.toml").unlink()
    assert main(["import", str(tally.folder), position(tmp_path, "turn = [")]) == 1
    assert not (tally.folder / "state.toml").exists()
    assert main(["import", str(tally.folder), position(tmp_path, GOOD)]) == 0
    assert Campaign(tally.folder).state["stage"]["turn"] == 7
