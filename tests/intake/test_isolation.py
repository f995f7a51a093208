"""Isolation: a broken campaign of any kind is reported (one line, its GM told once) and
skipped while the next campaign runs, its mail kept; a GM's typo answers "not done: ..."
by mail and on the command line, never with a traceback."""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.gm.creation import create
from pbem.intake.journal import notes_by_id
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.diplomacy.test_campaign import SECRETS as DIP_SECRETS
from tests.diplomacy.test_campaign import seven
from tests.support.engine_helpers import T0
from tests.support.isolation_helpers import GM, GM_ADDRESS, RED, campaign, hour, mail, sent_to


@pytest.fixture
def camps(tmp_path: Path) -> tuple[Campaign, Campaign]:
    root = tmp_path / "campaigns"
    return campaign(root, "rift"), campaign(root, "zeta")


def orders_both(rift: Campaign, zeta: Campaign, n: int) -> None:
    mail(rift, f"rift-{n}", RED + "R-1 M T25\n")
    mail(zeta, f"zeta-{n}", RED + "R-1 M T25\n", subject="[zeta] orders")


def assert_skipped_then_recovered(rift: Campaign, zeta: Campaign, capsys: pytest.CaptureFixture[str],
                                  repair: contextlib.AbstractContextManager[None], expected: str) -> None:
    """Two ticks with rift broken: one line each, zeta processed, rift's mail kept; then the
    repair, and rift's mail is all handled."""
    for n in (1, 2):       # before the fault: the inbox is in the campaign's folder
        mail(rift, f"rift-{n}", RED + "R-1 M T25\n")
    with repair:
        for n in (1, 2):
            mail(zeta, f"zeta-{n}", RED + "R-1 M T25\n", subject="[zeta] orders")
            log = tick(rift.folder.parent, hour(n)).lines
            problem = [line for line in log if line.startswith("rift: NOT PROCESSED: ")]
            assert len(problem) == 1 and expected in problem[0], log
            assert notes_by_id(Campaign(zeta.folder).state["journal"])[f"<zeta-{n}@test.localhost>"] == "processed"
        assert "Traceback" not in capsys.readouterr().err
        assert sorted(p.name for p in (rift.folder / "inbox").glob("*.eml")) == ["rift-1.eml", "rift-2.eml"]
    log = tick(rift.folder.parent, hour(3)).lines
    assert not any("NOT PROCESSED" in line for line in log)
    journal = notes_by_id(Campaign(rift.folder).state["journal"])
    assert journal["<rift-1@test.localhost>"] == journal["<rift-2@test.localhost>"] == "processed"


@contextlib.contextmanager
def edited(path: Path, old: str, new: str) -> Iterator[None]:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    yield
    path.write_text(text)


def test_a_state_file_with_a_wrong_type_is_skipped_the_next_campaign_runs_and_the_gm_is_told_once(
        camps: tuple[Campaign, Campaign], capsys: pytest.CaptureFixture[str]) -> None:
    rift, zeta = camps
    state = rift.folder / "state.toml"
    deadline = Campaign(rift.folder).state["stage"]["deadline"]
    assert_skipped_then_recovered(rift, zeta, capsys, edited(state, f'deadline = "{deadline}"', 'deadline = "soon"'),
                                  "soon")
    alerts = sent_to(rift, GM_ADDRESS, "was not processed")
    assert len(alerts) == 1 and "soon" in alerts[0]
    assert not (rift.folder / ".alerted.toml").exists()       # repaired: a later problem is news again


@contextlib.contextmanager
def broken_template(camp: Campaign) -> Iterator[None]:
    override = camp.folder / "templates" / "ack.md.j2"
    override.parent.mkdir()
    override.write_text("{% if %}\n")
    yield
    override.unlink()


def test_a_broken_template_override_falls_back_to_the_built_in_and_the_gm_is_told_once(
        camps: tuple[Campaign, Campaign]) -> None:
    rift, _ = camps
    with broken_template(rift):
        for n in (1, 2):
            mail(rift, f"rift-{n}", RED + "R-1 M T25\n")
            log = tick(rift.folder.parent, hour(n)).lines
            assert not any("NOT PROCESSED" in line for line in log), log
    assert len(sent_to(rift, "alice@test.localhost", "R-1 M T25")) == 2      # answered from the built-in ack
    assert Quarantine_empty(rift)
    alerts = sent_to(rift, GM_ADDRESS, "ack.md.j2")
    assert len(alerts) == 1 and "templates" in alerts[0]


