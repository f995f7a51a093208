"""A club's campaign as its players and game master see it: `pbem new`, mail in as players write
it, `pbem tick` at a clock the test moves, the GM's commands, and every mail out read back as a
player reads it. The scripted club campaigns (tests/campaigns/) are written with it."""

from __future__ import annotations

import email.utils
import re
from datetime import UTC, datetime, timedelta
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

from pbem.cli import main
from pbem.state.campaign import Campaign
from pbem.state.schedule import parse_time
from pbem.tick.engine import tick
from tests.support.fixed_dice import fix_dice

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
REPR = re.compile(r"\{'|'\}|\[\s*'|\(\d+,\)|\\[`*_\[\]|]|\bNone\b|<pbem\.|object at 0x|Traceback|\{\{|\{%")
"""What no mail may hold: a Python repr, a Markdown escape shown as text, a template leftover."""
YOU = re.compile(r"\b(you|your|yours)\b", re.IGNORECASE)


class Club:
    """One campaign `name` under `root`, written to at `address`; the clock starts at T0."""

    def __init__(self, root: Path, name: str, address: str) -> None:
        self.root, self.name, self.address = root, name, address
        self.now = T0
        self.secrets: dict[str, str] = {}
        self.read: set[str] = set()
        self.every: list[EmailMessage] = []
        self.count = 0

    @property
    def camp(self) -> Campaign:
        return Campaign(self.root / self.name)

    def new(self, *args: str) -> None:
        """`pbem new NAME --root ROOT --address ADDRESS --now T0 ARGS...`, which must succeed."""
        assert main(["new", self.name, "--root", str(self.root), "--address", self.address,
                     "--now", self.now.isoformat(), *args]) == 0
        fix_dice(self.root / self.name, f"{self.name} club dice", 31)     # player orders, roll-offs: each run alike

    def gm(self, *args: str) -> int:
        """A GM command on this campaign's root; its exit status (argparse's refusals included)."""
        try:
            return main([*args, "--root", str(self.root)])
        except SystemExit as ended:
            return int(ended.code or 0)

    def tick(self, later: timedelta = timedelta(hours=1)) -> list[EmailMessage]:
        """A tick `later` on; the mails it sent (each also kept in `every`)."""
        self.now += later
        tick(self.root, self.now)
        return self.new_mail()

    def new_mail(self) -> list[EmailMessage]:
        folder = self.root / self.name / "outbox" / "maildir" / "new"
        fresh = sorted(p for p in folder.glob("*") if p.name not in self.read) if folder.exists() else []
        self.read |= {p.name for p in fresh}
        mails = [message_from_bytes(p.read_bytes(), policy=policy.default) for p in fresh]
        self.every += mails  # type: ignore[arg-type]
        return mails  # type: ignore[return-value]

    def send(self, sender: str, lines: list[str], subject: str = "orders") -> str:
        """A plain mail from `sender` (a player or the GM) with these lines; its Message-ID."""
        self.count += 1
        mid = f"<m{self.count}@players.localhost>"
        inbox = self.root / self.name / "inbox"
        for sub in ("new", "cur", "tmp"):
            (inbox / sub).mkdir(parents=True, exist_ok=True)
        raw = (f"From: {sender}\nTo: {self.address}\nSubject: [{self.name}] {subject}\nMessage-ID: {mid}\n"
               f"Date: {email.utils.format_datetime(self.now)}\nMIME-Version: 1.0\n"
               'Content-Type: text/plain; charset="utf-8"\n\n' + "\n".join(lines) + "\n")
        (inbox / "new" / f"{self.count:04d}.eml").write_bytes(raw.replace("\n", "\r\n").encode())
        return mid

    def player_line(self, pid: str) -> str:
        return f"PLAYER {pid} {self.secrets[pid]}"

    def learn_secrets(self, welcome: list[EmailMessage], players: dict[str, str]) -> None:
        """Each player's secret, read from his welcome mail as he would copy it."""
        for pid, address in players.items():
            found = re.search(rf"```\nPLAYER {pid} (\S+)\n```", text(one(welcome, address, "welcome")))
            assert found is not None, f"{pid}'s welcome has no PLAYER line to copy"
            self.secrets[pid] = found.group(1)

    def deadline(self) -> str:
        """The open stage's deadline as the campaign shows it."""
        camp = self.camp
        return camp.settings.schedule.show(parse_time(camp.state["stage"]["deadline"]))

    def stage(self) -> str:
        return str(self.camp.state["stage"]["title"])

    def forum_posts(self) -> list[str]:
        """The public posts of the campaign's forum thread, front matter left out."""
        folder = self.root.parent / "forum" / self.name
        return [post_body(p) for p in sorted(folder.glob("*.md"))]


def post_body(post: Path) -> str:
    """A folder forum's post without its front matter."""
    return post.read_text(encoding="utf-8").split("+++", 2)[-1]


def text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None, msg["Subject"]
    return str(part.get_content())


def to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if address in str(m["To"])]


def one(mails: list[EmailMessage], address: str, subject: str) -> EmailMessage:
    found = [m for m in to(mails, address) if subject in str(m["Subject"])]
    assert len(found) == 1, (address, subject, [str(m["Subject"]) for m in to(mails, address)])
    return found[0]


def said(mails: list[EmailMessage], address: str, subject: str) -> str:
    """The text of the one mail to `address` whose subject holds `subject`."""
    return text(one(mails, address, subject))


def reply_to(mails: list[EmailMessage], mid: str) -> str:
    found = [m for m in mails if m["In-Reply-To"] == mid]
    assert len(found) == 1, (mid, [str(m["Subject"]) for m in mails])
    return text(found[0])


def read_as_a_newcomer(club: Club) -> None:
    """What every mail of the campaign owes a reader who never saw pbem: it comes from the
    campaign's address with the campaign's tag, and holds no repr, escape or template leftover."""
    assert club.every
    for msg in club.every:
        body = text(msg)
        assert club.address in str(msg["From"]), msg["From"]
        assert str(msg["Subject"]).startswith((f"[{club.name}] ", f"Re: [{club.name}] ")), msg["Subject"]
        found = REPR.search(body)
        assert not found, (msg["Subject"], found, body[max(0, found.start() - 80):found.end() + 80])


def later(club: Club, hours: float) -> str:
    """An ISO time `hours` after the club's clock, for a GM command's `--now`."""
    return (club.now + timedelta(hours=hours)).isoformat()
