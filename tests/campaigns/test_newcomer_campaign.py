"""A Daemon Rift campaign played as a newcomer would, following only the README and the mail
pbem sends: `pbem new` with the campaign's own address, the welcome mails (the players learn their
secret from them), army lists, the GM's approval on the command line (`pbem approve`), orders
with a misspelt territory and a signature, their correction, the resolution, a `pbem rollback`,
new orders and the corrected report. Every mail the campaign sends is read as a player who
never saw pbem reads it: it comes from the campaign's address, says what happened, what to send
next and by when, and leaks nothing of the program (no Python repr, no Markdown escape)."""

from __future__ import annotations

import email
import re
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.mail.compose import thread_root
from pbem.state.campaign import Campaign
from pbem.state.schedule import parse_time
from pbem.tick.engine import tick
from tests.support.club import reply_to, said, text

ADDRESS = "rift@games.localhost"
T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
ALICE, BOB, GM = "alice@players.localhost", "bob@players.localhost", "gm@players.localhost"
LIST_R = ["LIST R-1 Ironjaws", "ARTILLERY R-1 no", "FAST R-1 no", "U1 infantry 20 Orc Boyz @6",
          "C1 character Warboss @95 W3 general"]
LIST_B = ["LIST B-1 Sky Host", "ARTILLERY B-1 no", "FAST B-1 yes", "U1 cavalry 10 Wind Riders @20",
          "C1 character Herald @100 W2 general"]


class Table:
    """The campaign as its players and GM see it: mail in, mail out, a clock."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.now = T0
        self.secrets: dict[str, str] = {}
        self.read: set[str] = set()
        self.count = 0

    @property
    def camp(self) -> Campaign:
        return Campaign(self.root / "rift")

    def tick(self, later: timedelta = timedelta(hours=1)) -> list[EmailMessage]:
        """Run a tick `later` on; returns the mails it sent."""
        self.now += later
        tick(self.root, self.now)
        return self.new_mail()

    def new_mail(self) -> list[EmailMessage]:
        folder = self.root / "rift" / "outbox" / "maildir" / "new"
        fresh = sorted(p for p in folder.glob("*") if p.name not in self.read) if folder.exists() else []
        self.read |= {p.name for p in fresh}
        return [email.message_from_bytes(p.read_bytes(), policy=policy.default)  # type: ignore[misc]
                for p in fresh]

    def send(self, sender: str, lines: list[str], subject: str = "[rift] orders") -> str:
        """A plain mail from a player (his PLAYER line first), or the GM; returns its Message-ID."""
        self.count += 1
        mid = f"m{self.count}@players.localhost"
        inbox = self.root / "rift" / "inbox"
        for sub in ("new", "cur", "tmp"):
            (inbox / sub).mkdir(parents=True, exist_ok=True)
        raw = (f"From: {sender}\nTo: {ADDRESS}\nSubject: {subject}\nMessage-ID: <{mid}>\n"
               f"Date: {email.utils.format_datetime(self.now)}\nMIME-Version: 1.0\n"
               f'Content-Type: text/plain; charset="utf-8"\n\n' + "\n".join(lines) + "\n")
        (inbox / "new" / f"{self.count:04d}.eml").write_bytes(raw.replace("\n", "\r\n").encode())
        return f"<{mid}>"


def shown(table: Table) -> str:
    """The open stage's deadline as the campaign shows it."""
    camp = table.camp
    return camp.settings.schedule.show(parse_time(camp.state["stage"]["deadline"]))


REPR = re.compile(r"\{'|'\}|\[\s*'|\(\d+,\)|\\[`*_\[\]]|\bNone\b|<pbem\.|object at 0x|Traceback")


def plain_for_a_newcomer(msg: EmailMessage) -> None:
    """What every mail of the campaign owes a reader who never saw pbem."""
    body = text(msg)
    assert ADDRESS in str(msg["From"]), msg["From"]
    assert str(msg["Subject"]).startswith(("[rift] ", "Re: [rift] ")), msg["Subject"]
    assert not REPR.search(body), (msg["Subject"], REPR.search(body))
    assert "{{" not in body and "{%" not in body


@pytest.fixture
def table(tmp_path: Path) -> Table:
    return Table(tmp_path / "campaigns")


