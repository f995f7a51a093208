"""A campaign's mail problems: its inbox cannot be read, or its outgoing server takes no mail.

A wrong password, a missing password variable, a mistyped folder or a server that is down leaves
the campaign waiting for mail that never comes. Each such problem is a counted line of the tick's
log (`pbem tick` exits with 3), and its GM is told once per distinct problem: the alert is queued
in the outbox, so it goes in the same tick when the outgoing server works and when it heals
otherwise; until then the log and `pbem status` say it. The problems on record live in
`.mail_problems.toml` (apart from state.toml, like .alerted.toml: a tick that cannot load the
state must still not alert twice); one that heals is struck off with a line in the log, so the
next problem of the same kind is news again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Reply
from pbem.intake.isolation import digest
from pbem.mail import MAIL_PROBLEM
from pbem.rulesets.base import AnyRuleset
from pbem.state.campaign import Campaign
from pbem.state.schedule import iso
from pbem.state.store import StoreError, read_toml, write_toml
from pbem.tick.log import TickLog

RECORD = ".mail_problems.toml"
WHAT = {"inbox": "inbox unavailable, mail stays on the server",
        "outbox": "mail cannot be sent, it stays queued"}
"""What each kind of problem means for the campaign, as the log, the alert and `pbem status` say it."""
SUBJECT = {"inbox": "cannot read its mail", "outbox": "cannot send mail"}
_VOLATILE = re.compile(r" \((?:after \d+ attempts|earlier in this run|[\d.+ ]+ secs)\)")
"""Parts of a problem's text that change from one tick to the next without making it another
problem: the attempts, and the time Dovecot took, which it adds to a refusal ("(0.001 + 0.000 secs)")."""


@dataclass
class MailAlarms:
    """The mail problems a campaign's tick meets, against those already on record."""

    camp: Campaign
    ruleset: AnyRuleset
    now: datetime
    log: TickLog

    def failed(self, kind: str, problem: str, logged: bool = False) -> None:
        """A counted line (unless `logged` already); the GM's alert queued when the problem is new."""
        if not logged:
            self.log(f"{self.camp.name}: {MAIL_PROBLEM}: {WHAT[kind]}: {problem}")
        record = problems_of(self.camp.folder)
        key = digest(f"{kind} {_VOLATILE.sub('', problem)}")
        if record.get(kind, {}).get("key") == key:
            return                                  # told already: never every tick
        since = iso(self.now)
        enqueue(self.camp.folder, self._alert(kind, problem, key, since))   # first: a crash alerts again
        record[kind] = {"problem": problem, "since": since, "key": key}
        _write(self.camp.folder, record)

    def shared(self, problem: str, read: bool) -> None:
        """The shared mailbox of pbem.toml, read for this campaign before its tick: its problem
        is the campaign's (counted once, on the line of pbem.toml)."""
        if problem:
            self.failed("inbox", f"the shared mailbox of pbem.toml: {problem}", logged=True)
        elif read:
            self.worked("inbox")

    def worked(self, kind: str) -> None:
        """The inbox was read, or the server took mail: a problem on record is over."""
        record = problems_of(self.camp.folder)
        if kind not in record:
            return
        healed = record.pop(kind)
        self.log(f"{self.camp.name}: healed: its {kind} works again (the problem since {healed.get('since', '?')} "
                 "is over)")
        _write(self.camp.folder, record)

    def _alert(self, kind: str, problem: str, key: str, since: str) -> EmailMessage:
        settings = self.camp.settings
        reply = Reply(f"mail-problem/{kind}/{key}/{since}", (settings.gm.email,),
                      f"[{self.camp.name}] {SUBJECT[kind]}", "mail_problem",
                      {"campaign": settings, "kind": kind, "subject": SUBJECT[kind], "problem": problem,
                       "now": self.now}, auto_reply=False)
        return build_mail(self.camp, self.ruleset, reply, self.now)


def problems_of(folder: Path) -> dict[str, dict[str, str]]:
    """The campaign's mail problems on record, by kind ("inbox", "outbox")."""
    try:
        data = read_toml(folder / RECORD) if (folder / RECORD).exists() else {}
    except (StoreError, OSError):
        return {}
    return {kind: {str(k): str(v) for k, v in entry.items()} for kind, entry in data.items()
            if kind in WHAT and isinstance(entry, dict)}


def _write(folder: Path, record: dict[str, dict[str, str]]) -> None:
    if record:
        write_toml(folder / RECORD, record, header="# Written by pbem: mail problems its GM was told about.")
    else:
        (folder / RECORD).unlink(missing_ok=True)


def status_lines(folder: Path) -> list[str]:
    """For `pbem status`: each mail problem on record and since when."""
    return [f"mail problem since {entry.get('since', '?')}: {WHAT[kind]}: {entry.get('problem', '')}"
            + (" (the GM's alert waits in the outbox)" if kind == "outbox" else "")
            for kind, entry in sorted(problems_of(folder).items())]
