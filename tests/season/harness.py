"""A campaign played through its public interface only: mail dropped into an .eml-folder inbox,
`pbem.tick.engine.tick` on an advancing clock, and the outbox Maildir read back.

`Season` is the world the simulated players and the GM act in: it writes their mails (each with a
fresh Message-ID), runs the tick, keeps an index of everything pbem sent, and after every tick runs
the invariants of `tests/season/checks.py`.
"""

from __future__ import annotations

import email
import os
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from random import Random
from typing import Any

from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.gm.creation import NewPlayer, create, welcome_replies
from pbem.rulesets import registry
from pbem.rulesets.base import Context, Ruleset, Stage
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from pbem.tick.log import TickLog
from tests.support.fixed_dice import fix_dice

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
MAIL_TRANSPORT = {"inbox": {"type": "eml", "path": "../../inbox"},
                  "outbox": {"type": "maildir", "path": "../../outbox"}}
SECRET_LINE = re.compile(r"^\s*PLAYER (\S+) (\S+)\s*$", re.MULTILINE)


@dataclass
class Seat:
    """One simulated player: where he mails from and the secret he signs with."""

    pid: str
    email: str
    secret: str


@dataclass(frozen=True)
class Sent:
    """One mail pbem sent, as read back from the outbox."""

    file: str
    message_id: str
    in_reply_to: str
    to: str
    subject: str
    tick: int
    message: EmailMessage


@dataclass
class Setup:
    """What a rule system's season needs to create its campaign."""

    map: str
    players: list[NewPlayer]
    schedule: dict[str, str]
    rules: dict[str, Any] = field(default_factory=dict)


