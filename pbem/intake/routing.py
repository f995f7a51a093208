"""One mailbox for every campaign under a directory (the `[transport.inbox]` of pbem.toml).

The mailbox is read once per tick, however many campaigns share it. Each message goes to
the campaign its envelope names (a `[campaign]` subject tag, else a CAMPAIGN line above the
orders; see pbem.intake.envelope.campaign_named), under
that campaign's lock, and is marked done only after the campaign has stored it, just as
with a campaign's own inbox. Mail for a campaign that is busy or broken stays in the mailbox
for the next tick. Mail that names no campaign run here is answered once by the postmaster
(never when a machine sent it) and marked done, so nothing lies in the mailbox unanswered
and nothing is read for a campaign it was not meant for.
"""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

from pbem.delivery.outqueue import deliver, enqueue
from pbem.intake.envelope import campaign_named, read_envelope
from pbem.intake.handler import GMMail, Intake
from pbem.intake.isolation import is_injected, one_line, passes_through
from pbem.intake.journal import handled, journal_key
from pbem.intake.masking import SecretMask
from pbem.intake.quarantine import DONE, HELD, QUARANTINE_AFTER, RETRY, SKIP, Quarantine, unreadable, usable_sender
from pbem.intake.throttle import Throttle
from pbem.kit.texts import render
from pbem.mail import MAIL_PROBLEM
from pbem.mail.compose import Letterhead
from pbem.mail.connection import MailUnavailable
from pbem.mail.inbox import Inbox, open_inbox
from pbem.mail.message import Submission, parse_message
from pbem.mail.outbox import open_transport
from pbem.rulesets import registry
from pbem.rulesets.base import AnyRuleset as Ruleset
from pbem.state.campaign import KEEP_DAYS, Campaign, load_settings
from pbem.state.checks import SettingsError
from pbem.state.folders import discover
from pbem.state.schedule import iso, parse_time
from pbem.state.site import Site, site_of
from pbem.state.store import LockBusy, StoreError, campaign_lock, read_toml, sweep_leftovers, write_toml

DEFAULT_MAX_BYTES = 256 * 1024
POSTMASTER_WINDOW = timedelta(hours=24)
POSTMASTER_LIMIT = 3
"""Replies per address and day to mail for no campaign: enough for a confused player, too
few to be worth forging a sender for."""
REPLIES = Throttle(POSTMASTER_LIMIT, POSTMASTER_WINDOW)
POSTMASTER_MEMORY = timedelta(days=KEEP_DAYS)
"""How long the postmaster remembers a message it handled after it last met it (the rule of
pbem/intake/journal.py): spam must not grow its state forever, a mail left in a read-only mailbox is
met at every pass and never forgotten, and a mailbox restored from further back than this is
not worth a guard."""

TakeIn = Callable[[Campaign, Ruleset, Intake, bytes, Submission], str]
"""Handles one message for a campaign behind its boundary (engine.Guard.take); returns DONE,
HELD, RETRY or SKIP (pbem/intake/quarantine.py)."""
Commit = Callable[[list[Campaign], Inbox, list[str]], None]


@dataclass
class _Target:
    camp: Campaign
    ruleset: Ruleset
    intake: Intake


