"""Which campaign a mail in a campaign's own inbox is for.

A campaign takes every mail in its own inbox, whatever its subject says, except mail that
names another campaign of the same directory (by a subject tag or a CAMPAIGN line, see
`pbem.intake.envelope.campaign_named`):

- when that campaign reads the same inbox, the mail is left for it;
- otherwise the mail is answered, saying which address that campaign reads, and journalled;
  nothing in it is read, so orders meant for one game never land in another.

An unknown tag (`[URGENT]`, `[EXTERNAL]`) names no campaign and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pbem.intake.envelope import campaign_named, read_envelope
from pbem.state.campaign import Campaign, load_settings
from pbem.state.folders import discover
from pbem.state.store import StoreError


@dataclass(frozen=True)
class Misdirected:
    """A mail that names another campaign: its name, the address it reads, and whether it
    reads the same inbox (then it takes the mail itself)."""

    name: str
    address: str
    same_inbox: bool


def misdirected(camp: Campaign, subject: str, text: str) -> Misdirected | None:
    """None when the mail is this campaign's: it names no other campaign of the directory."""
    env = read_envelope(subject, text)
    if not {*env.tags, env.campaign_line} - {"", camp.name}:
        return None      # the usual case, decided without looking at the other campaigns
    known = {folder.name for folder in discover(camp.folder.parent)} | {camp.name}
    named = campaign_named(env, known)
    if not named or named == camp.name:
        return None
    try:
        other = load_settings(camp.folder.parent / named)
    except (ValueError, StoreError):
        return Misdirected(named, "", same_inbox=True)   # broken: its mail waits until it is repaired
    same = inbox_identity(other.inbox, camp.folder.parent / named) == inbox_identity(camp.settings.inbox, camp.folder)
    return Misdirected(named, other.address, same_inbox=same)


def inbox_identity(spec: Mapping[str, Any], folder: Path) -> tuple[tuple[str, str], ...]:
    """The inbox settings with relative paths made absolute, to tell whether two campaigns
    read one mailbox."""
    base = Path(spec.get("base") or folder)
    fields = {key: str(value) for key, value in spec.items() if key != "base"}
    if "path" in fields:
        fields["path"] = str((base / fields["path"]).resolve())
    return tuple(sorted(fields.items()))
