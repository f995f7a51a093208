"""How pbem reaches a mail server: host, TLS mode, login and patience, read from a
`[transport.inbox]` or `[transport.outbox]` table.

    host = "mail.example.org"
    tls = "implicit"                 # or "starttls"; "none" only for a server on loopback
    user = "orders@example.org"
    password_env = "PBEM_IMAP_PASSWORD"            # or: password_file = "/etc/pbem/imap.secret"
    cafile = "/etc/pbem/ca.pem"      # optional: trust this CA instead of the system's
    timeout = 30                     # seconds for each whole operation (connect and log in, one
                                     # FETCH, ...), however slowly the server trickles its answer
    retries = 3                      # reconnects before giving up until the next tick
    backoff = 1.0                    # seconds before the first retry, doubled each time

A password never lives in campaign.toml: it comes from an environment variable or from a
file of its own (first line; keep it `chmod 600`). Relative paths are taken from the folder
that holds the settings file.
"""

from __future__ import annotations

import contextlib
import ipaddress
import os
import re
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

TLS_MODES = ("implicit", "starttls", "none")


class MailUnavailable(RuntimeError):
    """The server cannot be reached or refuses the login; nothing was lost, try again later."""


class MailboxDropped(ConnectionError):
    """The server dropped a session after the login succeeded: trouble with one login or
    mailbox, which must not count against every other mailbox on the same server."""


_unreachable: dict[tuple[str | int, ...], str] = {}
"""What stayed unavailable through all retries in this run: every campaign using it gives up
at once instead of waiting through the same retries again. Keyed by (protocol, host, port)
when the server itself failed, by (protocol, host, port, user, mailbox) when it failed only
after a login, so one bad mailbox never blocks the others on its server."""


def forget_unreachable() -> None:
    """Start a new run (a tick): every server gets its retries again."""
    _unreachable.clear()