class SharedIntake:
    def __init__(self, site: Site, root: Path, now: datetime, log: Callable[[str], None], gm_mail: GMMail) -> None:
        self.site = site
        self.gm_mail = gm_mail
        self.now = now
        self.log = log
        self._survey()
        self.active = {folder.name for folder in discover(root)} & self.sharing.keys()
        self.whole_site = Path(root).resolve() == site.root.resolve()
        self.unread: set[str] = set()
        self.problem = ""
        """Why the shared mailbox could not be read in this tick, if it could not."""

    @classmethod
    def of(cls, root: Path, now: datetime, log: Callable[[str], None], gm_mail: GMMail) -> SharedIntake | None:
        """The shared intake of root's site, or None when its campaigns read their own inboxes."""
        try:
            site = site_of(root)
        except (StoreError, ValueError) as exc:
            log(f"pbem.toml: NOT PROCESSED: {exc}")
            return None
        return cls(site, root, now, log, gm_mail) if site and site.inbox else None

    def run(self, take_in: TakeIn, commit: Commit, every: int) -> set[str]:
        """Read the mailbox once (then the postmaster's released quarantine); returns the
        campaigns whose mail could not be read. Once a campaign has taken in `every`
        messages, and at the end, commit() stores what it took in and marks those messages
        done: mail for many campaigns arrives interleaved, so committing per campaign writes
        each state once per batch of its own mail."""
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
            self._read(inbox, take_in, commit, every, targets, locks, postmaster)
            released = postmaster.quarantine.released() if self.whole_site else None
            if released is not None:
                self._read(released, take_in, commit, every, targets, locks, postmaster)
        if self.whole_site:
            postmaster.deliver(self.log)
        return self.unread

    def _read(self, inbox: Inbox, take_in: TakeIn, commit: Commit, every: int, targets: dict[str, _Target | None],
              locks: contextlib.ExitStack, postmaster: Postmaster) -> None:
        taken: dict[str, list[str]] = {}      # campaign ("" for the postmaster) -> keys not yet stored
        held: dict[str, list[str]] = {}       # the same, for messages set aside

        def store(name: str) -> None:
            """One campaign's batch; if it cannot be stored (a full disk, say), that campaign
            stops for this tick with its mail unmarked, and the others' batches go on."""
            target, keys, aside = targets.get(name), taken.pop(name, []), held.pop(name, [])
            try:
                if not name:
                    postmaster.save()
                for key in aside:
                    inbox.quarantine(key)
                commit([target.camp] if target else [], inbox, keys)
            except MailUnavailable:
                raise
            except Exception as exc:
                if is_injected(exc):
                    raise
                self.log(f"{name or 'postmaster'}: NOT PROCESSED: its mail stays in the shared mailbox: "
                         f"{one_line(exc)}")
                if name:
                    targets[name] = None
                    self.unread.add(name)

        def store_all() -> None:
            for name in list(taken):
                store(name)

        try:
            for item in inbox.items():
                name, verdict = self._route(item.raw, take_in, targets, locks, postmaster)
                if name is None or verdict not in (DONE, HELD):
                    if name and targets.get(name) is None:
                        taken.pop(name, None)          # its campaign stopped: all its mail waits
                        held.pop(name, None)
                    continue
                taken.setdefault(name, []).append(item.key)
                if verdict == HELD:
                    held.setdefault(name, []).append(item.key)
                if len(taken[name]) >= every:
                    store(name)
            store_all()
        except MailUnavailable as exc:
            store_all()                       # keep what was read; its marks may have to wait
            self.log(f"pbem.toml: {MAIL_PROBLEM}: the shared mailbox cannot be read, its mail waits for the "
                     f"next tick: {exc}")
            self.problem = str(exc)
            self.unread |= self.active
        finally:
            inbox.close()

    def _route(self, raw: bytes, take_in: TakeIn, targets: dict[str, _Target | None],
               locks: contextlib.ExitStack, postmaster: Postmaster) -> tuple[str | None, str]:
        """Hand one message to its campaign or the postmaster, each behind a boundary;
        returns the campaign's name ("" for the postmaster; None when the message stays for
        a later tick) and what became of it (DONE, HELD, RETRY or SKIP)."""
        try:
            sub = parse_message(raw, max_bytes=DEFAULT_MAX_BYTES)
            env = read_envelope(sub.subject, sub.text)
            # a known campaign a tag names, else one the envelope's CAMPAIGN line names: no body
            # line overrides a correct tag; an unknown name is for the postmaster to answer
            name = campaign_named(env, self.sharing.keys() | self.elsewhere.keys()) or env.campaign
        except Exception as exc:     # before any campaign is known: the postmaster's problem
            if passes_through(exc):
                raise
            if not self.whole_site:
                return None, SKIP
            return "", self._noted(postmaster.failed(raw, None, one_line(exc)), postmaster)
        if name not in self.sharing:
            if not self.whole_site:
                return None, SKIP      # the tick of the whole directory answers it
            return "", self._noted(postmaster.take(raw, sub, name, self.elsewhere.get(name, "")), postmaster)
        if name not in self.active:
            return None, SKIP
        if name not in targets:
            targets[name] = self._open(self.sharing[name], locks)
        target = targets[name]
        if target is None:
            return None, SKIP
        return name, self._take(raw, sub, name, target, take_in, targets)

    def _noted(self, verdict: str, postmaster: Postmaster) -> str:
        if verdict == RETRY:
            self.log(f"postmaster: a message failed and is retried next tick: {postmaster.last_failure}")
        elif verdict == HELD:
            self.log("postmaster: a message was quarantined; see `pbem quarantine list postmaster`")
        return verdict

    def _take(self, raw: bytes, sub: Submission, name: str, target: _Target, take_in: TakeIn,
              targets: dict[str, _Target | None]) -> str:
        """One message for a campaign. What passes the message's boundary (a full disk, an
        unwritable folder, broken settings) stops that campaign for this tick: its mail waits
        unmarked."""
        try:
            if target.camp.settings.max_mail_bytes != DEFAULT_MAX_BYTES:
                sub = parse_message(raw, max_bytes=target.camp.settings.max_mail_bytes)
            return take_in(target.camp, target.ruleset, target.intake, raw, sub)
        except Exception as exc:      # past the message's boundary: the campaign's own problem
            if is_injected(exc):
                raise
            self.log(f"{name}: NOT PROCESSED: its mail stays in the shared mailbox: {one_line(exc)}")
            targets[name] = None
            self.unread.add(name)
            return RETRY

    def _open(self, folder: Path, locks: contextlib.ExitStack) -> _Target | None:
        try:
            locks.enter_context(campaign_lock(folder, wait=False))
            camp = Campaign(folder)
            ruleset = registry.get(camp.settings.ruleset)
        except LockBusy:
            self.log(f"{folder.name}: busy; its mail stays in the shared mailbox")
            return None
        except Exception as exc:      # a broken campaign of any kind: its tick reports it
            if is_injected(exc):
                raise
            self.log(f"{folder.name}: its mail stays in the shared mailbox: {one_line(exc)}")
            self.unread.add(folder.name)
            return None
        return _Target(camp, ruleset, Intake(camp, ruleset, self.now, self.gm_mail))

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
        sweep_leftovers(self.folder)     # temporary files a killed run left in its state or queue
        self.quarantine = Quarantine(self.folder)
        self.last_failure = ""

    def take(self, raw: bytes, sub: Submission, named: str, elsewhere: str) -> str:
        """answer() behind the message boundary: a failure undoes its effects and counts
        against the message in the postmaster's quarantine."""
        before = copy.deepcopy(self.state)
        try:
            if self.quarantine.holds(journal_key(sub)):
                return HELD
            self.answer(sub, named, elsewhere)
        except Exception as exc:
            if passes_through(exc):
                raise
            self.state = before
            return self.failed(raw, sub, one_line(exc))
        self.quarantine.succeeded(journal_key(sub))
        return DONE

    def failed(self, raw: bytes, sub: Submission | None, reason: str) -> str:
        """Count a failure; the QUARANTINE_AFTER-th sets the message aside, with one plain
        reply where the sender is usable (pbem.toml names no GM: the log says it)."""
        sub = sub or unreadable(raw)
        key = journal_key(sub)
        self.last_failure = f"{key}: {reason}"
        if self.quarantine.failed(key, reason, self.now) < QUARANTINE_AFTER:
            return RETRY
        held = self.quarantine.hold(key, raw, sub, reason, self.now)
        self.state.setdefault("journal", {})[key] = {"note": "quarantined", "at": iso(self.now)}
        self.changed = True
        if usable_sender(sub, self.own) and self._may_answer(sub.sender):
            text = render("common", "quarantined", {"title": "pbem", "held": held, "now": self.now})
            try:
                reply = Letterhead.postmaster(self.site.address).write(
                    f"quarantined/{held.id}", (sub.sender,), "your message could not be processed", text, self.now)
            except ValueError as exc:     # a sender compose cannot write: the message stays set aside
                self.last_failure += f"; its sender could not be answered: {one_line(exc)}"
                return HELD
            enqueue(self.folder, reply)
        return HELD

    def answer(self, sub: Submission, named: str, elsewhere: str = "") -> None:
        """Reply once to mail for no campaign here; `elsewhere` is the address of a campaign
        of that name that reads its own mailbox."""
        journal = self.state.setdefault("journal", {})
        if handled(journal, sub):
            self._met_again(journal.get(journal_key(sub)) or journal.get(sub.message_id))
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
        journal[journal_key(sub)] = {"note": note, "at": iso(self.now)}
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

    def _met_again(self, entry: object) -> None:
        """A message met again (a read-only mailbox shows it at every pass) is remembered
        POSTMASTER_MEMORY from today; renewed once a day, so the state is not written at every pass."""
        if isinstance(entry, dict) and str(entry.get("seen", entry.get("at", "")))[:10] != iso(self.now)[:10]:
            entry["seen"] = iso(self.now)
            self.changed = True

    def _forget_old(self) -> None:
        journal = self.state.get("journal", {})
        for key in [k for k, entry in journal.items()
                    if parse_time(entry.get("seen", entry["at"])) < self.now - POSTMASTER_MEMORY]:
            del journal[key]
        REPLIES.forget(self.state.get("replies", {}), self.now)

    def _may_answer(self, address: str) -> bool:
        return REPLIES.admit(self.state.setdefault("replies", {}), address, self.now)

    def _reply(self, sub: Submission, named: str, elsewhere: str) -> EmailMessage:
        quoted = SecretMask(sub.subject, [read_envelope(sub.subject, sub.text).secret])(sub.subject)
        context = {"named": named, "subject": quoted, "address": self.site.address, "elsewhere": elsewhere}
        text = render("common", "unrouted", context, self.site.root)
        subject = quoted if quoted.lower().startswith("re:") else f"Re: {quoted or 'your mail'}"
        return Letterhead.postmaster(self.site.address).write(
            f"unrouted/{journal_key(sub)}", (sub.sender,), subject, text, self.now,
            in_reply_to=sub.message_id, references=sub.references, auto_reply=True)
