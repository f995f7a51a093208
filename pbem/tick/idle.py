"""A campaign with nothing to do is passed over after one small file is read.

Most ticks find nothing to do: no mail, no deadline, no reminder, nothing owed. After a tick
that left a campaign with nothing waiting (its inbox read to the end, its outbox and forum queue
empty, no welcome owed, no mail released from quarantine, no problem reported), `remember` writes
`<campaign>/.idle.json` (JSON, which C code reads in a tenth of the time TOML takes): the next
moment the campaign's stage could do anything by itself (its deadline, its reminder, a rule
system's own wake-up such as a grace period ending) and a fingerprint of every file and folder
whose change could give it work (settings, state, auth, pbem.toml, templates, the inbox's
folders, the queues). A later tick before that moment whose fingerprint is unchanged skips the
campaign without loading its settings or its rule system. Anything else (an IMAP inbox, a forum
thread to poll, a changed file, a newer pbem) gets the full tick, which writes the record again.
"""

from __future__ import annotations

import contextlib
import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem import __version__

RECORD = ".idle.json"
OLD_RECORD = ".idle.toml"
"""The record as earlier pbem wrote it (TOML): removed when the record is next written."""
WATCHED = ("campaign.toml", "state.toml", "auth.toml", "../pbem.toml", "private", "history", "outbox",
           "outbox/queue", "posts/queue", "quarantine", "quarantine/released", "templates")
"""What a change of could give a campaign work; a folder's time changes when an entry comes or
goes. Its own inbox's folders are added from the settings (`remember`)."""
BUSY = ("private/welcome.toml", "quarantine/released", ".alerted.toml", ".mail_problems.toml")
"""Files and folders whose presence alone means work: welcomes owed, released mail, a problem
the GM was told about (pbem/tick/problems.py, pbem/tick/alarms.py: its clearing needs a full tick)."""


def fingerprint(folder: Path, paths: tuple[str, ...]) -> dict[str, str]:
    """Size and modification time of each path ("-" when absent), and of each file in templates/."""
    base = str(folder)
    found = {path: _stamp(f"{base}/{path}") for path in paths}     # strings: no Path per stat
    templates = folder / "templates"
    if templates.is_dir():
        found |= {str(p.relative_to(folder)): _stamp(p) for p in sorted(templates.rglob("*"))}
    return found


def _stamp(path: Path | str) -> str:
    try:
        stat = os.stat(path)
    except OSError:
        return "-"
    return f"{stat.st_mtime_ns}:{stat.st_size}:{stat.st_mode:o}:{stat.st_uid}"   # a chmod or chown is news too


def skippable(folder: Path, now: datetime) -> bool:
    """Nothing can have changed for the campaign since its record, and nothing falls due before
    `now`: the tick may pass it over. Any doubt (no record, an unreadable one) says no."""
    try:
        record = json.loads((folder / RECORD).read_bytes())
        wakes = datetime.fromisoformat(str(record["wakes"])) if record.get("wakes") else None
        paths = tuple(str(p) for p in record["paths"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return False
    if record.get("version") != __version__ or (wakes is not None and now >= wakes):
        return False
    if not os.access(folder, os.W_OK | os.X_OK):
        return False            # a folder pbem cannot write: the full tick says so every time
    base = str(folder)              # strings, not Paths: this runs for every campaign on every tick
    if any(os.path.exists(f"{base}/{busy}") for busy in BUSY) or os.path.exists(
            os.path.join(os.path.dirname(base), f".{folder.name}.alerted.toml")):
        return False            # the second: a problem told from beside a folder pbem cannot write
    return bool(record.get("fingerprint") == fingerprint(folder, paths))


def remember(folder: Path, wakes: datetime | None, inbox_paths: tuple[str, ...]) -> None:
    """Record a campaign left with nothing to do until `wakes` (None: until something changes)."""
    from pbem.state.store import write_atomic  # only a tick with work writes: kept off the idle path

    paths = (*WATCHED, *inbox_paths)
    data: dict[str, Any] = {"version": __version__, "paths": list(paths)}
    if wakes is not None:
        data["wakes"] = wakes.isoformat()
    try:
        write_atomic(folder / RECORD, json.dumps(data | {"fingerprint": fingerprint(folder, paths)}, indent=1))
    except OSError:
        forget(folder)          # no record: every tick does the full work, which is never wrong
    with contextlib.suppress(OSError):
        (folder / OLD_RECORD).unlink(missing_ok=True)


def forget(folder: Path) -> None:
    """No record: the next tick processes the campaign in full. A folder pbem cannot write keeps
    a record it cannot remove; the problem's alert mark beside it then keeps it from being used."""
    with contextlib.suppress(OSError):
        (folder / RECORD).unlink(missing_ok=True)
