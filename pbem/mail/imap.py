"""An IMAP folder as an inbox.

    [transport.inbox]
    type = "imap"
    host = "imap.example.org"        # + tls, port, user, password_env/password_file, ... (see connection.py)
    folder = "INBOX"                 # where orders arrive
    processed = "Processed"          # where done mail goes; "" keeps it in place, flagged
    quarantine = "Quarantine"        # where mail whose handling keeps failing is put aside
    batch = 50                       # messages per FETCH

New messages are those without the `$PbemDone` keyword. They are read with BODY.PEEK[], so
fetching alone changes nothing on the server. A message is marked done (the keyword and
\\Seen, then MOVE to the processed folder when the server can MOVE) only after the engine has
stored its effect; the marks of one batch go to the server together. A crash before that
leaves the message new, and the campaign's journal of Message-IDs recognises it next time.

UIDVALIDITY is remembered in a small state file. When it changes (a restored or recreated
mailbox), UIDs mean nothing any more: every message is read again and the journal, not the
UID, decides what was seen. A dropped connection is reopened (with backoff) and reading
resumes where it stopped.

Nothing the server says is trusted blindly. A mailbox it opens READ-ONLY is read all the
same (marks are impossible there, and the journal keeps its mail from being handled twice);
marks it refuses are logged, never a reason to stop reading; a FETCH answer without a usable
body skips that message with a log line; a SELECT answer without UIDVALIDITY, or an answer
that cannot be parsed, is a clear MailUnavailable. Every operation (connect and log in, one
FETCH, ...) must end within `timeout` seconds, however slowly the server trickles.
"""

from __future__ import annotations

import contextlib
import functools
import imaplib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from imapclient import IMAPClient  # type: ignore[import-untyped]  # imapclient ships no type hints
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]  # imapclient ships no type hints

from pbem.mail.connection import MailboxDropped, MailUnavailable, ServerSpec, Watchdog, describe
from pbem.mail.imap_wire import (
    DELETED,
    DISCONNECTED,
    DONE,
    PORTS,
    QUARANTINED,
    SEEN,
    UNREADABLE,
    Client,
    Deadline,
    Malformed,
    ValidityChanged,
    body_of,
    fetch,
    folders,
    search,
    store_validity,
    stored_validity,
)
from pbem.mail.inbox import InboxItem


