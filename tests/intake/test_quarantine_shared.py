"""Poison mail in a mailbox shared by campaigns (pbem.toml): a message that fails in its
campaign is quarantined by that campaign; one that fails before any campaign takes it (here:
the postmaster's answer, through a site template that breaks on it) by the postmaster. The
Maildir keeps both in its `.Quarantine` folder, and the mail behind them flows."""

from __future__ import annotations

import mailbox
from pathlib import Path

import pytest
import tomli_w

from pbem.cli import main
from pbem.intake.journal import message_id_of, notes_by_id
from pbem.intake.quarantine import QUARANTINE_AFTER, Quarantine, ident
from pbem.intake.routing import Postmaster
from pbem.mail.message import Submission
from pbem.rulesets import registry
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.support.isolation_helpers import BLUE, RED, campaign, hour


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setitem(registry.RULESETS.extra, "crashy", "tests.support.crashy_ruleset:RULESET")
    root = tmp_path / "campaigns"
    root.mkdir()
    site = {"address": "orders@pbem.test", "transport": {"inbox": {"type": "maildir", "path": "mail"},
                                                         "outbox": {"type": "maildir", "path": "outmail"}}}
    (root / "pbem.toml").write_text(tomli_w.dumps(site))
    answer = Postmaster.answer

    def falls_over(self: Postmaster, sub: Submission, named: str, elsewhere: str = "") -> None:
        """A fault in the postmaster's own code for one kind of mail (a broken template override
        no longer is one: it falls back to the built-in template)."""
        if "CRASH" in sub.subject:
            raise ZeroDivisionError("integer division or modulo by zero")
        answer(self, sub, named, elsewhere)

    monkeypatch.setattr(Postmaster, "answer", falls_over)
    campaign(root, "rift", ruleset="crashy", own_mail=False)
    campaign(root, "zeta", own_mail=False)
    return root


def drop(root: Path, name: str, subject: str, body: str, sender: str = "alice@test.localhost") -> None:
    raw = (f"From: {sender}\nTo: orders@pbem.test\nSubject: {subject}\nMessage-ID: <{name}@test.localhost>\n"
           f"Date: Mon, 23 Nov 2026 10:00:00 +0000\nContent-Type: text/plain; charset=utf-8\n\n{body}")
    mailbox.Maildir(root / "mail").add(raw.replace("\n", "\r\n").encode())


def test_shared_mailbox_poison_goes_to_its_campaigns_or_the_postmasters_quarantine(
        root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    drop(root, "poison", "[rift] orders", RED + "CRASH\n")
    drop(root, "lost", "[nowhere] CRASH", "hello\n")
    for n in range(1, QUARANTINE_AFTER + 1):
        drop(root, f"zeta-{n}", "[zeta] orders", BLUE + "B-1 M T27\n", sender="bob@test.localhost")
        drop(root, f"nowhere-{n}", "[nowhere] hi", "hello\n", sender="carol@test.localhost")
        log = tick(root, hour(n)).lines
        assert not any("NOT PROCESSED" in line for line in log), log
        assert notes_by_id(Campaign(root / "zeta").state["journal"])[f"<zeta-{n}@test.localhost>"] == "processed"
        postmaster = (root / "postmaster" / "state.toml").read_text()
        assert f"<nowhere-{n}@test.localhost>" in postmaster          # answered behind the poison
    [rift_key] = [h.key for h in Quarantine(root / "rift").entries()]
    [lost_key] = [h.key for h in Quarantine(root / "postmaster").entries()]
    assert (message_id_of(rift_key), message_id_of(lost_key)) == ("<poison@test.localhost>", "<lost@test.localhost>")
    assert len(list((root / "mail" / ".Quarantine").glob("*/*"))) == 2
    pending = [m for m in (root / "mail" / "new").iterdir()]
    assert pending == []
    capsys.readouterr()
    assert main(["quarantine", "list", "--root", str(root)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in listed] == [["rift", ident(rift_key)], ["postmaster", ident(lost_key)]]
    assert main(["quarantine", "release", "postmaster", ident(lost_key), "--root", str(root)]) == 0
    log = tick(root, hour(QUARANTINE_AFTER + 1)).lines
    assert any("postmaster: a message failed" in line for line in log)     # handled again, from the copy
    assert Quarantine(root / "postmaster").failures[lost_key]["count"] == 1


def test_an_unwritable_campaign_in_a_shared_mailbox_keeps_its_mail_and_the_others_flow(root: Path) -> None:
    from tests.intake.test_isolation import read_only

    with read_only(root / "zeta"):
        drop(root, "zeta-1", "[zeta] orders", BLUE + "B-1 M T27\n", sender="bob@test.localhost")
        drop(root, "rift-1", "[rift] orders", RED + "R-1 M T25\n")
        log = tick(root, hour(1)).lines
        assert any(line.startswith("zeta: NOT PROCESSED: ") for line in log), log
        assert notes_by_id(Campaign(root / "rift").state["journal"])["<rift-1@test.localhost>"] == "processed"
        assert len(list((root / "mail" / "new").iterdir())) == 1               # zeta's, unread
    tick(root, hour(2))
    assert notes_by_id(Campaign(root / "zeta").state["journal"])["<zeta-1@test.localhost>"] == "processed"
    assert Quarantine(root / "zeta").failures == {}
