"""One mailbox for every campaign under a directory (the `[transport.inbox]` of pbem.toml).

The mailbox is read once per tick, however many campaigns share it. Each message goes to
the campaign its envelope names (the `[campaign]` subject tag or a CAMPAIGN line), under
that campaign's lock, and is marked done only after the campaign has stored it, just as
with a campaign's own inbox. Mail for a campaign that is busy or broken stays in the mailbox
for the next tick. Mail that names no campaign run here is answered once by the postmaster
(never when a machine sent it) and marked done, so nothing lies in the mailbox unanswered
and nothing is read for a campaign it was not meant for.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from pbem.campaign import Campaign, SettingsError, discover, load_settings
from pbem.envelope import read_envelope
from pbem.intake import Intake
from pbem.mail.compose import OutgoingMail, compose
from pbem.mail.connection import MailUnavailable
from pbem.mail.inbox import Inbox, open_inbox
from pbem.mail.message import Submission, parse_message
from pbem.mail.outbox import open_transport
from pbem.masking import SecretMask
from pbem.outqueue import deliver, enqueue
from pbem.reports import render
from pbem.rulesets import registry
from pbem.rulesets.base import Ruleset
from pbem.schedule import iso, parse_time
from pbem.site import Site, site_of
from pbem.store import LockBusy, StoreError, campaign_lock, read_toml, write_toml

DEFAULT_MAX_BYTES = 256 * 1024
POSTMASTER_WINDOW = timedelta(hours=24)
POSTMASTER_LIMIT = 3
POSTMASTER_MEMORY = timedelta(days=90)
"""How long the postmaster remembers a message it handled: spam must not grow its state
forever, and a mailbox restored from further back than this is not worth a guard."""
"""Replies per address and day to mail for no campaign: enough for a confused player, too
few to be worth forging a sender for."""

TakeIn = Callable[[Campaign, Ruleset, Intake, Submission], None]
Commit = Callable[[list[Campaign], Inbox, list[str]], None]


@dataclass
class _Target:
    camp: Campaign
    ruleset: Ruleset
    intake: Intake


class SharedIntake:
    def __init__(self, site: Site, root: Path, now: datetime, log: Callable[[str], None]) -> None:
        self.site = site
        self.now = now
        self.log = log
        self._survey()
        self.active = {folder.name for folder in discover(root)} & self.sharing.keys()
        self.whole_site = Path(root).resolve() == site.root.resolve()
        self.unread: set[str] = set()

    @classmethod
    def of(cls, root: Path, now: datetime, log: Callable[[str], None]) -> SharedIntake | None:
        """The shared intake of root's site, or None when its campaigns read their own inboxes."""
        try:
            site = site_of(root)
        except (StoreError, ValueError) as exc:
            log(f"pbem.toml: NOT PROCESSED: {exc}")
            return None
        return cls(site, root, now, log) if site and site.inbox else None

    def run(self, take_in: TakeIn, commit: Commit, every: int) -> set[str]:
        """Read the mailbox once; returns the campaigns whose mail could not be read. Once a
        campaign has taken in `every` messages, and at the end, commit() stores what it took
        in and marks those messages done: mail for many campaigns arrives interleaved, so
        committing per campaign writes each state once per batch of its own mail."""
        if not self.active and not self.whole_site:
            return set()
        try:
            postmaster = Postmaster(self.site, self.now, self.own)
            inbox = open_inbox(self.site.inbox, self.site.root, state_dir=self.site.postmaster, log=self.log)
        except (ValueError, StoreError) as exc:
            self.log(f"pbem.toml: NOT PROCESSED: shared mailbox: {exc}")
            return set(self.active)
        with contextlib.ExitStack() as locks:
            targets: dict[str, _Target | None] = {}
            taken: dict[str, list[str]] = {}      # campaign ("" for the postmaster) -> keys not yet stored

            def store(name: str) -> None:
                target = targets.get(name)
                if not name:
                    postmaster.save()
                commit([target.camp] if target else [], inbox, taken.pop(name, []))

            def store_all() -> None:
                for name in list(taken):
                    store(name)

            try:
                for item in inbox.items():
                    name = self._route(item.raw, take_in, targets, locks, postmaster)
                    if name is not None:
                        taken.setdefault(name, []).append(item.key)
                        if len(taken[name]) >= every:
                            store(name)
                store_all()
            except MailUnavailable as exc:
                store_all()                       # keep what was read; its marks may have to wait
                self.log(f"shared mailbox: {exc}; its mail waits for the next tick")
                self.unread |= self.active
            finally:
                inbox.close()
        if self.whole_site:
            postmaster.deliver(self.log)
        return self.unread

    def _route(self, raw: bytes, take_in: TakeIn, targets: dict[str, _Target | None],
               locks: contextlib.ExitStack, postmaster: Postmaster) -> str | None:
        """Hand one message to its campaign or the postmaster; returns the campaign's name
        ("" for the postmaster), or None when the message stays for a later tick."""
        sub = parse_message(raw, max_bytes=DEFAULT_MAX_BYTES)
        name = read_envelope(sub.subject, sub.text).campaign
        if name not in self.sharing:
            if not self.whole_site:
                return None      # the tick of the whole directory answers it
            postmaster.answer(sub, name, self.elsewhere.get(name, ""))
            return ""
        if name not in self.active:
            return None
        if name not in targets:
            targets[name] = self._open(self.sharing[name], locks)
        target = targets[name]
        if target is None:
            return None
        if target.camp.settings.max_mail_bytes != DEFAULT_MAX_BYTES:
            sub = parse_message(raw, max_bytes=target.camp.settings.max_mail_bytes)
        take_in(target.camp, target.ruleset, target.intake, sub)
        return name

    def _open(self, folder: Path, locks: contextlib.ExitStack) -> _Target | None:
        try:
            locks.enter_context(campaign_lock(folder, wait=False))
            camp = Campaign(folder)
            ruleset = registry.get(camp.settings.ruleset)
        except LockBusy:
            self.log(f"{folder.name}: busy; its mail stays in the shared mailbox")
            return None
        except (SettingsError, StoreError, KeyError) as exc:
            self.log(f"{folder.name}: its mail stays in the shared mailbox: {exc}")
            self.unread.add(folder.name)
            return None
        return _Target(camp, ruleset, Intake(camp, ruleset, self.now))

    def _survey(self) -> None:
        """Which campaigns of the site read the shared mailbox (no [transport.inbox] of their
        own), which read their own (name -> address), and every address that is ours."""
        self.sharing: dict[str, Path] = {}
        self.elsewhere: dict[str, str] = {}
        self.own = {self.site.address}
        for folder in discover(self.site.root):
            try:
                settings = load_settings(folder)
            except (SettingsError, StoreError):
                self.sharing[folder.name] = folder     # broken: its mail must wait, not be refused
                continue
            self.own.add(settings.address)
            if settings.inbox.get("shared"):
                self.sharing[folder.name] = folder
            else:
                self.elsewhere[folder.name] = settings.address


