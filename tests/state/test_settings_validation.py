"""Every setting's type and range is checked when a campaign is loaded: a wrong value in valid
TOML (campaign.toml, state.toml, auth.toml, pbem.toml), an unreadable file or a folder pbem
cannot write to is one line naming file and key, every problem at once; the tick reports that
campaign and goes on with the others."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.cli import main
from pbem.gm.creation import NewPlayer, create
from pbem.state.campaign import Campaign, SettingsError
from pbem.state.store import read_toml
from pbem.tick.engine import tick
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, put

Edit = Callable[[dict[str, Any]], None]


def broken_beside_healthy(tmp_path: Path, file: str, edit: Edit, ruleset: str = "daemon_rift") -> tuple[Path, Campaign]:
    """A campaign `aaa` (processed first) with `file` edited, and the healthy `rift` with a mail waiting."""
    healthy = dr_campaign(tmp_path)
    root = healthy.folder.parent
    players = [NewPlayer("eng", "Ann", "ann@test.localhost", "England")] if ruleset == "diplomacy" else \
        [NewPlayer("red", "Ann", "ann@test.localhost", "Red", "R", {"home": "1"})]
    camp, _ = create(root, "aaa", ruleset, "", players, "gm@test.localhost", T0)
    path = camp.folder / file
    data = read_toml(path) if path.exists() else {}
    edit(data)
    path.write_text(tomli_w.dumps(data))
    put(healthy, "m1", f"PLAYER red {SECRETS['red']}\nR-1 M T25\n")
    return camp.folder, healthy


def put_key(dotted: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        *tables, last = dotted.split(".")
        node = data
        for name in tables:
            node = node.setdefault(name, {}) if not name.isdigit() else node[int(name)]
        if last.isdigit():          # a whole entry of an array of tables, e.g. players.0
            node[int(last)] = value
        else:
            node[last] = value
    return edit


CAMPAIGN_CASES = [
    ("max_mail_bytes", "abc", "max_mail_bytes: found 'abc'; expected a size in bytes of at least 1024"),
    ("max_mail_bytes", 0, "max_mail_bytes: found 0; expected a size in bytes of at least 1024"),
    ("schedule", 5, "schedule: found 5; expected a table"),
    ("schedule.orders", 7, "schedule.orders: found 7; expected a duration like \"7d\""),
    ("schedule.orders", "soon", "schedule.orders: found 'soon'; expected a duration"),
    ("schedule.timezone", "Mars/Olympus", "schedule.timezone: found 'Mars/Olympus'; expected a time zone"),
    ("schedule.at", "8pm", "schedule.at: found '8pm'; expected a local time like \"20:00\""),
    ("gm", "x", "gm: found 'x'; expected a table"),
    ("gm.email", "gm@test.localhost\r\nBcc: x@evil.example",
     "gm.email: 'gm@test.localhost\\r\\nBcc: x@evil.ex...' holds the control character U+000D; remove it"),
    ("players", 5, "players: found 5; expected [[players]] tables"),
    ("players.0.secret", "hunter2", "players[0].secret: found 'hunter2'; expected a stored hash"),
    ("players.0.name", ["Ann"], "players[0].name: found a list; expected text"),
    ("map", "nonexistent", "map: 'nonexistent' is not a ready-made map"),
    ("ruleset", "chess", "ruleset: unknown ruleset 'chess'"),
    ("title", "Rift\nBcc: x@evil.example", "title: 'Rift\\nBcc: x@evil.example' holds the control character U+000A"),
    ("address", 5, "address: found 5; expected the campaign's mail address"),
    ("transport", "maildir", "transport: found 'maildir'; expected a table"),
    ("transport.inbox.type", "pop3", "transport.inbox.type: found 'pop3'; expected one of maildir, eml, imap"),
    ("rules", "strict", "rules: found 'strict'; expected a table"),
    ("reports.attach_svg", "yes", "reports.attach_svg: found 'yes'; expected true or false"),
    ("reports.attach_png", True, "reports.attach_png: found True; expected a known key: attach_svg"),
    ("rules.movement.multiway_tie", 5, "rules: 'movement.multiway_tie' should be text, not a number"),
]


@pytest.mark.parametrize("key, value, problem", CAMPAIGN_CASES, ids=[c[0] + "=" + repr(c[1]) for c in CAMPAIGN_CASES])
def test_a_wrong_value_in_campaign_toml_is_one_line_with_file_and_key_and_the_tick_goes_on(
        tmp_path: Path, key: str, value: Any, problem: str) -> None:
    folder, healthy = broken_beside_healthy(tmp_path, "campaign.toml", put_key(key, value))
    with pytest.raises(SettingsError) as raised:
        Campaign(folder)
    message = str(raised.value)
    assert message.startswith(f"{folder / 'campaign.toml'}: ") and problem in message, message
    assert "\n" not in message
    assert_reported_and_others_run(folder, healthy, problem)


def assert_reported_and_others_run(folder: Path, healthy: Campaign, problem: str) -> None:
    log = tick(folder.parent, T0 + timedelta(hours=1))
    assert any(line.startswith("aaa: NOT PROCESSED: ") and problem in line for line in log.lines), log.lines
    assert "red" in Campaign(healthy.folder).state["submissions"]


def test_a_diplomacy_edition_that_does_not_exist_is_named_by_its_key(tmp_path: Path) -> None:
    folder, healthy = broken_beside_healthy(tmp_path, "campaign.toml", put_key("rules.edition", "1.0"), "diplomacy")
    with pytest.raises(SettingsError, match=r"campaign.toml: rules.edition: '1.0' is not one of 3.0, 2.4$"):
        Campaign(folder)
    assert_reported_and_others_run(folder, healthy, "rules.edition: '1.0' is not one of 3.0, 2.4")


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    def edit(data: dict[str, Any]) -> None:
        data.update(max_mail_bytes="abc", title=5, schedule={"orders": 7, "reminder": "never"})
        data["players"][0]["email"] = "ann"
    folder, _ = broken_beside_healthy(tmp_path, "campaign.toml", edit)
    with pytest.raises(SettingsError) as raised:
        Campaign(folder)
    assert [p.split(":")[0] for p in raised.value.problems] == [
        "schedule.orders", "schedule.reminder", "players[0].email", "max_mail_bytes", "title"]


STATE_CASES = [
    ("state.toml", "stage.deadline", "soon",
     "stage.deadline: found 'soon'; expected a time like 2026-11-28T20:00:00+00:00"),
    ("state.toml", "stage.turn", "x", "stage.turn: found 'x'; expected a whole number of at least 0"),
    ("state.toml", "stage.paused", "yes", "stage.paused: found 'yes'; expected true or false"),
    ("state.toml", "stage", 3, "stage: found 3; expected a table"),
    ("state.toml", "journal", 5, "journal: found 5; expected a table"),
    ("state.toml", "submissions", "x", "submissions: found 'x'; expected a table"),
    ("state.toml", "submissions.red", "R-1 M T25", "submissions.red: found 'R-1 M T25'; expected a table"),
    ("state.toml", "submissions.red.receipt", "abc",
     "submissions.red.payload: missing; expected a table of the orders"),
    ("state.toml", "replies.ann@localhost", ["yesterday"], "replies.ann@localhost[0]: found 'yesterday'"),
    ("state.toml", "game", [], "game: found a list; expected a table"),
    ("auth.toml", "secrets", "x", "secrets: found 'x'; expected a table"),
    ("auth.toml", "secrets.red", 5, "secrets.red: found 5; expected a stored hash"),
    ("auth.toml", "secrets.red", "hunter2", "secrets.red: found 'hunter2'; expected a stored hash"),
    ("auth.toml", "failures", {"x@y": "x"}, "failures.x@y: found 'x'; expected a list of times"),
]


@pytest.mark.parametrize("file, key, value, problem", STATE_CASES, ids=[f"{c[0]}:{c[1]}" for c in STATE_CASES])
def test_a_wrong_value_in_state_or_auth_is_one_line_with_file_and_key_and_the_tick_goes_on(
        tmp_path: Path, file: str, key: str, value: Any, problem: str) -> None:
    folder, healthy = broken_beside_healthy(tmp_path, file, put_key(key, value))
    with pytest.raises(SettingsError) as raised:
        Campaign(folder)
    assert str(raised.value) == f"{folder / file}: {problem}" or problem in str(raised.value)
    assert str(raised.value).startswith(f"{folder / file}: ")
    assert_reported_and_others_run(folder, healthy, problem)


SITE_CASES = [
    ({"address": 5}, "address: found 5; expected the shared mailbox's address"),
    ({"address": "orders@pbem.test", "transport": 5}, "transport: found 5; expected a table"),
    ({"address": "orders@pbem.test", "transport": {"inbox": {"type": "pop3"}}},
     "transport.inbox.type: found 'pop3'; expected one of maildir, eml, imap"),
    ({"address": "orders\n@pbem.test"}, "address: 'orders\\n@pbem.test' holds the control character U+000A"),
]


@pytest.mark.parametrize("site, problem", SITE_CASES)
def test_a_wrong_value_in_pbem_toml_is_one_line_with_file_and_key(tmp_path: Path, site: dict[str, Any],
                                                                  problem: str) -> None:
    camp = dr_campaign(tmp_path)
    (camp.folder.parent / "pbem.toml").write_text(tomli_w.dumps(site))
    with pytest.raises(SettingsError) as raised:
        Campaign(camp.folder)
    assert f"pbem.toml: {problem}" in str(raised.value)
    log = tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert any("NOT PROCESSED" in line and problem in line for line in log.lines), log.lines


def test_good_files_load_and_keep_their_values(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path, transport={"forum": {"kind": "folder", "path": "forum"}})
    settings = Campaign(camp.folder).settings
    assert settings.max_mail_bytes == 256 * 1024 and settings.forum == {"kind": "folder", "path": "forum"}
    assert [p.emails for p in settings.players] == [("alice@test.localhost",), ("bob@test.localhost",)]


# -- files pbem cannot read or write: the tick runs as an unprivileged user (root reads and writes anything) --

NOBODY = 65534


@contextlib.contextmanager
def as_nobody() -> Iterator[None]:
    """The effective user and group of this process set to nobody's, and back."""
    os.setegid(NOBODY)
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)