class ImapInbox:
    def __init__(self, server: ServerSpec, folder: str = "INBOX", processed: str = "Processed",
                 batch: int = 50, state: Path | None = None, log: Callable[[str], None] | None = None,
                 quarantine: str = "Quarantine") -> None:
        self.server = server
        self.folder = folder
        self.processed = processed
        self.quarantine_folder = quarantine
        self.batch = max(1, batch)
        self.state = state
        self.log = log or (lambda text: None)
        self._client: IMAPClient | None = None
        self._logged_in = False
        self._watchdog = Watchdog(server.timeout)
        self._validity = 0
        self._readonly = False
        self._done: list[int] = []
        self._said: set[str] = set()       # what was logged once already in this run

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], base: Path, state_dir: Path | None = None,
                  log: Callable[[str], None] | None = None) -> ImapInbox:
        server = ServerSpec.read(spec, base, "imap", PORTS)
        folder, processed, quarantine, batch = folders(spec)
        state = (state_dir or Path(base)) / "imap-state.toml"
        return cls(server, folder, processed, batch, state, log, quarantine)

    # -- the Inbox protocol ------------------------------------------------------------
    def items(self) -> Iterator[InboxItem]:
        """New messages, oldest UID first, fetched `batch` at a time. The marks given so far
        go to the server before each further FETCH; close() sends the rest and logs out."""
        handed_out: set[str] = set()
        for _ in range(self.server.retries + 1):
            try:
                yield from self._one_pass(handed_out)
                return
            except ValidityChanged:
                self._done.clear()
        raise MailUnavailable(f"{self.server.where}: {self.folder} keeps changing its UIDVALIDITY")

    def mark_done(self, key: str) -> None:
        uid = self._uid(key)
        if uid is not None and not self._readonly:
            self._done.append(uid)

    def quarantine(self, key: str) -> None:
        """Move the message to the quarantine folder (made if missing); where the server
        refuses, flag it $PbemDone $PbemQuarantined so this inbox never shows it again.
        Never raises: the engine keeps its own copy and journal entry whatever happens here."""
        uid = self._uid(key)
        if uid is None:
            return
        connected = self._client is not None
        try:
            self._call(functools.partial(self._put_aside, uid=uid, validity=self._validity))
        except (MailUnavailable, ValidityChanged) as exc:
            self.log(f"{self.server.where}: could not quarantine message {key} in {self.folder} ({exc}); "
                     "pbem's journal keeps it from being handled twice")
        finally:
            if not connected:                    # called after close(): leave no session behind
                self._drop(logout=True)

    def close(self) -> None:
        self._finish()

    def check(self) -> str:
        """Log in and look, changing nothing: what `pbem check-mail` reports."""
        try:
            new = len(self._call(search))
            can_move = self._call(lambda client: client.has_capability("MOVE"))
        finally:
            self._drop(logout=True)
        done = (f"done mail moves to {self.processed!r}" if self.processed and can_move
                else "done mail stays, flagged $PbemDone")
        if self._readonly:
            done = "the mailbox is read-only: mail is read but cannot be marked done"
        return f"{self.server.where} ({self.server.tls} TLS): {new} new in {self.folder!r}, " \
               f"UIDVALIDITY {self._validity}; {done}"

    def _uid(self, key: str) -> int | None:
        """The UID a key of this inbox names; None for a key of an older UIDVALIDITY (void)."""
        validity, _, uid = key.partition(":")
        return int(uid) if validity == str(self._validity) and uid.isdigit() else None

    def _once(self, topic: str, text: str) -> None:
        """Log text the first time this inbox meets topic (a server's refusal would
        otherwise fill the log with one line per batch)."""
        if topic not in self._said:
            self._said.add(topic)
            self.log(text)

    # -- reading -----------------------------------------------------------------------
    def _one_pass(self, handed_out: set[str]) -> Iterator[InboxItem]:
        uids = self._call(search)
        validity = self._validity
        for start in range(0, len(uids), self.batch):
            chunk = [uid for uid in uids[start:start + self.batch] if f"{validity}:{uid}" not in handed_out]
            if not chunk:
                continue
            self._flush()
            bodies = self._call(functools.partial(self._fetch_chunk, uids=chunk))
            if self._validity != validity:
                raise ValidityChanged
            for uid, raw in bodies:
                key = f"{validity}:{uid}"
                handed_out.add(key)
                yield InboxItem(key, raw)

    def _fetch_chunk(self, client: IMAPClient, uids: list[int]) -> list[tuple[int, bytes]]:
        """The messages of one batch that the server answered usably. An answer imapclient
        cannot parse is fetched again one message at a time, so one bad message costs
        only itself."""
        try:
            answers = [(uids, fetch(client, uids))]
        except (*UNREADABLE, IMAPClientError) as exc:
            if isinstance(exc, imaplib.IMAP4.abort):
                raise
            answers = [([uid], self._fetch_alone(client, uid)) for uid in uids]
        bodies = []
        for asked, answer in answers:
            for uid in asked:
                raw = body_of(answer, uid) if answer is not None else None
                if isinstance(raw, str):
                    self.log(f"{self.server.where}: {self.folder}: {raw}; that message is skipped "
                             "and stays on the server")
                elif raw is not None:
                    bodies.append((uid, raw))
        return bodies

    def _fetch_alone(self, client: IMAPClient, uid: int) -> Any:
        try:
            return fetch(client, [uid])
        except imaplib.IMAP4.abort:
            raise
        except (*UNREADABLE, IMAPClientError) as exc:
            self.log(f"{self.server.where}: {self.folder}: the FETCH answer for UID {uid} cannot be read "
                     f"({describe(exc)}); that message is skipped and stays on the server")
            return None

    # -- marking done ------------------------------------------------------------------
    def _flush(self) -> None:
        if not self._done:
            return
        uids, validity = sorted(set(self._done)), self._validity
        self._done.clear()

        def mark(client: IMAPClient) -> None:
            if self._validity != validity:
                raise ValidityChanged
            self._refusable(lambda: client.add_flags(uids, [DONE, SEEN], silent=True), "mark done")
            if self.processed and client.has_capability("MOVE"):
                try:
                    client.move(uids, self.processed)
                except imaplib.IMAP4.abort:
                    raise
                except IMAPClientError as exc:   # the keyword already marks them done
                    self.log(f"{self.server.where}: cannot move done mail to {self.processed!r} ({exc}); "
                             "it stays flagged $PbemDone instead")
                    self.processed = ""

        self._call(mark)

    def _refusable(self, command: Callable[[], Any], what: str) -> bool:
        """Run a marking command the server may refuse (NO/BAD): a refusal is logged once per
        run and reading goes on; the journal recognises the mail on later ticks."""
        try:
            command()
            return True
        except imaplib.IMAP4.abort:
            raise
        except IMAPClientError as exc:
            self._once(what, f"{self.server.where}: {self.folder}: the server refuses to {what} messages ({exc}); "
                       "reading goes on and pbem's journal keeps them from being handled twice")
            return False

    def _put_aside(self, client: IMAPClient, uid: int, validity: int) -> None:
        if self._validity != validity:
            return                               # a key of a replaced mailbox: nothing to do
        if self._readonly:
            self._once("quarantine read-only",
                       f"{self.server.where}: {self.folder} is read-only: message {validity}:{uid} cannot be "
                       "quarantined there; pbem's journal keeps it from being handled twice")
            return
        folder = self.quarantine_folder
        if folder and self._refusable(lambda: self._move(client, [uid], folder), f"quarantine to {folder!r}"):
            self.log(f"{self.server.where}: message {validity}:{uid} moved from {self.folder} to {folder!r}")
            return
        self._refusable(lambda: client.add_flags([uid], [DONE, QUARANTINED, SEEN], silent=True),
                        "flag as quarantined")

    def _move(self, client: IMAPClient, uids: list[int], folder: str) -> None:
        """MOVE, or COPY and expunge (only these UIDs: UIDPLUS) where MOVE is missing."""
        if not client.folder_exists(folder):
            with contextlib.suppress(IMAPClientError):   # made meanwhile by another client: fine
                client.create_folder(folder)
        if client.has_capability("MOVE"):
            client.move(uids, folder)
            return
        client.copy(uids, folder)
        client.add_flags(uids, [DELETED, DONE, SEEN], silent=True)   # hidden even without UIDPLUS
        if client.has_capability("UIDPLUS"):
            client.uid_expunge(uids)

    def _finish(self) -> None:
        try:
            self._flush()
        except (MailUnavailable, ValidityChanged, IMAPClientError) as exc:
            self.log(f"{self.server.where}: could not mark {self.folder} messages done ({exc}); "
                     "they are recognised by the journal next time")
        finally:
            self._drop(logout=True)

    # -- the connection ----------------------------------------------------------------
    def _call(self, operation: Callable[[IMAPClient], Any]) -> Any:
        """operation(client) on a live, selected connection, within the timeout; reconnects
        after a drop. A drop after the login counts against this mailbox only."""
        where = f"{self.server.where}: {self.folder}"

        def attempt() -> Any:
            try:
                with self._watchdog.running():
                    return operation(self._connected())
            except DISCONNECTED as exc:
                after_login = self._logged_in
                self._drop()
                if self._watchdog.fired:
                    raise Deadline(self.folder if after_login else "") from exc
                if after_login:
                    raise MailboxDropped(describe(exc)) from exc
                raise
            except IMAPClientError as exc:       # a NO or BAD answer: the mail stays for later
                raise MailUnavailable(f"{where}: {describe(exc)}") from exc
            except (Malformed, *UNREADABLE) as exc:
                self._drop()                     # whatever else it sent is not to be read either
                raise MailUnavailable(f"{where}: the server's answer cannot be used: {exc}") from exc

        try:
            return self.server.patiently(attempt, DISCONNECTED, mailbox=self.folder)
        except Deadline as exc:
            raise self.server.give_up(f"no complete answer within {self.server.timeout:g} s (timeout); "
                                      "the server is too slow or stalled", exc.args[0]) from exc

    def _connected(self) -> IMAPClient:
        if self._client is not None:
            return self._client
        self._logged_in = False
        try:
            client = Client(self.server, self._watchdog)
        except BaseException:
            self._watchdog.forget()      # the half-made socket is closed when collected
            raise
        try:
            if self.server.tls == "starttls":
                client.starttls(self.server.ssl_context())
            client.login(self.server.user, self.server.password())
            self._logged_in = True
            self._prepare(client)
            validity = self._select(client)
        except IMAPClientError as exc:
            self._shut(client)
            if isinstance(exc, imaplib.IMAP4.abort):
                raise
            raise MailUnavailable(f"{self.server.where}: {describe(exc)}") from exc
        except BaseException:
            self._shut(client)
            raise
        self._client = client
        self._note_validity(validity)
        return client

    def _select(self, client: IMAPClient) -> int:
        """Open the folder; one the server opens READ-ONLY is examined instead (imaplib would
        take its READ-ONLY answer for a dropped connection). Returns its UIDVALIDITY."""
        try:
            answer = client.select_folder(self.folder)
            self._readonly = False
        except imaplib.IMAP4.readonly:
            answer = client.select_folder(self.folder, readonly=True)
            self._readonly = True
            self._once("read-only", f"{self.server.where}: mailbox {self.folder} is read-only: mail is read but "
                       "cannot be marked done; pbem's journal keeps it from being handled twice")
        validity = answer.get(b"UIDVALIDITY") if isinstance(answer, dict) else None
        if not isinstance(validity, int) or validity <= 0:
            raise Malformed(f"opening {self.folder} gave no valid UIDVALIDITY ({validity!r:.60}), "
                             "so its messages cannot be told apart safely")
        self._check_keywords(answer.get(b"PERMANENTFLAGS"))
        return validity

    def _check_keywords(self, permanent: Any) -> None:
        """A writable mailbox may still refuse to keep keywords (PERMANENTFLAGS without \\* or
        $PbemDone, e.g. an ACL without the write right): say so once; marks are still sent,
        since a MOVE to the processed folder may work where the keyword does not."""
        if self._readonly or not isinstance(permanent, tuple) or {b"\\*", DONE} & set(permanent):
            return
        shown = " ".join(flag.decode("ascii", "replace") for flag in permanent if isinstance(flag, bytes))
        self._once("keywords", f"{self.server.where}: mailbox {self.folder} does not keep the $PbemDone keyword "
                   f"(PERMANENTFLAGS ({shown})): done mail is recognised by pbem's journal instead")

    def _prepare(self, client: IMAPClient) -> None:
        if self.processed and client.has_capability("MOVE") and not client.folder_exists(self.processed):
            with contextlib.suppress(IMAPClientError):   # created meanwhile by another client
                client.create_folder(self.processed)

    def _shut(self, client: IMAPClient) -> None:
        self._watchdog.forget()
        with contextlib.suppress(*DISCONNECTED, IMAPClientError):
            client.shutdown()

    def _drop(self, logout: bool = False) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        if logout:
            with contextlib.suppress(*DISCONNECTED, IMAPClientError), self._watchdog.running():
                client.logout()
        self._shut(client)

    # -- UIDVALIDITY -------------------------------------------------------------------
    def _note_validity(self, validity: int) -> None:
        previous = self._validity or stored_validity(self.state, self._key())
        self._validity = validity
        if previous == validity:
            return
        if previous:
            self.log(f"{self.server.where}: {self.folder} has a new UIDVALIDITY ({previous} -> {validity}); "
                     "every message in it is checked against the journal again")
        store_validity(self.state, self._key(), validity)

    def _key(self) -> str:
        return f"{self.server.user}@{self.server.host}:{self.server.port}/{self.folder}"


def open_imap(spec: Mapping[str, Any], base: Path, *, state_dir: Path | None = None,
              log: Callable[[str], None] | None = None) -> ImapInbox:
    """The `imap` entry point of `pbem.inboxes` (pbem/mail/inbox.py)."""
    return ImapInbox.from_spec(spec, base, state_dir=state_dir, log=log)
