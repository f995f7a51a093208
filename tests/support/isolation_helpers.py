"""Two Daemon Rift campaigns side by side for the isolation and quarantine tests: `rift`
(the one tests break) and `zeta` (healthy, ticked after it), each with its own .eml inbox
and Maildir outbox in its folder, and a test-only ruleset that crashes on a `CRASH` line."""

from __future__ import annotations

import email
from datetime import datetime, timedelta
from email import policy
from pathlib import Path

from pbem.gm.creation import create
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, body, open_orders

RED = f"PLAYER red {SECRETS['red']}\n"
BLUE = f"PLAYER blue {SECRETS['blue']}\n"
GM = f"GM {SECRETS['gm']}\n"
ALICE, BOB, GM_ADDRESS = "Alice <alice@test.localhost>", "Bob <bob@test.localhost>", "gm@test.localhost"


def campaign(root: Path, name: str, ruleset: str = "daemon_rift", own_mail: bool = True) -> Campaign:
    """`own_mail`: its own inbox and outbox in its folder; else those of root's pbem.toml."""
    mail = {"inbox": {"type": "eml", "path": "inbox"}, "outbox": {"type": "maildir", "path": "sent-mail"}}
    camp, _ = create(root, name, "daemon_rift", "rift_valley", list(PLAYERS), GM_ADDRESS, T0,
                     transport=mail if own_mail else None, fixed_secrets=SECRETS)
    open_orders(camp)
    if ruleset != "daemon_rift":
        toml = camp.folder / "campaign.toml"
        toml.write_text(toml.read_text().replace('ruleset = "daemon_rift"', f'ruleset = "{ruleset}"'))
    return Campaign(camp.folder)


def mail(camp: Campaign, name: str, body: str, sender: str = ALICE, subject: str = "") -> bytes:
    """Drop a mail into the campaign's inbox; returns its bytes."""
    raw = (f"From: {sender}\nTo: {camp.name}@pbem.localhost\nSubject: {subject or f'[{camp.name}] orders'}\n"
           f"Message-ID: <{name}@test.localhost>\nDate: Mon, 23 Nov 2026 10:00:00 +0000\n"
           f"Content-Type: text/plain; charset=utf-8\n\n{body}").replace("\n", "\r\n").encode()
    (camp.folder / "inbox").mkdir(exist_ok=True)
    (camp.folder / "inbox" / f"{name}.eml").write_bytes(raw)
    return raw


def sent_to(camp: Campaign, address: str, containing: str = "") -> list[str]:
    """Subject and plain text of each mail in the campaign's outbox for an address."""
    folder = camp.folder / "sent-mail" / "new"
    found = []
    for path in sorted(folder.glob("*")) if folder.exists() else []:
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if address in str(msg["To"]):
            found.append(f"{msg['Subject']}\n{body(msg)}")  # type: ignore[arg-type]
    return [text for text in found if containing in " ".join(text.split())]


def hour(n: int) -> datetime:
    return T0 + timedelta(hours=n)
