"""A Campaigns of Conquest campaign on the real engine, put into any window, and mail in and out."""

from __future__ import annotations

import email
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path
from typing import Any

from pbem.gm.creation import NewPlayer, create
from pbem.kit.tomlio import from_data
from pbem.rulesets.conquest.model import ConquestState
from pbem.rulesets.conquest.ruleset import RULESET
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SECRETS = {"anna": "ANNA-TEST-0000-0000-0001", "ben": "BENN-TEST-0000-0000-0002",
           "cara": "CARA-TEST-0000-0000-0003", "gm": "GMGM-TEST-0000-0000-0000"}
PLAYERS = [NewPlayer(p, p.title(), f"{p}@coc.localhost", c, c[0]) for p, c in
           (("anna", "Red"), ("ben", "Blue"), ("cara", "Green"))]


def campaign(root: Path, rules: dict[str, Any] | None = None) -> Campaign:
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "coc", "conquest", "three_crowns", PLAYERS, "gm@coc.localhost", T0,
                     transport=transport, rules=rules, fixed_secrets=SECRETS)
    return camp


def game(camp: Campaign) -> ConquestState:
    return from_data(ConquestState, camp.state["game"]["conquest"])


def put_position(camp: Campaign, position: dict[str, Any]) -> Campaign:
    """Start `camp` from a position written as in docs/positions/conquest.md, its window open, as
    `pbem import` leaves it."""
    camp.state["game"] = RULESET.position(camp.settings, position, "position.toml")
    turns.open_stage(camp, RULESET, T0)
    camp.save()
    return Campaign(camp.folder)


def mail(camp: Campaign, name: str, sender: str, text: str) -> None:
    inbox = camp.folder.parent.parent / "inbox"
    inbox.mkdir(exist_ok=True)
    who = "gm" if sender == "gm" else sender
    head = f"GM {SECRETS['gm']}" if sender == "gm" else f"PLAYER {sender} {SECRETS[sender]}"
    raw = (f"From: {who.title()} <{who}@coc.localhost>\nTo: coc@pbem.localhost\nSubject: [coc] orders\n"
           f"Message-ID: <{name}@coc.localhost>\nDate: Mon, 23 Nov 2026 10:00:00 +0000\nMIME-Version: 1.0\n"
           f"Content-Type: text/plain; charset=\"utf-8\"\n\n{head}\n{text}\n")
    (inbox / f"{name}.eml").write_text(raw.replace("\n", "\r\n"))


def run(camp: Campaign, after: timedelta = timedelta(hours=1)) -> Campaign:
    tick(camp.folder.parent, T0 + after)
    return Campaign(camp.folder)


def replies(camp: Campaign, to: str, in_reply_to: str = "") -> list[str]:
    """Plain-text bodies of the mails to `to` (optionally answering one message)."""
    folder = camp.folder.parent.parent / "outbox" / "new"
    out = []
    for path in sorted(folder.glob("*")) if folder.exists() else []:
        msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        if to not in str(msg["To"]) or (in_reply_to and str(msg["In-Reply-To"]) != f"<{in_reply_to}@coc.localhost>"):
            continue
        part = msg.get_body(preferencelist=("plain",))
        out.append(part.get_content() if part else "")
    return out
