"""A tick killed between any two of its writes, then run again, ends exactly where an
uninterrupted tick ends: counters counted once, every reply and GM alert sent once, nothing
lost; the temporary files the kill left are swept by a later tick. Also the store's
write_together and recover on their own."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from email.parser import BytesParser
from email.policy import compat32
from pathlib import Path
from typing import Any

import pytest

from pbem.state.campaign import Campaign
from pbem.state.store import INTENT, LEFTOVER_AGE, campaign_lock, recover, watching_writes, write_together
from pbem.tick.engine import tick
from pbem.tick.faults import Faults
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, put

NOW = T0.replace(hour=10)


class Killed(BaseException):
    """A kill: no handler in pbem catches it, like SIGKILL."""


def scenario(root: Path) -> Path:
    """One batch: Alice failed four times before; two more bad secrets (the fifth gets a
    refusal, the sixth is throttled and alerts the GM once), counted in auth.toml; Red's orders
    (state.toml, the journal, an ack)."""
    camp = dr_campaign(root)
    camp.auth["failures"] = {"alice@test.localhost": [f"2026-11-23T09:0{i}:00+00:00" for i in range(4)]}
    camp.commit()
    for i in range(2):
        put(camp, f"bad{i}", "PLAYER red WRONG-SECRET\nR-1 M T25\n", mid=f"bad{i}@x")
    put(camp, "red", f"PLAYER red {SECRETS['red']}\nR-1 M T25\n")
    return camp.folder


def crash_at(n: int, seen: list[str]) -> tuple[Callable[[Path], None], Faults]:
    """A write hook and a Faults counting every atomic write and every hand-over of a mail
    (point "sent"); the n-th kills. A kill at a write comes after the write before it."""
    def event(what: str) -> None:
        seen.append(what)
        if len(seen) == n:
            raise Killed(what)

    return (lambda path: event(f"write {path.name}")), Faults(lambda point: point == "sent" and event(point))


def ticked(folder: Path, n: int = 0) -> list[str]:
    """One tick of the directory, killed at event n (0: never); returns the events seen."""
    seen: list[str] = []
    hook, faults = crash_at(n, seen)
    with watching_writes(hook):
        try:
            tick(folder.parent, NOW, faults)
        except Killed:
            pass
    return seen


def end_state(folder: Path) -> dict[str, Any]:
    root = folder.parent.parent
    camp = Campaign(folder)
    files = {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
             if p.is_file() and p.name not in (".lock", ".idle.json") and "outbox" not in p.parts   # the idle
             # record holds the files' stamps, which differ between any two runs by design (pbem/tick/idle.py)
             and not (p.name.startswith(".") and p.name.endswith(".tmp"))}
    return {
        "state": camp.state, "auth": camp.auth, "files": files,
        "mails": sorted(mail_summary(p) for p in (root / "outbox" / "new").iterdir()),
        "queued": sorted(p.name for p in (folder / "outbox" / "queue").glob("*.eml")),
        "inbox": sorted(p.name for p in (root / "inbox").glob("*.eml")),
    }


def mail_summary(path: Path) -> tuple[str, str, str]:
    msg = BytesParser(policy=compat32).parsebytes(path.read_bytes(), headersonly=True)
    return str(msg["To"]), str(msg["Subject"]), str(msg["Message-ID"])


def leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob(".*.tmp")] + [p for p in folder.rglob(INTENT)]


def age(paths: list[Path]) -> None:
    old = time.time() - LEFTOVER_AGE - 60
    for path in paths:
        os.utime(path, (old, old))


@pytest.fixture
def memory_path(tmp_path: Path) -> Iterator[Path]:
    """A folder in memory (/dev/shm) when there is one: the test writes thousands of files,
    each fsync'd, which on a disk costs seconds and tests nothing more."""
    shm = Path("/dev/shm")
    if not (shm.is_dir() and os.access(shm, os.W_OK)):
        yield tmp_path
        return
    folder = Path(tempfile.mkdtemp(dir=shm, prefix="pbem-test-"))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_a_batch_killed_between_any_two_writes_ends_like_an_uninterrupted_one(memory_path: Path) -> None:
    tmp_path = memory_path
    template = scenario(tmp_path / "template").parent.parent
    clean = shutil.copytree(template, tmp_path / "clean") / "campaigns" / "rift"
    events = ticked(clean)
    expected = end_state(clean)
    assert len(expected["state"]["journal"]) == 3
    assert len(expected["auth"]["failures"]["alice@test.localhost"]) == 6       # two more bad secrets, counted once
    assert sum("gm@" in to for to, _, _ in expected["mails"]) == 1                # one GM alert
    assert sum("alice" in to for to, _, _ in expected["mails"]) == 3              # a refusal, the lock notice, an ack
    assert expected["state"]["submissions"]["red"] and not expected["inbox"] and not expected["queued"]
    assert sum(e.startswith("write ") for e in events) >= 5 and "sent" in events
    for n in range(1, len(events) + 1):
        folder = shutil.copytree(template, tmp_path / f"killed-{n}") / "campaigns" / "rift"
        ticked(folder, n)
        age(leftovers(folder))
        ticked(folder)
        assert end_state(folder) == expected, f"killed at event {n}: {events[n - 1]}"
        assert not leftovers(folder), f"killed at event {n}: leftovers stay"
        shutil.rmtree(folder.parent.parent)