@dataclass(frozen=True)
class ServerSpec:
    protocol: str
    host: str
    port: int
    tls: str
    user: str
    password_env: str = ""
    password_file: Path | None = None
    cafile: Path | None = None
    timeout: float = 30.0
    retries: int = 3
    backoff: float = 1.0

    @classmethod
    def read(cls, spec: Mapping[str, Any], base: Path, protocol: str, ports: Mapping[str, int],
             login_required: bool = True) -> ServerSpec:
        """Check a settings table; every problem is reported at once (ValueError)."""
        problems: list[str] = []
        if "password" in spec:
            problems.append("password: do not put the password in the settings; use password_env "
                            "(an environment variable) or password_file (a file of its own)")
        host = str(spec.get("host", "")).strip()
        if not host:
            problems.append("host: required")
        tls = str(spec.get("tls", "implicit" if protocol == "imap" else "starttls")).lower()
        if tls not in TLS_MODES:
            problems.append(f"tls: {tls!r} is not one of {', '.join(TLS_MODES)}")
        elif tls == "none" and host and not is_loopback(host):
            problems.append(f"tls: 'none' sends the password in clear text; allowed only for a server on "
                            f"this machine (127.0.0.1, ::1, localhost), not {host!r}")
        user = str(spec.get("user", "")).strip()
        password_env = str(spec.get("password_env", "")).strip()
        password_file = _path(spec.get("password_file"), base)
        if login_required and not user:
            problems.append("user: required")
        if user and not (password_env or password_file):
            problems.append("password_env or password_file: required with user")
        numbers = {}
        for key, default, kind in (("port", ports.get(tls, 0), int), ("timeout", 30.0, float),
                                   ("retries", 3, int), ("backoff", 1.0, float)):
            try:
                numbers[key] = kind(spec.get(key, default))
                if numbers[key] < 0 or (key == "timeout" and numbers[key] == 0):
                    raise ValueError
            except (TypeError, ValueError):
                kind_of = "a positive number of seconds" if key == "timeout" else "a non-negative number"
                problems.append(f"{key}: expected {kind_of}, not {spec.get(key)!r}")
                numbers[key] = default
        if problems:
            raise ValueError("; ".join(problems))
        return cls(protocol, host, int(numbers["port"]), tls, user, password_env, password_file,
                   _path(spec.get("cafile"), base), float(numbers["timeout"]), int(numbers["retries"]),
                   float(numbers["backoff"]))

    def give_up(self, reason: str, mailbox: str = "") -> MailUnavailable:
        """Note the server (or, given a mailbox, only that login's mailbox) as unavailable for
        the rest of this run; the error to raise."""
        _unreachable[self._memo(mailbox)] = reason
        return MailUnavailable(f"{self.where}: {mailbox + ': ' if mailbox else ''}{reason}")

    def _memo(self, mailbox: str = "") -> tuple[str | int, ...]:
        server: tuple[str | int, ...] = (self.protocol, self.host, self.port)
        return server + (self.user, mailbox) if mailbox else server

    @property
    def where(self) -> str:
        return f"{self.protocol.upper()} {self.user + '@' if self.user else ''}{self.host}:{self.port}"

    def password(self) -> str:
        if self.password_env:
            value = os.environ.get(self.password_env)
            if value is None:
                raise MailUnavailable(f"{self.where}: the environment variable {self.password_env} is not set; "
                                      f"set {self.password_env} to the password of {self.user or 'the server'} "
                                      "where the tick runs (the crontab or cron/pbem-tick)")
            return value
        if self.password_file is None:
            return ""
        try:
            return self.password_file.read_text(encoding="utf-8").splitlines()[0].strip()
        except (OSError, IndexError, UnicodeDecodeError) as exc:
            raise MailUnavailable(f"{self.where}: cannot read the password from {self.password_file}: {exc}") from exc

    def ssl_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.cafile) if self.cafile else None)

    def patiently(self, attempt: Callable[[], Any], transient: tuple[type[BaseException], ...],
                  mailbox: str = "") -> Any:
        """Run attempt(); on a transient error wait backoff, 2*backoff, ... and try again,
        `retries` times, then raise MailUnavailable (at once for a server, or this login's
        mailbox, that already failed that way in this run). A MailboxDropped failure is
        remembered for the mailbox only."""
        for memo in (self._memo(), self._memo(mailbox)):
            if memo in _unreachable:
                raise MailUnavailable(f"{self.where}: {_unreachable[memo]} (earlier in this run)")
        for number in range(self.retries + 1):
            try:
                return attempt()
            except ssl.SSLCertVerificationError as exc:
                raise MailUnavailable(f"{self.where}: the server's certificate is not trusted: {exc}") from exc
            except transient as exc:
                if number == self.retries:
                    scope = mailbox if isinstance(exc, MailboxDropped) else ""
                    raise self.give_up(f"{describe(exc)} (after {number + 1} attempts)", scope) from exc
                time.sleep(self.backoff * 2**number)
        raise AssertionError("unreachable")


class Watchdog:
    """A deadline for whole operations. A socket timeout bounds one silent wait, not a server
    that trickles one byte at a time; when an operation outlives `seconds`, the watchdog
    shuts the watched connection down, so the blocked read ends at once (`fired` tells why).
    Sockets are watched by file descriptor: a TLS wrap (implicit or STARTTLS) keeps it."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.fired = False
        self._fds: set[int] = set()
        self._lock = threading.Lock()

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._fds.add(sock.fileno())

    def forget(self) -> None:
        """Call before closing the watched sockets, so a late cut never meets a reused descriptor."""
        with self._lock:
            self._fds.clear()

    @contextlib.contextmanager
    def running(self) -> Iterator[None]:
        self.fired = False
        timer = threading.Timer(self.seconds, self._cut)
        timer.daemon = True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()

    def _cut(self) -> None:
        with self._lock:
            self.fired = True
            for fd in self._fds:
                with contextlib.suppress(OSError):
                    borrowed = socket.socket(fileno=fd)
                    try:
                        borrowed.shutdown(socket.SHUT_RDWR)
                    finally:
                        borrowed.detach()     # the connection's owner closes it, not us


def is_loopback(host: str) -> bool:
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def describe(exc: BaseException) -> str:
    """The error's type and text; a server's answer that imaplib quotes as Python bytes
    (`[b'[AUTHENTICATIONFAILED] ...']`) is shown as the server said it."""
    text = _BYTES_REPR.sub(lambda found: found.group(2), str(exc))
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


_BYTES_REPR = re.compile(r"""\[?\bb(['"])(.*?)\1\]?(?=$|[\s,;:)])""")


def _path(value: Any, base: Path) -> Path | None:
    return Path(base) / str(value) if value else None
