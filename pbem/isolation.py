"""The walls a tick keeps between campaigns and between messages.

Whatever one campaign raises is logged with its name and reported to its game master once
per distinct problem; the next campaign runs. Whatever one message raises is counted
against that message (pbem/quarantine.py), unless the cause lies outside it: a disk that is
full, a folder that cannot be written, a mail server that went away. Those are the
campaign's problems and stop only that campaign for this tick, its mail kept.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from pathlib import Path

from jinja2 import TemplateError

from pbem.campaign import SettingsError
from pbem.kit.rulebook import RulesError
from pbem.mail.connection import MailUnavailable
from pbem.schedule import iso
from pbem.store import LockBusy, StoreError, read_toml, write_toml

ENVIRONMENTAL: tuple[type[BaseException], ...] = (OSError, StoreError, MailUnavailable, LockBusy)
"""Failures of the surroundings rather than of a message: never counted against one."""

CAMPAIGN_PROBLEMS: tuple[type[BaseException], ...] = (SettingsError, RulesError, TemplateError)
"""Broken configuration found while handling a message (a rule option, a template override):
it would fail every message alike, so it stops the campaign instead of quarantining its mail."""

INJECTED = "_pbem_injected_crash"
"""Set on exceptions raised by the engine's test seam (engine.Faults): they stand for a kill
of the process, so no boundary may catch them."""

ALERTED = ".alerted.toml"
"""In a campaign folder: digests of the problems its GM was already told about. Kept apart
from state.toml because the problem may be that state.toml cannot be read."""


def passes_through(exc: BaseException) -> bool:
    """True for what a message boundary must let through: a simulated kill, the
    surroundings failing, or the campaign's configuration."""
    return bool(getattr(exc, INJECTED, False)) or isinstance(exc, ENVIRONMENTAL + CAMPAIGN_PROBLEMS)


def is_injected(exc: BaseException) -> bool:
    return bool(getattr(exc, INJECTED, False))


def one_line(exc: BaseException) -> str:
    """What went wrong, on one line: pbem's own errors speak for themselves; anything else
    is named by its type, since a bare "'x'" (a KeyError) says nothing."""
    own = (ValueError, StoreError, OSError, LookupError)
    text = str(exc) if isinstance(exc, own) and str(exc) else f"{type(exc).__name__}: {exc}"
    if isinstance(exc, KeyError) and len(exc.args) == 1 and isinstance(exc.args[0], str):
        text = exc.args[0]       # registry.get and friends put a sentence in a KeyError
    return " ".join(text.split())[:500]


def problem_key(exc: BaseException) -> str:
    """What makes two failures the same problem for the GM: for an OSError its kind, not the
    file (a full disk names a different temporary file each time); else the whole text."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"{type(exc).__name__}: errno {exc.errno} ({exc.strerror})"
    return one_line(exc)


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()[:16]


def first_report(folder: Path, problem: str) -> bool:
    """True when the GM has not been told about this problem yet."""
    return not any(digest(problem) in _alerted(file) for file in _alert_files(folder))


def mark_reported(folder: Path, problem: str, now: datetime) -> None:
    """Remember the problem as told: in the campaign folder, or beside it when the folder
    cannot be written (itself a likely problem). Raises OSError when neither can."""
    failure: OSError | None = None
    for file in _alert_files(folder):
        known = _alerted(file)
        known[digest(problem)] = iso(now)
        try:
            write_toml(file, known, header="# Written by pbem: problems the GM was told about.")
            return
        except OSError as exc:
            failure = exc
    assert failure is not None
    raise failure


def clear_reports(folder: Path) -> None:
    """The campaign ran cleanly: a problem that comes back later is news again."""
    for file in _alert_files(folder):
        if file.exists():
            file.unlink()


def _alert_files(folder: Path) -> list[Path]:
    return [folder / ALERTED, folder.parent / f".{folder.name}{ALERTED}"]


def _alerted(file: Path) -> dict[str, str]:
    try:
        return {str(k): str(v) for k, v in read_toml(file).items()} if file.exists() else {}
    except (StoreError, OSError):
        return {}