class Postmaster:
    """Answers mail in the shared mailbox that names no campaign run here: once per message
    (its own journal), never to a machine or to ourselves, at most POSTMASTER_LIMIT times a
    day per address. Its queue and state live in `<root>/postmaster/`."""

    def __init__(self, site: Site, now: datetime, own: set[str]) -> None:
        self.site = site
        self.now = now
        self.own = own
        self.folder = site.postmaster
        path = self.folder / "state.toml"
        self.state = read_toml(path) if path.exists() else {}
        self.changed = False

    def answer(self, sub: Submission, named: str, elsewhere: str = "") -> None:
        """Reply once to mail for no campaign here; `elsewhere` is the address of a campaign
        of that name that reads its own mailbox."""
        journal = self.state.setdefault("journal", {})
        if sub.message_id in journal:
            return
        if sub.auto:
            note = f"ignored: {sub.auto}"
        elif not sub.sender or sub.sender in self.own:
            note = "ignored: no sender or our own address"
        elif not self._may_answer(sub.sender):
            note = "not answered: reply limit"
        else:
            enqueue(self.folder, self._reply(sub, named, elsewhere))
            note = "answered: no such campaign" if named else "answered: no campaign named"
        journal[sub.message_id] = {"note": note, "at": iso(self.now)}
        self.changed = True

    def save(self) -> None:
        if self.changed:
            self._forget_old()
            write_toml(self.folder / "state.toml", self.state,
                       header="# Written by pbem: mail in the shared mailbox that named no campaign.")
            self.changed = False

    def deliver(self, log: Callable[[str], None]) -> None:
        spec = self.site.outbox or {"type": "maildir", "path": "outbox/maildir"}
        try:
            transport = open_transport(spec, self.folder, log=log)
        except ValueError as exc:
            log(f"pbem.toml: [transport.outbox]: {exc}")
            return
        sent, problems = deliver(self.folder, transport)
        if sent:
            log(f"postmaster: delivered {sent} mail(s)")
        for problem in problems:
            log(f"postmaster: delivery failed, kept for retry: {problem}")

    def _forget_old(self) -> None:
        journal = self.state.get("journal", {})
        for message_id in [m for m, entry in journal.items() if parse_time(entry["at"]) < self.now - POSTMASTER_MEMORY]:
            del journal[message_id]
        counts = self.state.get("replies", {})
        for address in [a for a, times in counts.items()
                        if all(parse_time(t) <= self.now - POSTMASTER_WINDOW for t in times)]:
            del counts[address]

    def _may_answer(self, address: str) -> bool:
        counts = self.state.setdefault("replies", {})
        recent = [t for t in counts.get(address, []) if parse_time(t) > self.now - POSTMASTER_WINDOW]
        allowed = len(recent) < POSTMASTER_LIMIT
        counts[address] = recent + [iso(self.now)] if allowed else recent
        return allowed

    def _reply(self, sub: Submission, named: str, elsewhere: str):  # type: ignore[no-untyped-def]
        quoted = SecretMask(sub.subject, [read_envelope(sub.subject, sub.text).secret])(sub.subject)
        context = {"named": named, "subject": quoted, "address": self.site.address, "elsewhere": elsewhere}
        text = render("common", "unrouted", context, self.site.root)
        subject = quoted if quoted.lower().startswith("re:") else f"Re: {quoted or 'your mail'}"
        domain = self.site.address.partition("@")[2] or "localhost"
        mail = OutgoingMail(key=f"unrouted/{sub.message_id}", to=(sub.sender,), subject=subject, markdown=text,
                            sender=f"pbem <{self.site.address}>", in_reply_to=sub.message_id,
                            references=sub.references, auto_reply=True)
        return compose(mail, campaign="postmaster", domain=domain, date=self.now)
