"""Poison mail: a message whose handling raises is retried, then quarantined after
QUARANTINE_AFTER ticks, while the mail behind it and the other campaigns go on; the GM acts
with `pbem quarantine list|release|drop`."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.cli import main
from pbem.intake.journal import journal_key, notes_by_id
from pbem.intake.quarantine import QUARANTINE_AFTER, Quarantine, ident
from pbem.mail.message import parse_message
from pbem.rulesets import registry
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.support.isolation_helpers import BLUE, BOB, GM_ADDRESS, RED, campaign, hour, mail, sent_to


@pytest.fixture
def camps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Campaign, Campaign]:
    monkeypatch.setitem(registry.RULESETS.extra, "crashy", "tests.support.crashy_ruleset:RULESET")
    root = tmp_path / "campaigns"
    return campaign(root, "rift", ruleset="crashy"), campaign(root, "zeta")


def ticks(camp: Campaign, count: int, start: int = 1) -> list[str]:
    lines: list[str] = []
    for n in range(start, start + count):
        lines += tick(camp.folder.parent, hour(n)).lines
    return lines


def test_a_crashing_message_is_retried_then_quarantined_while_the_mail_behind_it_and_other_campaigns_flow(
        camps: tuple[Campaign, Campaign]) -> None:
    rift, zeta = camps
    poison = mail(rift, "poison", RED + "R-1 M T25\nCRASH\n")
    for n in range(1, QUARANTINE_AFTER + 2):
        mail(rift, f"blue-{n}", BLUE + f"B-1 M T{26 + n % 2}\n", sender=BOB)
        mail(zeta, f"red-{n}", RED + "R-1 M T25\n", subject="[zeta] orders")
        log = tick(rift.folder.parent, hour(n)).lines
        rift_now, zeta_now = Campaign(rift.folder), Campaign(zeta.folder)
        # the mail behind it, and the next campaign
        assert notes_by_id(rift_now.state["journal"])[f"<blue-{n}@test.localhost>"] == "processed"
        assert notes_by_id(zeta_now.state["journal"])[f"<red-{n}@test.localhost>"] == "processed"
        assert not any("NOT PROCESSED" in line or "failed, kept" in line for line in log), log
        held = (rift.folder / "inbox" / "poison.eml").exists()
        assert held == (n < QUARANTINE_AFTER), n                                           # retried, then moved
        if n < QUARANTINE_AFTER:
            assert any(f"failed ({n} of {QUARANTINE_AFTER}): RuntimeError: the crashy ruleset fell over" in line
                       for line in log)
    rift = Campaign(rift.folder)
    key = journal_key(parse_message(poison))
    assert rift.state["journal"][key] == "quarantined"
    assert "red" not in rift.state.get("submissions", {})                   # nothing of it was stored
    assert (rift.folder / "inbox" / "quarantine" / "poison.eml").exists()   # the inbox's quarantine folder
    assert (rift.folder / "quarantine" / f"{ident(key)}.eml").exists()
    assert len(sent_to(rift, "alice@test.localhost", "could not be processed")) == 1
    assert len(sent_to(rift, "alice@test.localhost")) == 1                  # no ack for the failed attempts
    alerts = sent_to(rift, GM_ADDRESS, ident(key))
    assert len(alerts) == 1 and "the crashy ruleset fell over" in alerts[0]


def quarantined(camp: Campaign, name: str = "poison") -> str:
    raw = mail(camp, name, RED + "CRASH\n")
    ticks(camp, QUARANTINE_AFTER)
    return ident(journal_key(parse_message(raw)))


def test_quarantine_list_shows_id_date_sender_subject_and_reason(camps: tuple[Campaign, Campaign],
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    rift, _ = camps
    held = quarantined(rift)
    assert main(["quarantine", "list", "--root", str(rift.folder.parent)]) == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith(f"rift  {held}  2026-11-23T")
    assert "alice@test.localhost" in line and "[rift] orders" in line and "crashy ruleset fell over" in line
    assert main(["quarantine", "list", "zeta", "--root", str(rift.folder.parent)]) == 0
    assert capsys.readouterr().out.strip() == "nothing in quarantine"


def test_release_hands_the_message_to_the_next_tick_with_its_count_reset(camps: tuple[Campaign, Campaign]) -> None:
    rift, _ = camps
    held = quarantined(rift)
    toml = rift.folder / "campaign.toml"          # the GM fixes the cause, then releases
    toml.write_text(toml.read_text().replace('ruleset = "crashy"', 'ruleset = "daemon_rift"'))
    assert main(["quarantine", "release", "rift", held, "--root", str(rift.folder.parent)]) == 0
    assert "<poison@test.localhost>" not in notes_by_id(Campaign(rift.folder).state["journal"])
    ticks(rift, 1, start=QUARANTINE_AFTER + 1)
    rift = Campaign(rift.folder)
    assert notes_by_id(rift.state["journal"])["<poison@test.localhost>"] == "processed"
    assert Quarantine(rift.folder).entries() == []
    assert len(sent_to(rift, "alice@test.localhost", "read as prose and skipped")) == 1   # its ack: CRASH is prose


def test_a_released_message_that_still_fails_starts_counting_again(camps: tuple[Campaign, Campaign]) -> None:
    rift, _ = camps
    held = quarantined(rift)
    assert main(["quarantine", "release", "rift", held, "--root", str(rift.folder.parent)]) == 0
    log = ticks(rift, 1, start=QUARANTINE_AFTER + 1)
    assert any(f"failed (1 of {QUARANTINE_AFTER})" in line for line in log)
    log = ticks(rift, QUARANTINE_AFTER - 1, start=QUARANTINE_AFTER + 2)
    assert [h.id for h in Quarantine(rift.folder).entries()] == [held]


def test_drop_deletes_the_message_and_it_never_comes_back(camps: tuple[Campaign, Campaign]) -> None:
    rift, _ = camps
    held = quarantined(rift)
    assert main(["quarantine", "drop", "rift", held, "--root", str(rift.folder.parent)]) == 0
    assert not list((rift.folder / "quarantine").glob(f"{held}.*"))
    mail(rift, "poison", RED + "CRASH\n")                     # the same mail again
    log = ticks(rift, 1, start=QUARANTINE_AFTER + 1)
    assert any("alice@test.localhost: duplicate" in line for line in log)
    assert not (rift.folder / "inbox" / "poison.eml").exists()


def test_unknown_ids_and_campaigns_are_one_line_errors(camps: tuple[Campaign, Campaign],
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    rift, _ = camps
    root = str(rift.folder.parent)
    assert main(["quarantine", "release", "rift", "0123456789ab", "--root", root]) == 1
    assert main(["quarantine", "drop", "rift", "../../etc", "--root", root]) == 1
    assert main(["quarantine", "drop", "nosuch", "0123456789ab", "--root", root]) == 1
    assert main(["quarantine", "release", "rift", "--root", root]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("pbem: ") for line in err)
    assert "no quarantined message '0123456789ab'" in err[0] and "no campaign 'nosuch'" in err[2]


def test_mail_with_no_usable_sender_is_journalled_and_never_answered(camps: tuple[Campaign, Campaign]) -> None:
    rift, _ = camps
    for name, sender in (("empty", ""), ("group", "undisclosed-recipients:;")):
        mail(rift, name, RED + "R-1 M T25\n", sender=sender)
    log = ticks(rift, 1)
    rift = Campaign(rift.folder)
    for name in ("empty", "group"):
        assert notes_by_id(rift.state["journal"])[f"<{name}@test.localhost>"] == "ignored: no usable sender"
    assert sum("no sender: ignored: no usable sender" in line for line in log) == 2
    assert sent_to(rift, "@") == []
    assert not list((rift.folder / "outbox" / "queue").glob("*.eml"))


@pytest.mark.parametrize("kind", ["maildir", "eml"])
def test_an_inbox_moves_a_quarantined_message_out_of_reading_whether_or_not_it_was_marked(
        tmp_path: Path, kind: str) -> None:
    import mailbox

    from pbem.mail.inbox import open_inbox

    if kind == "maildir":
        for name in ("a", "b"):
            mailbox.Maildir(tmp_path / "box").add(f"Subject: {name}\n\n{name}\n".encode())
    else:
        (tmp_path / "box").mkdir()
        for name in ("a", "b"):
            (tmp_path / "box" / f"{name}.eml").write_bytes(f"Subject: {name}\n\n{name}\n".encode())
    inbox = open_inbox({"type": kind, "path": "box"}, tmp_path)
    first, second = [item.key for item in inbox.items()]
    inbox.quarantine(first)
    inbox.mark_done(first)                        # marking a message already moved: no error
    inbox.mark_done(second)
    inbox.quarantine(second)                      # and the other way round
    inbox.quarantine(second)                      # twice: no error
    assert list(inbox.items()) == []
    folder = tmp_path / "box" / (".Quarantine" if kind == "maildir" else "quarantine")
    assert len([p for p in folder.rglob("*") if p.is_file()]) == 2
