"""The walls a tick keeps between campaigns and between messages.

Whatever one campaign raises is logged with its name and reported to its game master once
per distinct problem; the next campaign runs. Whatever one message raises is counted
against that message (pbem/intake/quarantine.py), unless the cause lies outside it: a disk that is
full, a folder that cannot be written, a mail server that went away. Those are the
campaign's problems and stop only that campaign for this tick, its mail kept.
"""

from __future__ import annotations

import hashlib

from jinja2 import TemplateError

from pbem.kit.rulebook import RulesError
from pbem.mail.connection import MailUnavailable
from pbem.state.campaign import SettingsError
from pbem.state.store import LockBusy, StoreError

ENVIRONMENTAL: tuple[type[BaseException], ...] = (OSError, StoreError, MailUnavailable, LockBusy)
"""Failures of the surroundings rather than of a message: never counted against one."""

CAMPAIGN_PROBLEMS: tuple[type[BaseException], ...] = (SettingsError, RulesError, TemplateError)
"""Broken configuration found while handling a message (a rule option, a template override):
it would fail every message alike, so it stops the campaign instead of quarantining its mail."""

INJECTED = "_pbem_injected_crash"
"""Set on exceptions raised by the engine's test seam (engine.Faults): they stand for a kill
of the process, so no boundary may catch them."""



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