# -- the store on its own --------------------------------------------------------------


def test_write_together_replaces_every_file_or_none(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("old a")
    (tmp_path / "b.toml").write_text("old b")
    names: list[str] = []

    def kill_at_b(path: Path) -> None:
        names.append(path.name)
        if path.name == "b.toml":
            raise Killed

    with watching_writes(kill_at_b), pytest.raises(Killed):
        write_together(tmp_path, {tmp_path / "a.toml": "new a", tmp_path / "b.toml": b"new b"})
    assert names == [INTENT, "a.toml", "b.toml"] and (tmp_path / "a.toml").read_text() == "new a"
    assert (tmp_path / "b.toml").read_text() == "old b"                 # half done: the intent finishes it
    assert recover(tmp_path).endswith("completed")
    assert (tmp_path / "b.toml").read_text() == "new b" and not (tmp_path / INTENT).exists()
    assert recover(tmp_path) == ""


def test_a_kill_before_the_intent_is_whole_leaves_every_file_old(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("old a")

    def kill(path: Path) -> None:
        raise Killed

    with watching_writes(kill), pytest.raises(Killed):
        write_together(tmp_path, {tmp_path / "a.toml": "new a", tmp_path / "b.toml": "new b"})
    assert not (tmp_path / INTENT).exists() and not (tmp_path / "b.toml").exists()
    assert (tmp_path / "a.toml").read_text() == "old a"


def test_a_damaged_intent_is_discarded_and_nothing_replaced(tmp_path: Path) -> None:
    (tmp_path / "a.toml").write_text("old a")
    (tmp_path / INTENT).write_text('{"sha256": "00", "files": "{\\"a.toml\\": \\"bmV3\\"}"}')
    assert "discarded" in recover(tmp_path)
    assert (tmp_path / "a.toml").read_text() == "old a" and not (tmp_path / INTENT).exists()


def test_the_campaign_lock_finishes_an_interrupted_commit_before_anyone_reads(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    camp.state["marker"] = "new"
    camp.auth["failures"] = {"eve@x": ["2026-11-23T10:00:00+00:00"]}

    def kill_at_auth(path: Path) -> None:
        if path.name == "auth.toml":
            raise Killed

    with watching_writes(kill_at_auth), pytest.raises(Killed):
        camp.commit()
    assert not (camp.folder / "auth.toml").exists()
    with campaign_lock(camp.folder):
        again = Campaign(camp.folder)
    assert again.state["marker"] == "new" and again.auth["failures"] == {"eve@x": ["2026-11-23T10:00:00+00:00"]}


def test_temporary_files_of_a_killed_write_are_swept_once_old(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    fresh, old = camp.folder / ".state.toml.fresh.tmp", camp.folder / "outbox" / "queue" / ".x.eml.old.tmp"
    old.parent.mkdir(parents=True, exist_ok=True)
    for path in (fresh, old):
        path.write_text("half")
    age([old])
    tick(camp.folder.parent, NOW)
    assert fresh.exists() and not old.exists()          # a fresh one may belong to a write under way