def test_pbem_tick_exits_non_zero_when_a_campaign_was_not_processed(camps: tuple[Campaign, Campaign],
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    rift, _ = camps
    (rift.folder / "state.toml").write_text("[stage]\ndeadline = 5\n")
    assert main(["tick", "--root", str(rift.folder.parent), "--now", hour(1).isoformat(), "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pbem: rift: NOT PROCESSED: ")


@contextlib.contextmanager
def mounted(folder: Path, *options: str) -> Iterator[None]:
    """`folder` as a mount point (read-only bind, or a small tmpfs); skipped where mounting is
    not allowed."""
    try:
        subprocess.run(["mount", *options, str(folder)], check=True, capture_output=True)
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"cannot mount here: {exc}")
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=True)


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    with mounted(folder, "--bind", str(folder)):
        subprocess.run(["mount", "-o", "remount,ro,bind", str(folder)], check=True)
        yield


def test_an_unwritable_campaign_folder_is_skipped_and_its_mail_kept(camps: tuple[Campaign, Campaign],
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rift, zeta = camps
    assert_skipped_then_recovered(rift, zeta, capsys, read_only(rift.folder), "Read-only file system")


@contextlib.contextmanager
def full_disk(folder: Path, tmp_path: Path) -> Iterator[None]:
    """The campaign folder on a 2 MB tmpfs that is then filled to the last byte."""
    keep = tmp_path / "keep"
    subprocess.run(["cp", "-a", str(folder), str(keep)], check=True)
    with mounted(folder, "-t", "tmpfs", "-o", "size=2m", "tmpfs"):
        subprocess.run(["cp", "-a", f"{keep}/.", str(folder)], check=True)
        with contextlib.suppress(OSError), open(folder / "filler", "wb") as fh:
            while True:
                fh.write(b"\0" * 65536)
                fh.flush()
        yield
        (folder / "filler").unlink()
        subprocess.run(["cp", "-a", f"{folder}/.", str(keep)], check=True)
    subprocess.run(["cp", "-a", f"{keep}/.", str(folder)], check=True)


def test_a_full_disk_stops_the_campaign_loses_nothing_and_the_next_campaign_runs(
        camps: tuple[Campaign, Campaign], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rift, zeta = camps
    assert_skipped_then_recovered(rift, zeta, capsys, full_disk(rift.folder, tmp_path), "No space left on device")
    assert len(sent_to(rift, "alice@test.localhost")) == 2         # one ack per mail, none twice
    assert Quarantine_empty(rift)


def Quarantine_empty(camp: Campaign) -> bool:
    from pbem.intake.quarantine import Quarantine

    box = Quarantine(camp.folder)
    return box.entries() == [] and box.failures == {}


# -- GM commands never raise ---------------------------------------------------


def test_a_gm_typo_by_mail_answers_not_done_and_the_rest_of_the_mail_is_carried_out(
        camps: tuple[Campaign, Campaign]) -> None:
    rift, _ = camps
    mail(rift, "gm-1", GM + "RESULT 7 Red\nPAUSE\n", sender=GM_ADDRESS)
    log = tick(rift.folder.parent, hour(1)).lines
    assert any("gm@test.localhost: processed: gm" in line for line in log)
    answer = sent_to(rift, GM_ADDRESS, "not done: there is no pending tabletop battle 7")
    assert len(answer) == 1 and "campaign paused" in answer[0]
    assert Campaign(rift.folder).state["stage"]["paused"] is True


def test_a_gm_typo_on_the_command_line_is_one_line(camps: tuple[Campaign, Campaign],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    rift, _ = camps
    assert main(["result", "rift", "7", "Red", "--root", str(rift.folder.parent)]) == 1
    out = capsys.readouterr()
    assert out.out.strip() == "not done: there is no pending tabletop battle 7" and out.err == ""


def test_a_diplomacy_draw_naming_no_power_is_not_done_by_mail_and_on_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mail_spec = {"inbox": {"type": "eml", "path": "inbox"}, "outbox": {"type": "maildir", "path": "sent-mail"}}
    dip, _ = create(tmp_path / "campaigns", "dip", "diplomacy", "", seven(), GM_ADDRESS, T0, transport=mail_spec,
                    fixed_secrets=DIP_SECRETS)
    assert main(["draw", "dip", "Turey", "France", "--root", str(tmp_path / "campaigns")]) == 1
    out = capsys.readouterr()
    assert out.out.startswith("not done: ") and "Turey" in out.out and out.err == ""
    mail(dip, "gm-1", f"GM {DIP_SECRETS['gm']}\nDRAW Turey France\n", sender=GM_ADDRESS)
    tick(dip.folder.parent, hour(1))
    answer = sent_to(dip, GM_ADDRESS, "not done: ")
    assert len(answer) == 1 and "Turey" in answer[0]
    assert Campaign(dip.folder).state["stage"]["kind"] == "movement"


def test_a_gm_command_on_a_broken_campaign_is_one_line(camps: tuple[Campaign, Campaign],
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    rift, _ = camps
    (rift.folder / "state.toml").write_text("[stage\n")
    assert main(["resolve", "rift", "--root", str(rift.folder.parent)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("pbem: ") and "state.toml" in err[0]