class Season:
    """One campaign under simulation: its clock, seats, mail in and out, and tick history."""

    def __init__(self, root: Path, system: str, seed: int, setup: Setup) -> None:
        self.root, self.system, self.seed = root, system, seed
        self.rng = Random(f"{system}-{seed}")
        self.ruleset: Ruleset = registry.get(system)
        self.now = T0
        self.ticks = 0
        self.mail_no = 0
        self.expected: dict[str, str] = {}          # Message-ID we sent -> who sent it
        self.mail_files: dict[str, str] = {}        # Message-ID we sent -> its file in the inbox
        self.sent_in: dict[str, str] = {}           # a player's Message-ID -> the stage that owed it his mail
        self.after_end: set[str] = set()            # a player's Message-IDs sent once the campaign was over
        self.titles: list[str] = []                 # the stage's title after each tick
        self.outbox: list[Sent] = []
        self.tick_logs: list[TickLog] = []
        self.turns_seen: list[int] = []
        self.rolled_back = False
        self.verified_turns: set[int] = set()
        self.published_turns: set[int] = set()
        self.over_tick = 0
        self.gm_done: set[str] = set()               # scripted GM actions taken (tests/season/driver.py)
        self.rulings: set[str] = set()               # GM mails that answer `gm_pending` tasks
        self.genuine: set[str] = set()               # Message-IDs signed by the seat with its own secret
        self.awaiting_welcome: set[str] = set()      # newcomers' addresses until their welcome mail is read
        self.after_gm: list[tuple[str, list[str], str]] = []   # mails to drop after the GM's (sender, lines, who)
        self._camp: Campaign | None = None
        secrets = {p.id: f"{p.id[:4].upper():X<4}-SEAS-{seed:04d}-0000-{i:04d}" for i, p in enumerate(setup.players)}
        secrets["gm"] = f"GMGM-SEAS-{seed:04d}-0000-9999"
        self.seats = {p.id: Seat(p.id, p.email, secrets[p.id]) for p in setup.players}
        self.gm_secret, self.gm_email = secrets["gm"], "gm@season.localhost"
        camp, made = create(root / "campaigns", "season", system, setup.map, list(setup.players), self.gm_email, T0,
                            schedule=setup.schedule, transport=dict(MAIL_TRANSPORT), rules=setup.rules,
                            fixed_secrets=secrets)
        self.folder = camp.folder
        fix_dice(camp.folder, f"season {seed} dice", 400)       # a seed plays the same game each run
        self.titles.append(str(camp.state.get("stage", {}).get("title", "")))
        for reply in welcome_replies(camp, made, T0):
            enqueue(camp.folder, build_mail(camp, self.ruleset, reply, T0))

    # -- the campaign as pbem stores it ------------------------------------------------
    @property
    def camp(self) -> Campaign:
        """The campaign as the last tick left it (read once per tick: the players only read it)."""
        if self._camp is None:
            self._camp = Campaign(self.folder)
        return self._camp

    def forget(self) -> None:
        """Read the campaign again (after a command changed it outside the tick)."""
        self._camp = None

    def context(self) -> Context:
        return turns.context(self.camp, self.now)

    def stage(self) -> Stage:
        return self.ruleset.stage(self.context())

    def stage_meta(self) -> dict[str, Any]:
        return dict(self.camp.state.get("stage", {}))

    # -- mail in -----------------------------------------------------------------------
    def send(self, pid: str, lines: list[str], subject: str = "orders", secret: str = "") -> str:
        seat = self.seats[pid]
        mid = self.drop(seat.email, [f"PLAYER {pid} {secret or seat.secret}", *lines], subject, pid)
        self.sent_in[mid] = str(self.stage_meta().get("title", "")) if pid in self.stage().owing else ""
        if self.stage().over:
            self.after_end.add(mid)
        if not secret:
            self.genuine.add(mid)
        return mid

    def send_gm(self, lines: list[str]) -> str:
        return self.drop(self.gm_email, [f"GM {self.gm_secret}", *lines], "GM", "gm")

    def drop(self, sender: str, lines: list[str], subject: str, who: str) -> str:
        self.mail_no += 1
        mid = f"s{self.seed}-{self.mail_no}-{who}@players.localhost"
        body = "\n".join(lines)
        raw = (f"From: {who.title()} <{sender}>\nTo: season@pbem.localhost\nSubject: [season] {subject}\n"
               f"Message-ID: <{mid}>\nDate: {email.utils.format_datetime(self.now)}\nMIME-Version: 1.0\n"
               f"Content-Type: text/plain; charset=\"utf-8\"\n\n{body}\n")
        inbox = self.root / "inbox"
        inbox.mkdir(exist_ok=True)
        path = inbox / f"{self.mail_no:06d}.eml"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(raw.replace("\n", "\r\n"))
        stamp = (T0 + timedelta(seconds=self.mail_no)).timestamp()   # oldest first = order sent
        os.utime(tmp, (stamp, stamp))
        tmp.rename(path)
        self.expected[f"<{mid}>"] = who
        self.mail_files[f"<{mid}>"] = path.name
        return f"<{mid}>"

    # -- the clock and the tick ----------------------------------------------------------
    def tick(self, step: timedelta, check: bool = True) -> TickLog:
        """Advance the clock, run one tick, read what it sent and check every invariant (unless a
        test of one defect asks not to: it asserts its own)."""
        from tests.season import checks

        self.now += step
        self.ticks += 1
        before = self._turn()
        log = TickLog()
        self._camp = None
        try:
            tick(self.root / "campaigns", self.now, log=log)
        except Exception as exc:
            raise AssertionError(f"{self.where()}: the tick raised {exc!r}; log: {log.lines}") from exc
        self.tick_logs.append(log)
        self._camp = None
        self._read_outbox()
        self.turns_seen.append(self._turn())
        self.titles.append(str(self.stage_meta().get("title", "")))
        if check:
            checks.after_tick(self, before)
        return log

    def _turn(self) -> int:
        return int(self.camp.state.get("stage", {}).get("turn", 0))

    def where(self) -> str:
        return f"{self.system} seed {self.seed} tick {self.ticks} ({self.now:%Y-%m-%d %H:%M})"

    # -- mail out ----------------------------------------------------------------------
    def _read_outbox(self) -> None:
        folder = self.root / "outbox" / "new"
        known = {s.file for s in self.outbox}
        for path in sorted(folder.glob("*")) if folder.exists() else []:
            if path.name in known:
                continue
            msg = email.message_from_bytes(path.read_bytes(), policy=policy.default)
            assert isinstance(msg, EmailMessage)
            self.outbox.append(Sent(path.name, str(msg["Message-ID"] or ""), str(msg["In-Reply-To"] or ""),
                                    str(msg["To"] or ""), str(msg["Subject"] or ""), self.ticks, msg))
            self._learn_secret(msg)

    def _learn_secret(self, msg: EmailMessage) -> None:
        """The welcome mail a REPLACE sends carries the newcomer's secret: the newcomer reads it
        (only he: the welcome mails of the campaign's start carry the secrets the seats began with)."""
        to = str(msg["To"] or "").lower()
        newcomer = next((a for a in self.awaiting_welcome if a in to), "")
        if not newcomer:
            return
        for pid, secret in SECRET_LINE.findall(body(msg)):
            if self.seats[pid].email == newcomer:
                self.seats[pid].secret = secret
                self.awaiting_welcome.discard(newcomer)

    def replies_to(self, mid: str) -> list[Sent]:
        return [s for s in self.outbox if s.in_reply_to == mid]


def body(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    return part.get_content() if part is not None else ""
