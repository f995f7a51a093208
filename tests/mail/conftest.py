"""Real mail servers for the mail tests: a private Dovecot (IMAP + LMTP) and an aiosmtpd relay
into it, both on 127.0.0.1, fresh for every test (startup is ~30 ms), plus a Daemon Rift
campaign that reads and sends through them.

Without Dovecot these fixtures fail with a message that says how to install it: the tests
never pass silently. Leave them out on purpose with `-m "not mailserver"`.
"""

from __future__ import annotations

import email
import itertools
import signal
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from imapclient import IMAPClient

from pbem.gm.creation import NewPlayer, create
from pbem.mail.connection import forget_unreachable
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.state.campaign import Campaign
from tests.mail.mailservers import Dovecot, make_smtp_relay

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SECRETS = {"red": "RRRR-TEST-0000-0000-0001", "blue": "BBBB-TEST-0000-0000-0002", "gm": "GMGM-TEST-0000-0000-0000"}
ORDERS_BOX = "orders@pbem.test"
USERS = {ORDERS_BOX: "orders-pw", "gm@pbem.test": "gm-pw", "alice@pbem.test": "alice-pw",
         "bob@pbem.test": "bob-pw", "eve@pbem.test": "eve-pw"}
IMAP_ENV, SMTP_ENV = "PBEM_TEST_IMAP_PASSWORD", "PBEM_TEST_SMTP_PASSWORD"
_serial = itertools.count(1)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "dovecot" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.mailserver)


class Relay:
    """The aiosmtpd relay, stoppable and restartable on the same port (a server that is down for a while)."""

    def __init__(self, dovecot: Dovecot, **options: Any) -> None:
        self.dovecot, self.options = dovecot, options
        self.controller = make_smtp_relay(dovecot, **options)
        self.port = self.controller.port

    @property
    def handler(self) -> Any:
        return self.controller.handler

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()
            self.controller = None

    def start(self) -> None:
        self.controller = make_smtp_relay(self.dovecot, port=self.port, **self.options)


@pytest.fixture(autouse=True)
def new_run() -> None:
    """Each test is a new run: no server is remembered as unreachable from an earlier one."""
    forget_unreachable()


@pytest.fixture
def dovecot() -> Iterator[Dovecot]:
    server = Dovecot(users=USERS)
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


@pytest.fixture
def relay(dovecot: Dovecot) -> Iterator[Relay]:
    server = Relay(dovecot, tls=True, auth_users={ORDERS_BOX: USERS[ORDERS_BOX]})
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(IMAP_ENV, USERS[ORDERS_BOX])
    monkeypatch.setenv(SMTP_ENV, USERS[ORDERS_BOX])


def imap_spec(server: Dovecot, **extra: Any) -> dict[str, Any]:
    return {"type": "imap", "host": "127.0.0.1", "port": server.imaps_port, "tls": "implicit",
            "cafile": str(server.cert), "user": ORDERS_BOX, "password_env": IMAP_ENV,
            "batch": 3, "retries": 2, "backoff": 0.05, "timeout": 5} | extra


def smtp_spec(server: Dovecot, relay: Relay, **extra: Any) -> dict[str, Any]:
    return {"type": "smtp", "host": "127.0.0.1", "port": relay.port, "tls": "starttls",
            "cafile": str(server.cert), "user": ORDERS_BOX, "password_env": SMTP_ENV,
            "retries": 1, "backoff": 0.05, "timeout": 5} | extra


def make_campaign(root: Path, name: str = "rift", transport: dict[str, Any] | None = None) -> Campaign:
    """A Daemon Rift campaign in its orders window: red (alice) and blue (bob), GM gm@pbem.test."""
    players = [NewPlayer("red", "Alice", "alice@pbem.test", "Red", "R", {"home": "1"}),
               NewPlayer("blue", "Bob", "bob@pbem.test", "Blue", "B", {"home": "5"})]
    camp, _ = create(root, name, "daemon_rift", "rift_valley", players, "gm@pbem.test", T0,
                     transport=transport, fixed_secrets=SECRETS)
    state = camp.state["game"]["dr"]
    for key in ("R-1", "B-1"):
        state["lists"][key].update(approved=True, name=f"List {key}")
    state["phase"] = "orders"
    turns.open_stage(camp, registry.get("daemon_rift"), T0)
    camp.save()
    return camp


@pytest.fixture
def campaign(tmp_path: Path, dovecot: Dovecot, relay: Relay, passwords: None) -> Campaign:
    return make_campaign(tmp_path / "campaigns", transport={"inbox": imap_spec(dovecot),
                                                           "outbox": smtp_spec(dovecot, relay)})


# -- mail in and out -------------------------------------------------------------


def order_mail(sender: str, body: str, subject: str = "[rift] orders", message_id: str = "",
               headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, ORDERS_BOX, subject
    msg["Message-ID"] = message_id or f"<order-{next(_serial)}@players.pbem.test>"
    msg["Date"] = "Mon, 23 Nov 2026 10:00:00 +0000"
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return msg.as_bytes(policy=policy.SMTP)


def red(body: str, **kw: Any) -> bytes:
    return order_mail("Alice <alice@pbem.test>", f"PLAYER red {SECRETS['red']}\n{body}", **kw)


def blue(body: str, **kw: Any) -> bytes:
    return order_mail("Bob <bob@pbem.test>", f"PLAYER blue {SECRETS['blue']}\n{body}", **kw)


def login(server: Dovecot, user: str) -> IMAPClient:
    client = IMAPClient("127.0.0.1", port=server.imap_port, ssl=False, timeout=5)
    client.login(user, USERS[user])
    return client


def append(server: Dovecot, *raws: bytes, user: str = ORDERS_BOX, folder: str = "INBOX") -> None:
    client = login(server, user)
    try:
        for raw in raws:
            client.append(folder, raw)
    finally:
        client.logout()


def mailbox(server: Dovecot, user: str, folder: str = "INBOX") -> list[EmailMessage]:
    """Every message in a folder, read without changing its flags."""
    client = login(server, user)
    try:
        if not client.folder_exists(folder):
            return []
        client.select_folder(folder, readonly=True)
        uids = client.search("ALL")
        data = client.fetch(uids, [b"BODY.PEEK[]"]) if uids else {}
        return [email.message_from_bytes(data[uid][b"BODY[]"], policy=policy.default)  # type: ignore[misc]
                for uid in sorted(data)]
    finally:
        client.logout()


def flags(server: Dovecot, user: str = ORDERS_BOX, folder: str = "INBOX") -> list[tuple[bytes, ...]]:
    client = login(server, user)
    try:
        client.select_folder(folder, readonly=True)
        uids = client.search("ALL")
        return [tuple(v) for _, v in sorted(client.get_flags(uids).items())] if uids else []
    finally:
        client.logout()


def text_of(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return str(part.get_content())


def message_ids(messages: list[EmailMessage]) -> list[str]:
    return [str(m["Message-ID"]) for m in messages]


@dataclass
class Killer:
    """A Faults hook that stops Dovecot (the whole process group, SIGKILL) at the n-th call of a point."""

    server: Dovecot
    point: str
    at: int
    restart: bool = False
    calls: int = 0

    def __call__(self, point: str) -> None:
        if point != self.point:
            return
        self.calls += 1
        if self.calls == self.at:
            self.server.stop(signal.SIGKILL)
            self.server.kill_leftovers()
            if self.restart:
                self.server.start()


def later(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)
