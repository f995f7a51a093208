"""The demo campaign of Star Wars Miniatures driven by the real tick, mail by mail, with pretended
time: a test feeds the sample mails it wants (inbox_samples/star_wars_miniatures) and ticks at the
moments it names, then reads the stored state, the stage record and the mail sent."""

from __future__ import annotations

import email
import hashlib
import shutil
from datetime import datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from pbem.commands.demo import DEMOS, SAMPLES, START, TRANSPORT
from pbem.gm.creation import NewPlayer, create
from pbem.state.campaign import Campaign
from pbem.state.schedule import parse_duration, parse_time
from pbem.state.store import write_toml
from pbem.tick.engine import tick

DEMO = DEMOS["star_wars_miniatures"]
STEPS = SAMPLES / "star_wars_miniatures"


class Demo:
    def __init__(self, root: Path) -> None:
        self.root, self.now = root, START
        camp, _ = create(root / "campaigns", DEMO.campaign, "star_wars_miniatures", DEMO.map,
                         [NewPlayer(*spec) for spec in DEMO.players], "gm@players.localhost", START,
                         schedule=DEMO.schedule, transport=dict(TRANSPORT), rules=DEMO.rules,
                         fixed_secrets=DEMO.secrets, welcome=True)
        self.folder = camp.folder
        secrets = {str(n): hashlib.sha256(f"{DEMO.campaign} demo dice, turn {n}".encode()).hexdigest()
                   for n in range(DEMO.dice_turns + 1)}       # the demo's own dice, so its battle comes
        write_toml(self.folder / "private" / "dice.toml", {"secrets": secrets})

    def feed(self, step: str, *players: str) -> None:
        """Drop the step's sample mails (only those of `players` when named) into the inbox."""
        inbox = self.root / "inbox"
        inbox.mkdir(exist_ok=True)
        for mail in sorted((STEPS / step).glob("*.eml")):
            if not players or any(p in mail.name for p in players):
                shutil.copy(mail, inbox / mail.name)

    def play(self, *steps: str) -> None:
        """The demo's steps as `pbem demo` plays them: every mail, an hour (or the step's wait) later."""
        for step in steps:
            wait = STEPS / step / "wait"
            self.now += parse_duration(wait.read_text().strip()) if wait.exists() else timedelta(hours=1)
            self.feed(step)
            self.tick(self.now)

    def tick(self, now: datetime) -> None:
        self.now = now
        tick(self.root / "campaigns", now)

    @property
    def camp(self) -> Campaign:
        return Campaign(self.folder)

    @property
    def game(self) -> dict[str, Any]:
        return dict(self.camp.state["game"]["star_wars_miniatures"])

    @property
    def deadline(self) -> datetime:
        return parse_time(self.camp.state["stage"]["deadline"])

    def sent(self, to: str = "", since: int = 0) -> list[EmailMessage]:
        folder = self.root / "outbox" / "new"
        paths = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime_ns) if folder.exists() else []
        msgs = [email.message_from_bytes(p.read_bytes(), policy=policy.default) for p in paths]
        return [m for m in msgs[since:] if not to or to in str(m["To"])]  # type: ignore[misc]

    def count(self) -> int:
        return len(self.sent())


def text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""
