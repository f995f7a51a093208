"""A full disk loses nothing: a campaign on a small tmpfs (the tests run as root) is ticked
with no space left, then with almost none, then with room again. No tick raises, no mail is
marked done before its effect is stored, and in the end every mail is processed once and
every reply sent once."""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, outbox, put

SIZE = "1m"


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A 1 MB tmpfs, unmounted afterwards."""
    where = tmp_path / "disk"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={SIZE}", "tmpfs", str(where)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.fail(f"cannot mount a {SIZE} tmpfs at {where} (the full-disk test needs root): "
                    f"{done.stderr.strip() or done.returncode}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)


def fill(folder: Path, leave: int = 0) -> Path:
    """Write a filler file until the disk is full, then give back `leave` bytes."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as fh, contextlib.suppress(OSError):
        while True:
            fh.write(b"\0" * 4096)
    with contextlib.suppress(OSError):
        os.truncate(filler, max(0, filler.stat().st_size - leave))
    return filler


def disk_is_full(folder: Path) -> bool:
    try:
        with open(folder / "probe", "wb") as fh:
            fh.write(b"\0" * 8192)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as exc:
        return exc.errno == errno.ENOSPC
    finally:
        with contextlib.suppress(OSError):
            (folder / "probe").unlink()
    return False


def test_a_full_disk_loses_nothing_and_answers_once(small_disk: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp = dr_campaign(small_disk)
    inbox = small_disk / "inbox"
    for i in range(3):
        put(camp, f"bad{i}", "PLAYER red WRONG-SECRET\nR-1 M T25\n", mid=f"bad{i}@x")
    put(camp, "red", f"PLAYER red {SECRETS['red']}\nR-1 M T25\n")
    put(camp, "blue", f"PLAYER blue {SECRETS['blue']}\nSTATUS\n", sender="Bob <bob@test.localhost>")
    state_before = (camp.folder / "state.toml").read_bytes()

    filler = fill(small_disk)
    assert disk_is_full(small_disk)
    log = tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert any("rift: NOT PROCESSED" in line and "No space left on device" in line for line in log.lines)
    err = capsys.readouterr().err
    assert "Traceback" not in err and sum("NOT PROCESSED" in line for line in log.lines) == 1
    assert len(list(inbox.glob("*.eml"))) == 5 and (camp.folder / "state.toml").read_bytes() == state_before

    for leave in (8 * 1024, 24 * 1024):                 # room for some writes, not all of them
        filler.unlink()
        filler = fill(small_disk, leave)
        tick(camp.folder.parent, T0 + timedelta(hours=1))
        assert "Traceback" not in capsys.readouterr().err
        done = Campaign(camp.folder)
        assert len(done.state.get("journal", {})) + len(list(inbox.glob("*.eml"))) >= 5   # nothing lost

    filler.unlink()
    tick(camp.folder.parent, T0 + timedelta(hours=1))
    tick(camp.folder.parent, T0 + timedelta(hours=2))
    camp = Campaign(camp.folder)
    assert not list(inbox.glob("*.eml")) and len(camp.state["journal"]) == 5
    assert len(camp.auth["failures"]["alice@test.localhost"]) == 3
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]
    ids = [str(m["In-Reply-To"]) for m in outbox(camp)]
    assert sorted(ids) == sorted(["<bad0@x>", "<bad1@x>", "<bad2@x>", "<red@test.localhost>", "<blue@test.localhost>"])
    assert not list((camp.folder / "outbox" / "queue").glob("*.eml"))
    assert not [p for p in small_disk.rglob("*.tmp") if p.name.startswith(".")]
