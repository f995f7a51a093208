"""Settings shared by every campaign under one directory: `<root>/pbem.toml`.

    address = "orders@example.org"   # the shared mailbox; writes the replies to mail for no campaign

    [transport.inbox]                # one mailbox for all campaigns (see pbem/mail/imap.py)
    type = "imap"
    host = "imap.example.org"
    user = "orders@example.org"
    password_env = "PBEM_IMAP_PASSWORD"

    [transport.outbox]               # one SMTP server for all campaigns (see pbem/mail/smtp.py)
    type = "smtp"
    host = "smtp.example.org"
    user = "orders@example.org"
    password_env = "PBEM_SMTP_PASSWORD"

A campaign without its own `[transport.inbox]` or `[transport.outbox]` takes these; its own
table, when present, wins as a whole. Relative paths in pbem.toml are taken from the folder
that holds it. With a shared inbox each message goes to the campaign its envelope names
(the `[campaign]` subject tag or a CAMPAIGN line); see pbem/intake/routing.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pbem.state.checks import SettingsError, Table, check_transport, email_problem, read_file
from pbem.state.folders import SITE_FILE, site_root

FILE = SITE_FILE


@dataclass(frozen=True)
class Site:
    root: Path
    address: str
    inbox: dict[str, Any] = field(default_factory=dict)
    outbox: dict[str, Any] = field(default_factory=dict)

    @property
    def postmaster(self) -> Path:
        """Where the replies to mail for no campaign, and the shared mailbox's state, are kept."""
        return self.root / "postmaster"


def load_site(root: Path) -> Site | None:
    """The site settings in root, or None when there are none. Raises StoreError for a file
    that cannot be read and SettingsError naming every key of the wrong type."""
    path = Path(root) / FILE
    if not path.exists():
        return None
    problems: list[str] = []
    top = Table(read_file(path), "", problems)
    transport = Table.of(top, "transport", " of [transport.inbox] and [transport.outbox]")
    inbox, outbox = Table.of(transport, "inbox").raw, Table.of(transport, "outbox").raw
    check_transport(transport)
    address = top.text("address", what="the shared mailbox's address").strip().lower()
    if inbox and "@" not in address:
        problems.append("address: required with a shared [transport.inbox] "
                        "(the shared mailbox's address, used to answer mail for no campaign)")
    elif address and (problem := email_problem(address)):
        problems.append(f"address: {problem}")
    if problems:
        raise SettingsError(path, problems)
    base = {"base": str(path.parent.resolve())}
    return Site(path.parent, address, base | {"shared": FILE} | dict(inbox) if inbox else {},
                base | dict(outbox) if outbox else {})


def site_of(root: Path) -> Site | None:
    """The site a tick's root belongs to: root itself, or the parent of a campaign folder."""
    return load_site(site_root(Path(root)))
