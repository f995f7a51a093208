"""The hostile corpus through `pbem tick` from Dovecot over IMAP, beside two healthy campaigns:
once in each campaign's own mailbox (conq's opened READ-ONLY, and first in line, so a campaign
that cannot mark its mail must not stop the others on the same server), once in one mailbox
shared by all campaigns (pbem.toml). Replies go to a loopback SMTP server that keeps them."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.mail.connection import forget_unreachable
from tests.hostile.harness import (
    Mail,
    Outgoing,
    Run,
    check_on_file,
    check_resolved,
    check_ticks,
    delivery,
    fate_problems,
    local_outgoing,
    make_site,
    outgoing_problems,
    play,
    report,
)
from tests.hostile.servers import PASSWORD, AclDovecot, Sink

ENV = "PBEM_HOSTILE_PASSWORD"
OWN = ("conq@pbem.test", "rift@pbem.test", "vale@pbem.test")
SHARED = "orders@pbem.test"
READ_ONLY = "conq@pbem.test"

pytestmark = pytest.mark.mailserver


@dataclass
class Played:
    run: Run
    on_file: list[str]
    mails: list[Mail]
    outgoing: list[Outgoing]
    quarantine: list[bytes]
    refused: list[str]


@pytest.fixture(scope="module")
def dovecot() -> Iterator[AclDovecot]:
    server = AclDovecot([*OWN, SHARED])
    try:
        server.start()
        yield server
    finally:
        server.cleanup()


def imap(server: AclDovecot, user: str) -> dict[str, Any]:
    return {"type": "imap", "host": "127.0.0.1", "port": server.imap_port, "tls": "none", "user": user,
            "password_env": ENV, "folder": "INBOX", "processed": "Processed", "batch": 20, "retries": 1,
            "backoff": 0.05, "timeout": 5}


def smtp(sink: Sink) -> dict[str, Any]:
    return {"type": "smtp", "host": "127.0.0.1", "port": sink.port, "tls": "none", "retries": 1, "backoff": 0.05,
            "timeout": 5}


def deliver(server: AclDovecot, mails: list[Mail], mailbox_of: dict[str, str]) -> tuple[list[Mail], list[str]]:
    """Append each mail to its mailbox, in order; returns the mails the server took and the
    names of those it refused (they never reach pbem)."""
    taken, refused = [], []
    for user in dict.fromkeys(mailbox_of.values()):
        mine = [m for m in mails if mailbox_of[m.campaign] == user]
        bad, stored = server.append(user, [m.raw for m in mine])
        taken += [replace(m, raw=stored.get(i, m.raw)) for i, m in enumerate(mine) if i not in bad]
        refused += [m.name for i, m in enumerate(mine) if i in bad]
    return taken, refused


def play_site(root: Path, server: AclDovecot, layout: str) -> Played:
    sink = Sink()
    try:
        if layout == "own":
            make_site(root, lambda name: {"inbox": imap(server, f"{name}@pbem.test"), "outbox": smtp(sink)})
            mailbox_of = {name: f"{name}@pbem.test" for name in ("conq", "rift", "vale")}
        else:
            settings = {"address": SHARED, "transport": {"inbox": imap(server, SHARED), "outbox": smtp(sink)}}
            (root / "pbem.toml").write_text(tomli_w.dumps(settings))
            make_site(root, lambda name: None)
            mailbox_of = dict.fromkeys(("conq", "rift", "vale"), SHARED)
        mails, refused = deliver(server, delivery(), mailbox_of)
        if layout == "own":
            server.read_only(READ_ONLY)
        run, on_file = Run(root), []
        play(run, on_file=lambda r: on_file.extend(check_on_file(r)))
        quarantine = [raw for user in dict.fromkeys(mailbox_of.values()) for raw in server.quarantine_folders(user)]
        outgoing = [Outgoing(raw) for raw in sink.received] + local_outgoing(root)
        return Played(run, on_file, mails, outgoing, quarantine, refused)
    finally:
        sink.stop()


@pytest.fixture(scope="module", params=["own", "shared"])
def played(request: pytest.FixtureRequest, dovecot: AclDovecot, tmp_path_factory: pytest.TempPathFactory) -> Played:
    monkeypatch = pytest.MonkeyPatch()
    monkeypatch.setenv(ENV, PASSWORD)
    forget_unreachable()
    try:
        root = tmp_path_factory.mktemp(f"hostile-{request.param}") / "campaigns"
        root.mkdir()
        return play_site(root, dovecot, request.param)
    finally:
        monkeypatch.undo()


def test_the_server_took_every_mail_but_the_empty_one(played: Played) -> None:
    assert set(played.refused) <= {"broken-mime-empty.eml"}


def test_no_tick_raises_or_logs_a_traceback_or_stalls(played: Played) -> None:
    assert not check_ticks(played.run), report(check_ticks(played.run))


def test_the_healthy_orders_are_on_file_then_resolved_at_the_deadline(played: Played) -> None:
    problems = played.on_file + check_resolved(played.run)
    assert not problems, report(problems)


def test_every_hostile_mail_is_answered_journalled_or_quarantined_once(played: Played) -> None:
    problems = fate_problems(played.mails, played.outgoing, played.run.root, played.quarantine)
    assert not problems, report(problems)


def test_nothing_pbem_sends_has_an_injected_header_an_encoded_id_or_a_secret(played: Played) -> None:
    assert played.outgoing, "pbem sent nothing at all"
    problems = outgoing_problems(played.outgoing)
    assert not problems, report(problems)
