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
import socket
import ssl
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from imapclient import IMAPClient  # type: ignore[import-untyped]  # imapclient ships no type hints
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]  # imapclient ships no type hints

from pbem.mail.connection import MailboxDropped, MailUnavailable, ServerSpec, Watchdog, describe
from pbem.mail.inbox import InboxItem
from pbem.state.store import StoreError, read_toml, write_toml

DONE = b"$PbemDone"
QUARANTINED = b"$PbemQuarantined"
SEEN = b"\\Seen"
DELETED = b"\\Deleted"
PORTS = {"implicit": 993, "starttls": 143, "none": 143}
# What a dropped connection raises: imaplib's abort when the BYE/EOF is read, or a plain
# OSError (reset, refused, timeout) when the socket fails first.
DISCONNECTED = (imaplib.IMAP4.abort, OSError)

# What imapclient raises when it cannot parse an answer (ProtocolError is an IMAPClientError).
UNREADABLE = (ValueError, TypeError, IndexError, KeyError)


def _fetch(client: IMAPClient, uids: list[int]) -> Any:
    return client.fetch(uids, [b"BODY.PEEK[]"])


def _search(client: IMAPClient) -> list[int]:
    """The UIDs of the messages not yet done; an answer that is not a list of UIDs is refused."""
    found = client.search([b"UNKEYWORD", DONE, b"NOT", b"DELETED"])
    if not isinstance(found, list) or not all(isinstance(uid, int) and uid > 0 for uid in found):
        raise _Malformed(f"its SEARCH answer is not a list of message numbers: {found!r:.200}")
    return sorted(found)


def _body(answer: Any, uid: int) -> bytes | str | None:
    """The message from a FETCH answer; None when the server no longer has it (expunged
    meanwhile), or a sentence saying what is wrong with the answer."""
    if not isinstance(answer, dict):
        return f"the FETCH answer is not a list of messages ({type(answer).__name__})"
    if uid not in answer:
        return None
    entry = answer[uid]
    raw = entry.get(b"BODY[]") if isinstance(entry, dict) else None
    if not isinstance(raw, (bytes, bytearray)):
        return f"the FETCH answer for UID {uid} holds no message body ({raw!r:.60})"
    return bytes(raw)


class _ValidityChanged(Exception):
    """The mailbox was replaced while we were connected: the UIDs in hand are void."""


class _Malformed(Exception):
    """The server answered something pbem cannot use."""


class _Deadline(Exception):
    """The watchdog cut an operation that outlived the timeout."""


class _WatchedIMAP4(imaplib.IMAP4):
    """imaplib's connection with its socket shown to a watchdog before the greeting is read,
    so even a trickled greeting or TLS handshake is bounded."""

    def __init__(self, host: str, port: int, context: ssl.SSLContext | None, timeout: float | None,
                 watchdog: Watchdog) -> None:
        self._context, self._watchdog = context, watchdog
        super().__init__(host, port, timeout)

    def _create_socket(self, timeout: float | None = None) -> socket.socket:
        sock = socket.create_connection((self.host, self.port), timeout)
        self._watchdog.watch(sock)
        if self._context is None:
            return sock
        return self._context.wrap_socket(sock, server_hostname=self.host)


