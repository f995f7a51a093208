"""An IMAP folder as an inbox.

    [transport.inbox]
    type = "imap"
    host = "imap.example.org"        # + tls, port, user, password_env/password_file, ... (see connection.py)
    folder = "INBOX"                 # where orders arrive
    processed = "Processed"          # where done mail goes; "" keeps it in place, flagged
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
"""

from __future__ import annotations

import contextlib
import functools
import imaplib
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from imapclient import IMAPClient  # type: ignore[import-untyped]
from imapclient.exceptions import IMAPClientError  # type: ignore[import-untyped]

from pbem.mail.connection import MailUnavailable, ServerSpec, describe
from pbem.mail.inbox import InboxItem
from pbem.store import StoreError, read_toml, write_toml

DONE = b"$PbemDone"
SEEN = b"\\Seen"
PORTS = {"implicit": 993, "starttls": 143, "none": 143}
# What a dropped connection raises: imaplib's abort when the BYE/EOF is read, or a plain
# OSError (reset, refused, timeout) when the socket fails first.
DISCONNECTED = (imaplib.IMAP4.abort, OSError)


def _fetch(client: IMAPClient, uids: list[int]) -> dict[int, dict[bytes, Any]]:
    return client.fetch(uids, [b"BODY.PEEK[]"])  # type: ignore[no-any-return]


class _ValidityChanged(Exception):
    """The mailbox was replaced while we were connected: the UIDs in hand are void."""


class ImapInbox:
    def __init__(self, server: ServerSpec, folder: str = "INBOX", processed: str = "Processed",
                 batch: int = 50, state: Path | None = None, log: Callable[[str], None] | None = None) -> None:
        self.server = server
        self.folder = folder
        self.processed = processed
        self.batch = max(1, batch)
        self.state = state
        self.log = log or (lambda text: None)
        self._client: IMAPClient | None = None
        self._validity = 0
        self._done: list[int] = []

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], base: Path, state_dir: Path | None = None,
                  log: Callable[[str], None] | None = None) -> ImapInbox:
        server = ServerSpec.read(spec, base, "imap", PORTS)
        folder = str(spec.get("folder", "INBOX"))
        processed = str(spec.get("processed", "Processed"))
        if processed == folder:
            raise ValueError(f"processed: must differ from folder ({folder!r}), or be \"\" to keep done mail in place")
        try:
            batch = int(spec.get("batch", 50))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"batch: expected a number, not {spec.get('batch')!r}") from exc
        state = (state_dir or Path(base)) / "imap-state.toml"
        return cls(server, folder, processed, batch, state, log)

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
        validity, _, uid = key.partition(":")
        if validity == str(self._validity) and uid.isdigit():
            self._done.append(int(uid))

    def close(self) -> None:
        self._finish()

    def check(self) -> str:
        """Log in and look, changing nothing: what `pbem check-mail` reports."""
        try:
            new = len(self._call(lambda client: client.search([b"UNKEYWORD", DONE, b"NOT", b"DELETED"])))
            can_move = self._call(lambda client: client.has_capability("MOVE"))
        finally:
            self._drop(logout=True)
        done = (f"done mail moves to {self.processed!r}" if self.processed and can_move
                else "done mail stays, flagged $PbemDone")
        return f"{self.server.where} ({self.server.tls} TLS): {new} new in {self.folder!r}, " \
               f"UIDVALIDITY {self._validity}; {done}"

    # -- reading -----------------------------------------------------------------------
    def _one_pass(self, handed_out: set[str]) -> Iterator[InboxItem]:
        self._call(lambda client: None)   # connect and select
        validity = self._validity
        uids = sorted(self._call(lambda client: client.search([b"UNKEYWORD", DONE, b"NOT", b"DELETED"])))
        for start in range(0, len(uids), self.batch):
            chunk = [uid for uid in uids[start:start + self.batch] if f"{validity}:{uid}" not in handed_out]
            if not chunk:
                continue
            self._flush()
            data = self._call(functools.partial(_fetch, uids=chunk))
            if self._validity != validity:
                raise _ValidityChanged
            for uid in chunk:
                raw = data.get(uid, {}).get(b"BODY[]")
                if raw is None:          # expunged by someone else meanwhile
                    continue
                key = f"{validity}:{uid}"
                handed_out.add(key)
                yield InboxItem(key, bytes(raw))

    # -- marking done ------------------------------------------------------------------
    def _flush(self) -> None:
        if not self._done:
            return
        uids, validity = sorted(set(self._done)), self._validity
        self._done.clear()

        def mark(client: IMAPClient) -> None:
            if self._validity != validity:
                raise _ValidityChanged
            client.add_flags(uids, [DONE, SEEN], silent=True)
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
        """operation(client) on a live, selected connection; reconnects after a drop."""

        def attempt() -> Any:
            try:
                return operation(self._connected())
            except DISCONNECTED:
                self._drop()
                raise
            except IMAPClientError as exc:       # a NO or BAD answer: the mail stays for later
                raise MailUnavailable(f"{self.server.where}: {self.folder}: {describe(exc)}") from exc

        return self.server.patiently(attempt, DISCONNECTED)

    def _connected(self) -> IMAPClient:
        if self._client is not None:
            return self._client
        server = self.server
        implicit = server.tls == "implicit"
        client = IMAPClient(server.host, port=server.port, ssl=implicit,
                            ssl_context=server.ssl_context() if implicit else None, timeout=server.timeout)
        try:
            if server.tls == "starttls":
                client.starttls(server.ssl_context())
            client.login(server.user, server.password())
            self._prepare(client)
            validity = int(client.select_folder(self.folder)[b"UIDVALIDITY"])
        except IMAPClientError as exc:
            with contextlib.suppress(*DISCONNECTED, IMAPClientError):
                client.shutdown()
            if isinstance(exc, imaplib.IMAP4.abort):
                raise
            raise MailUnavailable(f"{server.where}: {describe(exc)}") from exc
        except BaseException:
            with contextlib.suppress(*DISCONNECTED, IMAPClientError):
                client.shutdown()
            raise
        self._client = client
        self._note_validity(validity)
        return client

    def _prepare(self, client: IMAPClient) -> None:
        if self.processed and client.has_capability("MOVE") and not client.folder_exists(self.processed):
            with contextlib.suppress(IMAPClientError):   # created meanwhile by another client
                client.create_folder(self.processed)

    def _drop(self, logout: bool = False) -> None:
        client, self._client = self._client, None
        if client is None:
            return
        with contextlib.suppress(*DISCONNECTED, IMAPClientError):
            if logout:
                client.logout()
            else:
                client.shutdown()

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
