"""The tick on a Daemon Rift campaign, for tests: a Red and Blue campaign with a local inbox
(.eml folder) and outbox (Maildir), tokens placed where a test wants them, mail dropped in,
and the outbox read back."""

from __future__ import annotations

import email
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from email import policy
from pathlib import Path
from typing import Any

from pbem.gm.creation import NewPlayer, create
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SECRETS = {"red": "RRRR-TEST-0000-0000-0001", "blue": "BBBB-TEST-0000-0000-0002", "gm": "GMGM-TEST-0000-0000-0000"}
PLAYERS = (NewPlayer("red", "Alice", "alice@test.localhost", "Red", "R", {"home": "1"}),
           NewPlayer("blue", "Bob", "bob@test.localhost", "Blue", "B", {"home": "5"}))


def dr_campaign(root: Path, tokens: Mapping[str, str] | None = None, rules: dict[str, Any] | None = None,
                transport: Mapping[str, Any] | None = None) -> Campaign:
    """Red and Blue on the Rift Valley map with turn 1 orders open. `tokens` ({"R-1": "T25"})
    replaces the opening tokens; every token's list (R-1 and B-1 by default) is approved."""
    mail = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "rift", "daemon_rift", "rift_valley", list(PLAYERS), "gm@test.localhost", T0,
                     transport=mail | dict(transport or {}), rules=rules, fixed_secrets=SECRETS)
    state = camp.state["game"]["dr"]
    if tokens is not None:
        state["tokens"] = {t: {"id": t, "faction": t[0], "territory": where} for t, where in tokens.items()}
    for key in tokens or ("R-1", "B-1"):
        state["lists"][key].update(approved=True, status="active", name=f"List {key}", arrival_turn=1)
    state["phase"] = "orders"
    turns.open_stage(camp, registry.get("daemon_rift"), T0)
    camp.save()
    return camp


def open_orders(camp: Campaign) -> Campaign:
    """Approve R-1's and B-1's lists and open turn 1's orders, as the GM's approval would."""
    state = camp.state["game"]["dr"]
    for key in ("R-1", "B-1"):
        state["lists"][key].update(approved=True, status="active", name=f"List {key}", arrival_turn=1)
    state["phase"] = "orders"
    turns.open_stage(camp, registry.get("daemon_rift"), T0)
    camp.save()
    return camp


def put(camp: Campaign, name: str, body: str, sender: str = "Alice <alice@test.localhost>",
        subject: str = "[rift] orders", mid: str = "", ctype: str = 'text/plain; charset="utf-8"') -> None:
    inbox = camp.folder.parent.parent / "inbox"
    inbox.mkdir(exist_ok=True)
    mid = mid or f"{name}@test.localhost"
    raw = (f"From: {sender}\nTo: rift@pbem.localhost\nSubject: {subject}\nMessage-ID: <{mid}>\n"
           f"Date: Mon, 23 Nov 2026 10:00:00 +0000\nMIME-Version: 1.0\nContent-Type: {ctype}\n\n{body}")
    (inbox / f"{name}.eml").write_text(raw.replace("\n", "\r\n"))


def outbox(camp: Campaign, to: str = "") -> list[email.message.EmailMessage]:
    folder = camp.folder.parent.parent / "outbox" / "new"
    msgs = [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in sorted(folder.glob("*"))] \
        if folder.exists() else []
    return [m for m in msgs if not to or to in str(m["To"])]  # type: ignore[misc]


def body(msg: email.message.EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return part.get_content()


def run(camp: Campaign, now: datetime = T0 + timedelta(hours=1)) -> Campaign:
    tick(camp.folder.parent, now)
    return Campaign(camp.folder)
