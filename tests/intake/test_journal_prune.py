"""The journal keeps what dedup needs: entries met within KEEP_DAYS, and for as long as a
mail stays in a mailbox that cannot be marked (read-only) — never the whole campaign's mail."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from pbem.intake.journal import SEEN, message_ids, prune
from pbem.state.campaign import KEEP_DAYS, Campaign
from pbem.state.store import read_toml, write_toml
from tests.support.engine_helpers import SECRETS, T0, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"


def day(n: float) -> datetime:
    return T0 + timedelta(days=n, hours=1)


def acks_for(camp: Campaign, mid: str) -> int:
    return sum(1 for m in outbox(camp, "alice") if m["In-Reply-To"] == f"<{mid}>")


def test_a_long_campaigns_journal_holds_only_the_last_days_of_mail(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    for n in range(0, 2 * KEEP_DAYS + 1, 20):
        put(camp, f"m{n}", RED + "R-1 H\n", mid=f"day-{n}@client")
        camp = run(camp, day(n))
    # an entry is dated at the first prune after it was written (the next tick): one more
    assert len(camp.state["journal"]) <= KEEP_DAYS // 20 + 2
    assert set(camp.state[SEEN]) <= set(camp.state["journal"])        # the newest is dated next tick
    assert f"<day-{n}@client>" in message_ids(camp.state["journal"])           # the latest is kept
    assert "<day-0@client>" not in message_ids(camp.state["journal"])          # the first long gone
    journal_bytes = len(str(camp.state["journal"])) + len(str(camp.state[SEEN]))
    assert journal_bytes < 120 * (KEEP_DAYS // 20 + 2) * 2


def test_a_mail_delivered_again_inside_the_window_is_a_duplicate(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    put(camp, "m1", RED + "R-1 M T25\n", mid="once@client")
    camp = run(camp, day(0))
    for n in range(20, KEEP_DAYS - 5, 20):
        camp = run(camp, day(n))                          # daily life: every tick prunes
    put(camp, "m1-again", RED + "R-1 M T25\n", mid="once@client")
    camp = run(camp, day(KEEP_DAYS - 2))
    assert acks_for(camp, "once@client") == 1
    assert "<once@client>" in message_ids(camp.state["journal"])


def test_a_mail_delivered_again_after_the_window_is_handled_as_new(tmp_path: Path) -> None:
    """A writable mailbox only shows a mail again if a server restores an old backup; after
    KEEP_DAYS the journal has forgotten it, so it is read once more, but its reply has the
    Message-ID of the first one, which the transport delivered: no Message-ID goes out twice."""
    camp = dr_campaign(tmp_path)
    put(camp, "m1", RED + "STATUS\n", mid="old@client")
    camp = run(camp, day(0))
    for n in range(20, KEEP_DAYS + 41, 20):
        camp = run(camp, day(n))
    assert "<old@client>" not in message_ids(camp.state["journal"])
    put(camp, "m1-restored", RED + "STATUS\n", mid="old@client")
    camp = run(camp, day(KEEP_DAYS + 41))
    assert "<old@client>" in message_ids(camp.state["journal"])              # read again
    assert acks_for(camp, "old@client") == 1


def test_a_mail_that_stays_in_a_read_only_mailbox_is_never_forgotten(tmp_path: Path) -> None:
    """A read-only mailbox shows its mail at every tick: each meeting renews the entry."""
    camp = dr_campaign(tmp_path)
    for n in range(0, 3 * KEEP_DAYS, 20):
        put(camp, "stays", RED + "R-1 M T25\n", mid="stays@client")   # still there, as read-only mail is
        camp = run(camp, day(n))
    assert acks_for(camp, "stays@client") == 1
    assert "<stays@client>" in message_ids(camp.state["journal"])


def test_a_journal_of_an_earlier_version_is_kept_a_full_window_from_the_first_prune(tmp_path: Path) -> None:
    camp = dr_campaign(tmp_path)
    state = read_toml(camp.folder / "state.toml")
    state["journal"] = {"<old@client>": "processed"}
    state.pop(SEEN, None)
    write_toml(camp.folder / "state.toml", state)
    camp = run(camp, day(0))
    put(camp, "m1", RED + "R-1 M T25\n", mid="old@client")
    camp = run(camp, day(KEEP_DAYS - 1))
    assert acks_for(camp, "old@client") == 0


def test_prune_forgets_only_entries_not_met_for_the_window_and_mends_a_bad_table() -> None:
    now = day(100)
    state = {"journal": {"a": "processed", "b": "processed", "c": "duplicate"},
             SEEN: {"a": "2000-01-01", "b": "not a day", "gone": "2000-01-01"}}
    assert prune(state, now)
    assert state["journal"] == {"b": "processed", "c": "duplicate"}
    assert state[SEEN] == {"b": now.date().isoformat(), "c": now.date().isoformat()}
    assert not prune({"journal": {"x": "processed"}, SEEN: "garbage"}, now)


def test_the_postmaster_forgets_after_the_same_window_and_never_a_mail_it_keeps_meeting(tmp_path: Path) -> None:
    from pbem.intake.routing import Postmaster
    from pbem.mail.message import parse_message
    from pbem.state.site import Site

    def postmaster_at(n: int, *, meet: bool) -> Postmaster:
        master = Postmaster(Site(tmp_path, "pbem@test.localhost"), day(n), set())
        if meet:
            master.answer(mail, "", "")
        master.changed = True          # a pass that stores its state, whatever else it did
        master.save()
        return master

    mail = parse_message(b"From: robot@else.localhost\nAuto-Submitted: auto-replied\nMessage-ID: <auto@else>\n"
                         b"Subject: away\n\nI am away\n")
    for n in range(0, 3 * KEEP_DAYS, KEEP_DAYS - 10):                # still in a read-only mailbox
        postmaster_at(n, meet=True)
    assert message_ids(postmaster_at(n + KEEP_DAYS - 1, meet=False).state["journal"]) == ["<auto@else>"]
    assert postmaster_at(n + KEEP_DAYS + 1, meet=False).state["journal"] == {}