def test_a_newcomer_campaign_from_pbem_new_to_the_corrected_report(table: Table) -> None:
    every: list[EmailMessage] = []
    # -- pbem new with the campaign's address, and the welcome mails -----------------------------
    assert main(["new", "rift", "--root", str(table.root), "--gm-email", GM, "--address", ADDRESS,
                 "--timezone", "Europe/Berlin", "--player", f"red,Alice,{ALICE},Red,R",
                 "--player", f"blue,Bob,{BOB},Blue,B"]) == 0
    welcome = table.tick(timedelta(0))
    every += welcome
    assert sorted(str(m["To"]) for m in welcome) == [ALICE, BOB, GM]
    for address, pid in ((ALICE, "red"), (BOB, "blue")):
        body = said(welcome, address, "welcome")
        assert f"send every message to **{ADDRESS}**" in body
        found = re.search(rf"```\nPLAYER {pid} (\S+)\n```", body)       # the line to copy
        assert found is not None
        table.secrets[pid] = found.group(1)
        assert "## First: Turn 1: army lists" in body and "at most 2250 points" in body
        assert f"Deadline: **{shown(table)}**" in body and "CET" in shown(table)
        assert "## Where you start" in body and "next to" in body and "## How to write" in body
    gm_welcome = said(welcome, GM, "welcome")
    assert re.search(r"```\nGM \S+\n```", gm_welcome) and "The first stage is Turn 1: army lists" in gm_welcome
    red, blue = f"PLAYER red {table.secrets['red']}", f"PLAYER blue {table.secrets['blue']}"

    # -- army lists (one signed "Cheers, Alice"), then the GM approves on the command line -------
    first = table.send(f"Alice <{ALICE}>", [red, *LIST_R, "", "Cheers,", "Alice"], "[rift] my list")
    second = table.send(f"Bob <{BOB}>", [blue, *LIST_B], "[rift] list")
    due = shown(table)              # the lists' deadline: the acks are written before the lists close
    lists = table.tick()
    every += lists
    for mid, token in ((first, "R-1"), (second, "B-1")):
        ack = reply_to(lists, mid)
        assert f"- line 2: `LIST {token}" in ack and "## Not accepted" not in ack
        assert f"Deadline: **{due}**" in ack
    assert "2 lines read as prose and skipped: line 8 `Cheers,`, line 9 `Alice`" in reply_to(lists, first)
    alert = said(lists, GM, "needs your attention")
    assert "APPROVE R-1" in alert and "APPROVE B-1" in alert
    assert main(["approve", "rift", "ALL", "--root", str(table.root)]) == 0
    opened = table.tick()
    every += opened
    assert table.camp.state["stage"]["title"] == "Turn 1: orders"
    for address in (ALICE, BOB, GM):
        body = said(opened, address, "Turn 1: orders are open")
        assert f"due by\n**{shown(table)}**" in body and "`HELP`" in body and "`PLAYER` line" in body

    # -- orders with a misspelt territory and a signature; the suggestion, followed as written ---
    typo = table.send(f"Alice <{ALICE}>", [red, "R-1 M Northmarsh", "", "Cheers,", "Alice"])
    acks = table.tick()
    every += acks
    ack = reply_to(acks, typo)
    assert "- line 2 (invalid): `R-1 M Northmarsh`: unknown territory “Northmarsh”; did you mean " \
           "**T25 Northmarch**?" in ack
    assert "2 lines read as prose and skipped: line 4 `Cheers,`, line 5 `Alice`." in ack
    assert "Still without orders: R-1 (they will hold)." in ack and f"Deadline: **{shown(table)}**" in ack
    fixed = table.send(f"Alice <{ALICE}>", [red, "R-1 M T25 Northmarch", "", "Alice"])
    table.send(f"Bob <{BOB}>", [blue, "B-1 H", "", "--", "Bob"])
    resolved = table.tick()
    every += resolved
    assert "- line 2: `R-1 M T25`" in reply_to(resolved, fixed)
    assert table.camp.state["stage"]["title"] == "Turn 2: orders"
    assert table.camp.state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T25"
    for address in (ALICE, BOB):
        report = said(resolved, address, "Turn 1: end of turn")
        assert f"Orders for turn 2 are due by **{shown(table)}**" in report
        assert "R-1 M T25" in said(resolved, address, "Turn 1: movement")

    # -- the GM rolls the turn back; new orders; the corrected report -----------------------------
    later = (table.now + timedelta(hours=1)).isoformat()
    assert main(["rollback", "rift", "--root", str(table.root), "--now", later]) == 0
    notices = table.tick()
    every += notices
    assert table.camp.state["stage"]["title"] == "Turn 1: orders"      # the approved lists are kept
    for address in (ALICE, BOB):
        body = said(notices, address, "rolled back to Turn 1: orders")
        assert "## What was undone" in body and "The campaign was at **Turn 2: orders**" in body
        assert f"Send your orders for **Turn 1: orders** again by **{shown(table)}**" in body
    table.send(f"Alice <{ALICE}>", [red, "R-1 H"])
    table.send(f"Bob <{BOB}>", [blue, "B-1 H"])
    corrected = table.tick()
    every += corrected
    assert table.camp.state["game"]["dr"]["tokens"]["R-1"]["territory"] == "T24"
    for address in (ALICE, BOB, GM):
        assert "| R-1 | T24 | R-1 H | R-1 H |" in said(corrected, address, "Turn 1: movement")
        assert f"Orders for turn 2 are due by **{shown(table)}**" in said(corrected, address, "Turn 1: end of turn")

    # -- every mail, read as a newcomer ---------------------------------------------------------
    root = thread_root("rift", table.camp.settings.domain)
    assert len(every) > 30
    for msg in every:
        plain_for_a_newcomer(msg)
        subject = str(msg["Subject"])
        if not subject.startswith("Re:") and "needs your attention" not in subject:
            assert root in str(msg["References"]).split(), subject
