"""A campaign that could not be processed: one line in the log, its GM told once per problem."""

from __future__ import annotations

from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from pbem.intake.isolation import digest, is_injected, one_line, problem_key
from pbem.kit.texts import render
from pbem.mail.compose import Letterhead
from pbem.mail.outbox import open_transport
from pbem.state.campaign import Settings, load_settings
from pbem.state.schedule import iso
from pbem.state.store import StoreError, read_toml, write_toml
from pbem.tick.log import TickLog


def not_processed(folder: Path, exc: Exception, now: datetime, log: TickLog) -> None:
    """One line in the log (`pbem tick` shows it, on stderr when --quiet), and the GM told
    once per distinct problem when the settings load far enough to know the GM."""
    problem, key = one_line(exc), problem_key(exc)
    log(f"{folder.name}: NOT PROCESSED: {problem}")
    if not first_report(folder, key):
        return
    try:     # sent at once, not queued: the campaign folder may be what cannot be written
        settings = load_settings(folder)
        mail = problem_mail(settings, problem, now)
        transport = open_transport(settings.outbox, folder, log=log)
        mark_reported(folder, key, now)          # first: a GM must not be mailed every tick
        try:
            transport.send(mail)
        except Exception:
            clear_reports(folder)                # not told after all: try again next tick
            raise
        finally:
            getattr(transport, "close", lambda: None)()
    except Exception as exc:
        if is_injected(exc):
            raise
        told = one_line(exc)      # the same broken file twice would read as two problems
        log(f"{folder.name}: the GM could not be told" + ("" if told == problem else f": {told}"))


def problem_mail(settings: Settings, problem: str, now: datetime) -> EmailMessage:
    """The GM alert for a campaign that was not processed, rendered from the built-in
    template only: the campaign's own templates may be what is broken."""
    text = render("common", "campaign_problem", {"campaign": settings, "problem": problem, "now": now})
    # keyed by the telling, not only the problem: one that comes back after a clean tick is news
    # again (pbem/intake/isolation.py), and the transport would refuse the Message-ID it sent the first time
    return Letterhead.of(settings).write(f"problem/{digest(problem)}/{iso(now)}", (settings.gm.email,),
                                         f"[{settings.name}] was not processed", text, now)



ALERTED = ".alerted.toml"
"""In a campaign folder: digests of the problems its GM was already told about. Kept apart
from state.toml because the problem may be that state.toml cannot be read."""


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
