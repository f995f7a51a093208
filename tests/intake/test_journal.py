"""The message journal: mail and forum posts never share a key, a different mail under a
reused Message-ID is new, a mail delivered twice is still one, older journals still count."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta
from pathlib import Path

from pbem.intake.journal import handled, journal_key, message_id_of, message_ids
from pbem.mail.message import Submission, parse_message
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml, write_toml
from tests.support.engine_helpers import SECRETS, T0, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"


def raw(text: str, mid: str = "<m1@test.localhost>", trace: str = "") -> bytes:
    return (f"{trace}From: Alice <alice@test.localhost>\nSubject: [rift] orders\nMessage-ID: {mid}\n"
            f"Date: Mon, 23 Nov 2026 10:00:00 +0000\n\n{text}").encode()


def test_a_mail_delivered_twice_has_one_key_whatever_each_delivery_added() -> None:
    once = parse_message(raw(RED + "R-1 M T25\n"))
    again = parse_message(raw(RED + "R-1 M T25\n", trace="Received: from relay2 by mx; Mon, 23 Nov 2026\n"
                                                        "Delivered-To: rift@pbem.localhost\n"))
    assert journal_key(once) == journal_key(again)
    assert journal_key(once).startswith("mail:<m1@test.localhost>#")
    assert message_id_of(journal_key(once)) == "<m1@test.localhost>"


def test_a_different_mail_under_one_message_id_has_another_key() -> None:
    first, second = parse_message(raw(RED + "R-1 M T25\n")), parse_message(raw(RED + "R-1 H\n"))
    assert journal_key(first) != journal_key(second)
    assert message_id_of(journal_key(first)) == message_id_of(journal_key(second))


def test_a_mail_can_never_stand_for_a_forum_post() -> None:
    mail = parse_message(raw("hello", mid="<forum-post-folder-1@rift>"))
    post_key = f"post:{mail.message_id}"
    assert journal_key(mail) != post_key and not journal_key(mail).startswith("post:")
    assert not handled({journal_key(mail): "processed"}, _as_post(mail))
    assert message_id_of(post_key) == "<forum-post-folder-1@rift>"


def _as_post(sub: Submission) -> Submission:
    return replace(sub, forum_account="alice")


def test_a_bare_message_id_of_an_older_journal_still_counts_for_mail_only() -> None:
    mail = parse_message(raw("hello"))
    assert handled({"<m1@test.localhost>": "processed"}, mail)
    assert not handled({"<m1@test.localhost>": "processed"}, _as_post(mail))


def test_a_new_mail_under_a_recorded_message_id_is_read_and_answered(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", RED + "R-1 M T25\n", mid="reused@client")
    camp = run(camp)
    put(camp, "m2", RED + "R-1 H\n", mid="reused@client")        # another mail, the same Message-ID
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["kind"] == "H"
    acks = outbox(camp, "alice")
    assert len(acks) == 2 and len({str(m["Message-ID"]) for m in acks}) == 2
    assert "`R-1 H`" in body(acks[1]) or "`R-1 H`" in body(acks[0])
    assert message_ids(camp.state["journal"]) == ["<reused@client>", "<reused@client>"]


def test_the_same_mail_delivered_again_later_is_not_answered_again(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", RED + "R-1 M T25\n", mid="once@client")
    camp = run(camp)
    put(camp, "m1-again", RED + "R-1 M T25\n", mid="once@client")
    camp = run(camp, T0 + timedelta(hours=2))
    assert len(outbox(camp, "alice")) == 1 and len(camp.state["journal"]) == 1


def test_a_journal_written_by_the_previous_version_still_recognises_its_mail(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    state = read_toml(camp.folder / "state.toml")
    state["journal"] = {"<old@client>": "processed"}
    write_toml(camp.folder / "state.toml", state)
    put(camp, "m1", RED + "R-1 M T25\n", mid="old@client")
    camp = run(camp)
    assert not outbox(camp, "alice") and not camp.state.get("submissions")
    assert not list((camp.folder.parent.parent / "inbox").glob("*.eml"))      # marked done all the same


def test_a_strangers_mail_with_a_post_id_does_not_hide_the_post(tmp_path: Path) -> None:
    from tests.forum.test_forum_engine import campaign, post

    camp = campaign(tmp_path, {"R-1": "T24", "B-1": "T27"})
    put(camp, "forged", "hello", sender="Eve <eve@else.localhost>", mid="forum-post-folder-1@rift")
    camp = run(camp)
    post(camp, "a", "alice", "STATUS")
    camp = run(camp, T0 + timedelta(hours=2))
    [answer] = outbox(camp, "alice")
    assert answer["In-Reply-To"] == "<forum-post-folder-1@rift>"
    assert camp.state["journal"]["post:<forum-post-folder-1@rift>"] == "processed"
    assert Campaign(camp.folder).state["forum"]["cursor"]["thread"] >= 1
