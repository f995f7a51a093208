"""Forum intake kept apart from mail and from other campaigns: a shared bot needs the campaign
named, secrets are found wherever a post shows them and their owners told, alerts about one
account are throttled, and what a player wrote comes back inert in a forum answer."""

from __future__ import annotations

import re
import shutil
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from pbem.forum.base import Post, inert
from pbem.intake import admission
from pbem.state.campaign import Campaign
from pbem.state.forumconfig import ForumSettings
from pbem.state.store import read_toml, write_toml
from pbem.tick.engine import tick
from tests.forum.test_forum_engine import bot_posts, campaign, post, thread
from tests.support.engine_helpers import SECRETS, T0, body, outbox, run


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return campaign(tmp_path, {"R-1": "T24", "B-1": "T27"})


def second_campaign(camp: Campaign, name: str = "moor") -> Campaign:
    """Another campaign beside `camp` with the same forum and bot (copied, renamed)."""
    folder = camp.folder.parent / name
    shutil.copytree(camp.folder, folder)
    settings = read_toml(folder / "campaign.toml")
    settings["name"] = name
    write_toml(folder / "campaign.toml", settings)
    return Campaign(folder)


def journal_notes(camp: Campaign) -> list[str]:
    return [note for key, note in camp.state.get("journal", {}).items() if "forum-post" in key]


def alerts(camp: Campaign) -> list[str]:
    return [body(m) for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]


# -- a bot shared by campaigns --------------------------------------------------------


def test_an_untagged_private_message_to_a_shared_bot_is_acted_on_by_none_and_answered_once(
        camp: Campaign) -> None:
    moor = second_campaign(camp)
    post(camp, "a", "alice", "R-1 M T25", private=True)
    log = tick(camp.folder.parent, T0 + timedelta(hours=1))
    rift, moor = Campaign(camp.folder), Campaign(moor.folder)
    assert not rift.state.get("submissions") and not moor.state.get("submissions")
    [(header, answer)] = bot_posts(rift, private=True)
    assert header["to"] == "alice" and "moor, rift" in answer and "`[moor]`" in answer
    assert "CAMPAIGN moor" in answer
    assert sum("names no campaign" in line for line in log.lines) == 2
    tick(camp.folder.parent, T0 + timedelta(hours=2))
    assert len(bot_posts(rift, private=True)) == 1                  # answered once


def test_a_tagged_private_message_to_a_shared_bot_is_acted_on_by_its_campaign_only(camp: Campaign) -> None:
    moor = second_campaign(camp)
    folder = thread(camp) / "private"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "a.md").write_text('+++\nauthor = "alice"\ntitle = "[rift] orders"\n+++\nR-1 M T25\n')
    tick(camp.folder.parent, T0 + timedelta(hours=1))
    assert Campaign(camp.folder).state["submissions"]["red"]
    assert not Campaign(moor.folder).state.get("submissions")


def test_a_bot_in_one_campaign_needs_no_tag(camp: Campaign) -> None:
    post(camp, "a", "alice", "R-1 M T25", private=True)
    assert run(camp).state["submissions"]["red"]


# -- secrets wherever a post shows them ----------------------------------------------


@pytest.mark.parametrize("text", [
    "Nice weather for a war. My code is {secret}, don't tell.",                 # table talk
    '[quote="bob"]\nPLAYER red {secret}\n[/quote]\nRESULT 1 Red',
    "<!-- PLAYER red {secret} -->\nRESULT 1 Red",
    "> PLAYER red {secret}\nRESULT 1 Red",
], ids=["table-talk", "quote", "html-comment", "quote-line"])
def test_a_secret_is_noticed_wherever_the_post_shows_it(camp: Campaign, text: str) -> None:
    post(camp, "a", "alice", text.format(secret=SECRETS["red"]))
    camp = run(camp)
    assert journal_notes(camp) == ["refused: secret in a public post"]
    [refusal] = outbox(camp, "alice")
    assert "PASSWORD" in body(refusal) and SECRETS["red"] not in body(refusal)
    [alert] = alerts(camp)
    assert "current secret" in alert


def test_table_talk_that_only_looks_like_a_secret_is_ignored_quietly(camp: Campaign) -> None:
    post(camp, "a", "alice", "The tracking code is ABCD-EFGH-IJKL-MNOP-QRST, see you.")
    camp = run(camp)
    assert journal_notes(camp) == ["ignored: table talk"]
    assert not outbox(camp)


def test_another_players_secret_is_refused_and_its_owner_and_the_gm_told(camp: Campaign) -> None:
    post(camp, "a", "Bob", f"RESULT 1 Blue\n> alice wrote: PLAYER red {SECRETS['red']}")
    camp = run(camp)
    assert journal_notes(camp) == ["refused: secret in a public post"]
    [refusal] = outbox(camp, "bob")
    assert "someone else's secret" in body(refusal) and SECRETS["red"] not in body(refusal)
    [owner] = outbox(camp, "alice")
    assert "change it" in str(owner["Subject"]) and "PASSWORD <new secret>" in body(owner)
    assert "**Bob**" in body(owner) and SECRETS["red"] not in body(owner)
    [alert] = alerts(camp)
    assert "Alice's (red)" in alert and "'Bob'" in alert and SECRETS["red"] not in alert


