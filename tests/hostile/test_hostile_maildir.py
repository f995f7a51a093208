"""The hostile corpus through `pbem tick` from Maildir inboxes, beside two healthy campaigns: no
tick raises, the healthy orders are applied, and every hostile mail ends answered, journalled or
quarantined, with nothing unsafe in what pbem sends."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.hostile.harness import (
    Mail,
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


def drop(root: Path, mails: list[Mail]) -> None:
    """Each mail into its campaign's Maildir new/, in order (mtime, as a delivery agent would)."""
    for number, mail in enumerate(mails):
        for sub in ("tmp", "new", "cur"):
            (root / mail.campaign / "inbox" / sub).mkdir(parents=True, exist_ok=True)
        folder = root / mail.campaign / "inbox" / "new"
        path = folder / f"{1_800_000_000 + number}.{number:04d}.{mail.name.removesuffix('.eml')}"
        path.write_bytes(mail.raw)
        os.utime(path, ns=(1_800_000_000_000_000_000 + number * 1000,) * 2)


def maildir(name: str) -> dict[str, Any]:
    return {"inbox": {"type": "maildir", "path": "inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Run, list[str]]:
    root = tmp_path_factory.mktemp("hostile") / "campaigns"
    root.mkdir()
    make_site(root, maildir)
    drop(root, delivery())
    run = Run(root)
    on_file: list[str] = []
    play(run, on_file=lambda r: on_file.extend(check_on_file(r)))
    return run, on_file


def test_no_tick_raises_or_logs_a_traceback_or_stalls(played: tuple[Run, list[str]]) -> None:
    run, _ = played
    assert not check_ticks(run), report(check_ticks(run))


def test_the_healthy_orders_are_on_file_then_resolved_at_the_deadline(played: tuple[Run, list[str]]) -> None:
    run, on_file = played
    problems = on_file + check_resolved(run)
    assert not problems, report(problems)


def test_every_hostile_mail_is_answered_journalled_or_quarantined_once(played: tuple[Run, list[str]]) -> None:
    run, _ = played
    outgoing = local_outgoing(run.root, run.root.parent / "outbox")
    problems = fate_problems(delivery(), outgoing, run.root)
    assert not problems, report(problems)


def test_nothing_pbem_sends_has_an_injected_header_an_encoded_id_or_a_secret(played: tuple[Run, list[str]]) -> None:
    run, _ = played
    outgoing = local_outgoing(run.root, run.root.parent / "outbox")
    assert outgoing, "pbem sent nothing at all"
    problems = outgoing_problems(outgoing)
    assert not problems, report(problems)