@pytest.fixture
def reachable_tmp(tmp_path: Path) -> Iterator[Path]:
    """A folder nobody can reach (pytest's own belongs to root alone), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-settings-"))
    os.chmod(folder, 0o755)
    yield folder
    shutil.rmtree(folder)


def give_to_nobody(top: Path) -> None:
    for path in [top, *top.rglob("*")]:
        os.chown(path, NOBODY, NOBODY)


@pytest.mark.parametrize("lock, problem", [
    (lambda folder: os.chown(folder / "state.toml", 0, 0) or os.chmod(folder / "state.toml", 0o600),
     "aaa/state.toml: cannot be read (Permission denied); give the user running pbem read access to it"),
    (lambda folder: os.chown(folder, 0, 0) or os.chmod(folder, 0o755),
     "aaa: pbem cannot write here (permission denied or a read-only file system); give the user running "
     f"pbem (uid {NOBODY}) write access to it"),
    (lambda folder: os.chown(folder / "history", 0, 0) or os.chmod(folder / "history", 0o755),
     "aaa/history: pbem cannot write here"),
], ids=["unreadable state", "unwritable folder", "unwritable history"])
def test_an_unreadable_state_or_unwritable_folder_is_one_line_and_the_tick_goes_on(
        reachable_tmp: Path, lock: Callable[[Path], None], problem: str) -> None:
    folder, healthy = broken_beside_healthy(reachable_tmp, "campaign.toml", lambda data: None)
    tick(folder.parent, T0)                     # every module the tick needs is imported while still root
    give_to_nobody(reachable_tmp)
    lock(folder)
    with as_nobody():
        log = tick(folder.parent, T0 + timedelta(hours=1))
    assert any(line.startswith("aaa: NOT PROCESSED: ") and f"{folder.parent}/{problem}" in line
               for line in log.lines), log.lines
    assert "red" in Campaign(healthy.folder).state["submissions"]


def test_a_command_meeting_a_broken_campaign_ends_with_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp = dr_campaign(tmp_path)
    put_file = camp.folder / "campaign.toml"
    put_file.write_text(put_file.read_text().replace('name = "rift"', 'name = "rift"\nmax_mail_bytes = "abc"', 1))
    assert main(["status", "--root", str(camp.folder.parent)]) == 1
    assert capsys.readouterr().err == (f"pbem: {put_file}: max_mail_bytes: found 'abc'; "
                                       "expected a size in bytes of at least 1024\n")