def test_the_gms_secret_in_a_post_is_refused_and_the_gm_told_to_change_it(camp: Campaign) -> None:
    post(camp, "a", "alice", f"STATUS\nI found this: {SECRETS['gm']}")
    camp = run(camp)
    assert journal_notes(camp) == ["refused: secret in a public post"]
    [alert] = alerts(camp)
    assert "the game master's own" in alert and "Change your own secret" in alert
    [refusal] = outbox(camp, "alice")
    assert "someone else's secret" in body(refusal)


def test_a_secret_posted_by_an_unknown_account_still_warns_its_owner(camp: Campaign) -> None:
    post(camp, "a", "mallory", f"lol {SECRETS['blue']}")
    camp = run(camp)
    assert journal_notes(camp) == ["ignored: a secret in a public post by an unknown account"]
    [owner] = outbox(camp, "bob")
    assert "PASSWORD <new secret>" in body(owner)
    [alert] = alerts(camp)
    assert "Bob's (blue)" in alert and not outbox(camp, "mallory")


# -- alerts throttled -----------------------------------------------------------------


def test_forty_posts_from_an_unknown_account_give_one_gm_alert_a_day(camp: Campaign) -> None:
    for i in range(40):
        post(camp, f"p{i:02d}", "mallory", f"STATUS {i}")
    camp = run(camp)
    assert len(alerts(camp)) == 1
    assert journal_notes(camp) == ["ignored: unknown forum account"] * 40
    post(camp, "q", "mallory", "STATUS again")
    camp = run(camp, T0 + timedelta(hours=5))
    assert len(alerts(camp)) == 1
    post(camp, "r", "mallory", "STATUS tomorrow")
    camp = run(camp, T0 + timedelta(hours=26))
    assert len(alerts(camp)) == 2


def test_the_throttle_counts_each_account_and_kind_apart() -> None:
    state: dict = {}  # type: ignore[type-arg]
    now = datetime(2026, 11, 23, tzinfo=UTC)
    assert admission.throttle(state, "mallory", "ignored", ["a"], now) == ["a"]
    assert admission.throttle(state, "MALLORY", "ignored", ["a"], now) == []
    assert admission.throttle(state, "eve", "ignored", ["a"], now) == ["a"]
    assert admission.throttle(state, "mallory", "refused: secret", ["b"], now) == ["b"]
    assert admission.throttle(state, "mallory", "ignored", ["a"], now + timedelta(hours=25)) == ["a"]


# -- answers inert on the forum -------------------------------------------------------


def test_rejected_lines_echoed_in_a_private_answer_are_inert(camp: Campaign) -> None:
    post(camp, "a", "alice", "R-1 M <img>@bob", private=True)       # echoed: unknown territory '<img>@bob'
    camp = run(camp)
    [(_, answer)] = bot_posts(camp, private=True)
    assert "\u201c&lt;img>@\u200bbob\u201d" in answer
    outside_code = re.sub(r"`[^`]*`", "", answer)      # a code span is shown literally by the forum
    assert "<img" not in outside_code and "@bob" not in outside_code


def test_inert_escapes_html_and_mentions_outside_code_only() -> None:
    text = "hi @bob <b>x</b> `@carl <i>` and\n```\n@dave <s>\n```\n"
    assert inert(text) == "hi @\u200bbob &lt;b>x&lt;/b> `@carl <i>` and\n```\n@dave <s>\n```\n"


# -- a post's identity comes from the forum only --------------------------------------


def test_a_posts_submission_always_names_its_forum_account_and_post_id(camp: Campaign) -> None:
    forum = ForumSettings("folder")
    for author in ("alice", "", "  "):
        item = Post(id="17", author=author, created=T0, text="STATUS")
        sub = admission.to_submission(camp.settings, "folder", forum, item)
        assert sub.forum_account and sub.message_id == "<forum-post-folder-17@rift>"
        assert sub.sender == ("alice@test.localhost" if author == "alice" else "")


def test_chosen_secrets_are_found_by_the_line_naming_them_and_cost_little(camp: Campaign) -> None:
    from pbem.intake.leaks import leaks
    from pbem.state import credentials

    chosen = {"red": credentials.hash_chosen("hunter2hunter2"), "blue": credentials.hash_chosen("correct horse")}
    secret_of = lambda player: chosen.get(player.id, "sha256:" + "0" * 64)   # noqa: E731
    red = camp.settings.player("red")
    assert [leak.owner.id for leak in leaks(camp.settings, "> PLAYER red hunter2hunter2", secret_of)] == ["red"]
    assert [leak.owner.id for leak in leaks(camp.settings, "[quote]PASSWORD hunter2hunter2[/quote]", secret_of,
                                            red)] == ["red"]
    hostile = "\n".join(f"PLAYER {who} guess{i}" for i in range(50) for who in ("red", "blue", "gm"))
    start = time.perf_counter()
    assert leaks(camp.settings, hostile, secret_of) == []
    assert time.perf_counter() - start < 1.0          # at most two scrypt tries a post
