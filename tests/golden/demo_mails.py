"""The mails one turn of each rule system's demo sends, as the Markdown files pinned beside this module.

Each pinned file is one mail: its recipients and subject, a blank line, then the text part
exactly as a player reads it. Files are named after the mail's `X-Pbem-Key` and kept in a folder
per demo step. Regenerate them after an intended change with

    PBEM_UPDATE_GOLDEN=1 python3 -m pytest tests/golden

and read the diff (`git diff tests/golden`) before committing it.
"""

from __future__ import annotations

import email
import re
from email import policy
from email.message import EmailMessage
from pathlib import Path

from pbem.commands.demo import play

GOLDEN = Path(__file__).parent
PINNED_STEPS = {
    "daemon_rift": ("04-turn2", "05-deadline", "06-results"),      # turn 2: orders, a tabletop battle, results
    "diplomacy": ("03-fall-1901", "04-fall-retreats"),            # Fall 1901: a dislodgement and its retreat
    "conquest": ("02-round1-campaign", "03-round1-setup", "04-round1-results", "05-round1-conquest"),   # round 1
    "mighty_kingdoms": ("04-month2", "05-battle"),       # month 2: orders, a battle, its reports, reform, gather
    "wandering_tribes": ("02-round1",),                  # strategic round 1: divisions, moves, a lock
    "star_wars_miniatures": ("03-economics", "04-action", "05-battle", "06-initiative"),   # turn 1 after setup
}


def demo_mails(ruleset: str, root: Path) -> dict[str, str]:
    """Play the demo under `root`; the pinned steps' mails as {relative golden path: text}."""
    outbox = root / "outbox" / "new"
    seen: set[str] = set()
    pinned: dict[str, str] = {}

    def after_step(lines: list[str], step: str) -> None:
        fresh = sorted(set(p.name for p in outbox.iterdir()) - seen) if outbox.exists() else []
        seen.update(fresh)
        if step in PINNED_STEPS[ruleset]:
            for name in fresh:
                message = _read(outbox / name)
                pinned[f"{ruleset}/{step}/{_slug(str(message['X-Pbem-Key']))}.md"] = as_text(message)

    play(root, ruleset, after_step)
    return pinned


def as_text(message: EmailMessage) -> str:
    body = message.get_body(("plain",))
    text = body.get_content() if body is not None else ""
    return f"To: {message['To']}\nSubject: {message['Subject']}\n\n{text.rstrip()}\n"


def _read(path: Path) -> EmailMessage:
    with path.open("rb") as handle:
        message = email.message_from_binary_file(handle, policy=policy.default)
    assert isinstance(message, EmailMessage)
    return message


def _slug(key: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "_", key.replace("@players.localhost", "")).strip("_")
