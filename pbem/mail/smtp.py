"""Delivering by SMTP, each Message-ID once as far as pbem can know.

    [transport.outbox]
    type = "smtp"
    host = "smtp.example.org"        # + tls ("starttls" by default), port, user, password_env/_file, ...
    envelope_from = "bounces@example.org"     # optional MAIL FROM; default: the From address

Every accepted message is written to a send journal (`outbox/smtp-journal.txt` in the
campaign folder, append-only) before anything else happens; a message whose Message-ID is in
the journal is never handed to the server again, so a crash between the server's "250 OK" and
the outbox bookkeeping cannot send it twice. The journal is fsync'd once per batch (at `close`,
before the batch leaves the outgoing queue; at once for a mail given to `send` alone): a killed
process loses none of its lines, and only a power cut in the middle of a batch could have that
batch's mail sent again. (A crash inside the
server's reply itself cannot be known by anyone; the journal then has no line and the mail
goes again.) The connection is opened on the first mail and kept for the whole batch; within
`shared_sessions` (a tick) it is kept past the batch for the next transport of the same server
and account (see there).

What the server says decides what happens next: a refused connection, a dropped session or
a 421 means the server is unavailable (MailUnavailable: the delivery loop stops and everything
waits for the next tick); a 4xx is retried a few times with backoff, and if it persists the
server counts as unavailable too; a 5xx refusal is reported for that message alone, which
stays queued (the next tick tries it again) while the rest go out. Nothing leaves the outbox queue unless the
server accepted it.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import smtplib
import time
from collections.abc import Callable, Iterator, Mapping
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import getaddresses, parseaddr
from pathlib import Path
from typing import Any

from pbem.mail.connection import MailUnavailable, ServerSpec, describe
from pbem.mail.outbox import Queued

PORTS = {"implicit": 465, "starttls": 587, "none": 25}
UNREACHABLE = (smtplib.SMTPServerDisconnected, smtplib.SMTPConnectError, OSError)


class MailRefused(RuntimeError):
    """The server would not take this one message; it stays queued."""


_idle: contextvars.ContextVar[dict[ServerSpec, smtplib.SMTP] | None] = contextvars.ContextVar("smtp_idle",
                                                                                               default=None)
"""Within `shared_sessions`: the open sessions no transport is using, by server and account."""


@contextlib.contextmanager
def shared_sessions() -> Iterator[None]:
    """Within it (a tick), transports with the same settings (server, port, TLS, account) share
    one SMTP session: opened with the first mail, handed on when a transport closes its batch,
    quit at the end. Fifty campaigns under one pbem.toml then cost one TLS handshake and login,
    not fifty. A session taken up again must answer a NOOP first; one the server dropped
    meanwhile is closed and a new one opened, so no mail is ever sent into a dead session
    (whether a mail got through a session that broke under it cannot be known: it waits for
    the next tick, as without sharing). Each transport keeps its own journal and batch."""
    if _idle.get() is not None:
        yield
        return
    token = _idle.set({})
    try:
        yield
    finally:
        sessions = _idle.get() or {}
        _idle.reset(token)
        for connection in sessions.values():
            _quit(connection)


def _quit(connection: smtplib.SMTP) -> None:
    with contextlib.suppress(*UNREACHABLE, smtplib.SMTPException):
        connection.quit()


class SmtpTransport:
    def __init__(self, server: ServerSpec, journal: Path, envelope_from: str = "",
                 log: Callable[[str], None] | None = None) -> None:
        self.server = server
        self.journal = journal
        self.envelope_from = envelope_from
        self.log = log or (lambda text: None)
        self._connection: smtplib.SMTP | None = None
        self._sent: set[str] | None = None
        self._unsynced = False

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any], base: Path, journal_dir: Path,
                  log: Callable[[str], None] | None = None) -> SmtpTransport:
        server = ServerSpec.read(spec, base, "smtp", PORTS, login_required=False)
        journal = Path(journal_dir) / "outbox" / "smtp-journal.txt"
        return cls(server, journal, str(spec.get("envelope_from", "")), log)

    # -- the Transport protocol ----------------------------------------------------------
    def send(self, msg: EmailMessage) -> None:
        message_id = str(msg.get("Message-ID", "")).strip()
        recipients = [address for _, address in getaddresses(msg.get_all("To", []) + msg.get_all("Cc", [])
                                                             + msg.get_all("Bcc", [])) if address]
        self._send(msg, message_id, parseaddr(str(msg.get("From", "")))[1], recipients)
        self._sync_journal()

    def send_raw(self, mail: Queued) -> None:
        """A queued mail's bytes, sent as they are (no Bcc: `Queued.of` leaves those to `send`).
        Its journal line is written at once and fsync'd with the batch's others at `close`."""
        self._send(mail.data, mail.message_id, mail.sender, list(mail.recipients))

    def _send(self, payload: EmailMessage | bytes, message_id: str, sender: str, recipients: list[str]) -> None:
        if not message_id:
            raise ValueError("outgoing mail needs a Message-ID (compose sets one)")
        if message_id in self._journal():
            return
        if not recipients:
            raise MailRefused(f"{message_id}: no recipients")
        refused = self._hand_over(payload, message_id, self.envelope_from or sender, recipients)
        self._record(message_id, [r for r in recipients if r not in refused])
        if refused:
            self.log(f"{self.server.where}: {message_id} refused for " +
                     ", ".join(f"{r} ({code} {text.decode(errors='replace')})" for r, (code, text) in refused.items()))

    def check(self) -> str:
        """Connect, log in and say NOOP, sending nothing: what `pbem check-mail` reports."""
        try:
            code, _ = self._connected().noop()
        finally:
            self.close()
        login = f"logged in as {self.server.user}" if self.server.user else "no login"
        return f"{self.server.where} ({self.server.tls} TLS): {login}, NOOP answered {code}"

    def close(self) -> None:
        """End the batch: the journal made durable, the session quit (or, within
        `shared_sessions`, left open for the next transport of the same server and account)."""
        self._sync_journal()
        connection, self._connection = self._connection, None
        if connection is None:
            return
        idle = _idle.get()
        if idle is not None and self.server not in idle:
            idle[self.server] = connection
        else:
            _quit(connection)

    # -- talking to the server ----------------------------------------------------------
    def _hand_over(self, payload: EmailMessage | bytes, message_id: str, sender: str,
                   recipients: list[str]) -> dict[str, tuple[int, bytes]]:
        for attempt in range(self.server.retries + 1):
            connection = self._connected()
            try:
                if isinstance(payload, bytes):
                    return connection.sendmail(sender, recipients, payload)
                return connection.send_message(payload, from_addr=sender, to_addrs=recipients)
            except smtplib.SMTPRecipientsRefused as exc:
                codes = [code for code, _ in exc.recipients.values()]
                if not all(400 <= code < 500 for code in codes):
                    raise MailRefused(f"{message_id}: every recipient refused: {exc.recipients}") from exc
                if attempt == self.server.retries:
                    raise self._deferring(exc.recipients) from exc
            except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
                reply = f"{exc.smtp_code} {_text(exc.smtp_error)}"
                if exc.smtp_code == 421:
                    self._drop()
                    raise MailUnavailable(f"{self.server.where}: {reply}") from exc
                if not 400 <= exc.smtp_code < 500:
                    raise MailRefused(f"{message_id}: {reply}") from exc
                if attempt == self.server.retries:
                    raise self._deferring(reply) from exc
            except UNREACHABLE as exc:
                # The server may or may not have taken the message before the session broke;
                # sending again now could double it, so it waits for the next tick.
                self._drop()
                raise MailUnavailable(f"{self.server.where}: {describe(exc)}") from exc
            except BaseException:
                self._drop()        # broken off in mid-transaction: the session is never handed on
                raise
            with contextlib.suppress(*UNREACHABLE, smtplib.SMTPException):
                connection.rset()
            time.sleep(self.server.backoff * 2**attempt)
        raise AssertionError("unreachable")

    def _deferring(self, reply: object) -> MailUnavailable:
        """A temporary refusal that outlasted the retries: the server is not taking mail now,
        and trying the rest of the batch would only wait through the same retries again."""
        self._drop()
        return self.server.give_up(f"still deferring after {self.server.retries + 1} tries: {reply}")

    def _connected(self) -> smtplib.SMTP:
        if self._connection is None:
            # inside `patiently`: a server given up earlier in this run is not used, shared or not
            self._connection = self.server.patiently(lambda: self._taken_up() or self._open(), UNREACHABLE)
        return self._connection

    def _taken_up(self) -> smtplib.SMTP | None:
        """The idle session of this tick to the same server and account, if it answers a NOOP
        (one round trip, where a new session costs a TLS handshake and a login); a session that
        does not is closed, and the caller opens a new one."""
        idle = _idle.get()
        connection = idle.pop(self.server, None) if idle is not None else None
        if connection is None:
            return None
        try:
            if connection.noop()[0] == 250:
                return connection
        except (*UNREACHABLE, smtplib.SMTPException):
            pass
        with contextlib.suppress(*UNREACHABLE, smtplib.SMTPException):
            connection.close()
        return None

    def _open(self) -> smtplib.SMTP:
        server = self.server
        connection: smtplib.SMTP
        if server.tls == "implicit":
            connection = smtplib.SMTP_SSL(server.host, server.port, timeout=server.timeout,
                                          context=server.ssl_context())
        else:
            connection = smtplib.SMTP(server.host, server.port, timeout=server.timeout)
        try:
            connection.ehlo()
            if server.tls == "starttls":
                connection.starttls(context=server.ssl_context())
                connection.ehlo()
            if server.user:
                connection.login(server.user, server.password())
        except smtplib.SMTPResponseException as exc:
            with contextlib.suppress(*UNREACHABLE, smtplib.SMTPException):
                connection.close()
            raise MailUnavailable(f"{server.where}: {exc.smtp_code} {_text(exc.smtp_error)}") from exc
        except smtplib.SMTPNotSupportedError as exc:
            connection.close()
            raise MailUnavailable(f"{server.where}: {exc} (check tls and user)") from exc
        except BaseException:
            with contextlib.suppress(*UNREACHABLE, smtplib.SMTPException):
                connection.close()
            raise
        return connection

    def _drop(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(*UNREACHABLE, smtplib.SMTPException):
                connection.close()

    # -- the send journal ------------------------------------------------------------
    def _journal(self) -> set[str]:
        if self._sent is None:
            self._sent = set()
            with contextlib.suppress(FileNotFoundError):
                for line in self.journal.read_text(encoding="utf-8").splitlines():
                    parts = line.split()
                    if len(parts) >= 3 and parts[1] == "sent":
                        self._sent.add(parts[2])
        return self._sent

    def _record(self, message_id: str, recipients: list[str]) -> None:
        self.journal.parent.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        with open(self.journal, "a", encoding="utf-8") as file:
            file.write(f"{stamp} sent {message_id} {' '.join(recipients)}\n")
        self._journal().add(message_id)
        self._unsynced = True

    def _sync_journal(self) -> None:
        if self._unsynced:
            with open(self.journal, "rb") as file:
                os.fsync(file.fileno())
            self._unsynced = False


def _text(reply: bytes | str) -> str:
    return reply.decode(errors="replace") if isinstance(reply, bytes) else str(reply)


def open_smtp(spec: Mapping[str, Any], base: Path, *, journal_dir: Path,
              log: Callable[[str], None] | None = None) -> SmtpTransport:
    """The `smtp` entry point of `pbem.transports` (pbem/mail/outbox.py)."""
    return SmtpTransport.from_spec(spec, base, journal_dir=journal_dir, log=log)