class _Client(IMAPClient):  # type: ignore[misc]  # its base is untyped (above)
    """IMAPClient built on _WatchedIMAP4. Its _create_IMAP4 hook is the one place where the
    socket can be reached before the greeting is read (the constructor reads it)."""

    def __init__(self, server: ServerSpec, watchdog: Watchdog) -> None:
        self._watchdog = watchdog
        implicit = server.tls == "implicit"
        super().__init__(server.host, port=server.port, ssl=implicit,
                         ssl_context=server.ssl_context() if implicit else None, timeout=server.timeout)

    def _create_IMAP4(self) -> imaplib.IMAP4:
        context = self.ssl_context if self.ssl else None
        return _WatchedIMAP4(self.host, self.port, context, self._timeout.connect, self._watchdog)


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
        folder = str(spec.get("folder", "INBOX"))
        processed = str(spec.get("processed", "Processed"))
        quarantine = str(spec.get("quarantine", "Quarantine"))
        if processed == folder:
            raise ValueError(f"processed: must differ from folder ({folder!r}), or be \"\" to keep done mail in place")
        if quarantine == folder:
            raise ValueError(f"quarantine: must differ from folder ({folder!r}), or be \"\" to keep such mail "
                             "in place, flagged $PbemQuarantined")
        try:
            batch = int(spec.get("batch", 50))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"batch: expected a number, not {spec.get('batch')!r}") from exc
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
            except _ValidityChanged:
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
        except (MailUnavailable, _ValidityChanged) as exc:
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
            new = len(self._call(_search))
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
        uids = self._call(_search)
        validity = self._validity
        for start in range(0, len(uids), self.batch):
            chunk = [uid for uid in uids[start:start + self.batch] if f"{validity}:{uid}" not in handed_out]
            if not chunk:
                continue
            self._flush()
            bodies = self._call(functools.partial(self._fetch_chunk, uids=chunk))
            if self._validity != validity:
                raise _ValidityChanged
            for uid, raw in bodies:
                key = f"{validity}:{uid}"
                handed_out.add(key)
                yield InboxItem(key, raw)

    def _fetch_chunk(self, client: IMAPClient, uids: list[int]) -> list[tuple[int, bytes]]:
        """The messages of one batch that the server answered usably. An answer imapclient
        cannot parse is fetched again one message at a time, so one bad message costs
        only itself."""
        try:
            answers = [(uids, _fetch(client, uids))]
        except (*UNREADABLE, IMAPClientError) as exc:
            if isinstance(exc, imaplib.IMAP4.abort):
                raise
            answers = [([uid], self._fetch_alone(client, uid)) for uid in uids]
        bodies = []
        for asked, answer in answers:
            for uid in asked:
                raw = _body(answer, uid) if answer is not None else None
                if isinstance(raw, str):
                    self.log(f"{self.server.where}: {self.folder}: {raw}; that message is skipped "
                             "and stays on the server")
                elif raw is not None:
                    bodies.append((uid, raw))
        return bodies

    def _fetch_alone(self, client: IMAPClient, uid: int) -> Any:
        try:
            return _fetch(client, [uid])
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
                raise _ValidityChanged
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
        except (MailUnavailable, _ValidityChanged, IMAPClientError) as exc:
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
                    raise _Deadline(self.folder if after_login else "") from exc
                if after_login:
                    raise MailboxDropped(describe(exc)) from exc
                raise
            except IMAPClientError as exc:       # a NO or BAD answer: the mail stays for later
                raise MailUnavailable(f"{where}: {describe(exc)}") from exc
            except (_Malformed, *UNREADABLE) as exc:
                self._drop()                     # whatever else it sent is not to be read either
                raise MailUnavailable(f"{where}: the server's answer cannot be used: {exc}") from exc

        try:
            return self.server.patiently(attempt, DISCONNECTED, mailbox=self.folder)
        except _Deadline as exc:
            raise self.server.give_up(f"no complete answer within {self.server.timeout:g} s (timeout); "
                                      "the server is too slow or stalled", exc.args[0]) from exc

    def _connected(self) -> IMAPClient:
        if self._client is not None:
            return self._client
        self._logged_in = False
        try:
            client = _Client(self.server, self._watchdog)
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
            raise _Malformed(f"opening {self.folder} gave no valid UIDVALIDITY ({validity!r:.60}), "
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
        previous = self._validity or self._stored_validity()
        self._validity = validity
        if previous == validity:
            return
        if previous:
            self.log(f"{self.server.where}: {self.folder} has a new UIDVALIDITY ({previous} -> {validity}); "
                     "every message in it is checked against the journal again")
        self._store_validity(validity)

    def _key(self) -> str:
        return f"{self.server.user}@{self.server.host}:{self.server.port}/{self.folder}"

    def _stored_validity(self) -> int:
        if self.state is None or not self.state.exists():
            return 0
        try:
            return int(read_toml(self.state).get(self._key(), {}).get("uidvalidity", 0))
        except (StoreError, TypeError, ValueError):
            return 0

    def _store_validity(self, validity: int) -> None:
        if self.state is None:
            return
        try:
            data = read_toml(self.state) if self.state.exists() else {}
        except StoreError:
            data = {}
        data[self._key()] = {"uidvalidity": validity, "since": datetime.now(UTC).replace(microsecond=0)}
        write_toml(self.state, data, header="# Written by pbem: the UIDVALIDITY of each IMAP folder it reads.")


def open_imap(spec: Mapping[str, Any], base: Path, *, state_dir: Path | None = None,
              log: Callable[[str], None] | None = None) -> ImapInbox:
    """The `imap` entry point of `pbem.inboxes` (pbem/mail/inbox.py)."""
    return ImapInbox.from_spec(spec, base, state_dir=state_dir, log=log)
