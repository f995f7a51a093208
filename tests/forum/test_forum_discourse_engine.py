"""The engine on a Discourse thread (a real loopback server speaking the API subset), and the
`[transport.forum]` settings checks."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import pytest

from pbem.delivery.mails import build_mail
from pbem.forum.base import key_of
from pbem.gm.creation import welcome_replies
from pbem.rulesets import registry
from pbem.state.campaign import Campaign, SettingsError
from pbem.state.store import read_toml, write_toml
from pbem.tick.engine import tick
from pbem.tick.faults import Faults
from tests.forum.conftest import API_KEY, BOT
from tests.forum.discourse_server import DiscourseServer
from tests.forum.test_forum_engine import BLUE, BOB, RED, campaign
from tests.support.engine_helpers import T0, body, outbox, put, run


@pytest.fixture
def on_discourse(tmp_path: Path, discourse: DiscourseServer, monkeypatch: pytest.MonkeyPatch) -> Campaign:
    monkeypatch.delenv("PBEM_DISCOURSE_API_KEY", raising=False)
    monkeypatch.delenv("PBEM_DISCOURSE_USERNAME", raising=False)
    secrets = tmp_path / "secrets" / "discourse.toml"        # outside the campaign folder
    write_toml(secrets, {"api_key": API_KEY, "username": BOT})
    topic = discourse.state.new_topic("Rift campaign")
    discourse.state.add_post(topic, "gm_dave", "The campaign thread: reports and results here.")
    return campaign(tmp_path, {"R-1": "T24", "B-1": "T27"},
                    forum={"kind": "discourse", "url": discourse.url, "topic": topic.id, "bot": BOT,
                           "credentials": str(secrets), "path": "unused"})


def bot_raw(discourse: DiscourseServer, topic_id: int) -> list[str]:
    return [p["raw"] for p in discourse.state.topics[topic_id].posts if p["username"] == BOT]


def test_reports_are_posted_to_the_discourse_thread_once_even_after_a_crash(
        on_discourse: Campaign, discourse: DiscourseServer) -> None:
    topic_id = on_discourse.settings.forum["topic"]
    crashed: list[str] = []

    def crash_once(point: str) -> None:
        if point == "published" and not crashed:
            crashed.append(point)
            raise RuntimeError("power cut")

    put(on_discourse, "m1", RED + "R-1 M T25\n")
    put(on_discourse, "m2", BLUE + "B-1 H\n", sender=BOB)
    with pytest.raises(RuntimeError):
        tick(on_discourse.folder.parent, T0 + timedelta(hours=1), Faults(crash_once))
    assert len(bot_raw(discourse, topic_id)) == 1
    camp = run(on_discourse, T0 + timedelta(hours=2))
    camp = run(camp, T0 + timedelta(hours=3))
    keys = [key_of(raw) for raw in bot_raw(discourse, topic_id)]
    gen = on_discourse.state["stage"]["generation"]             # of the orders stage that resolved
    assert keys == [f"turn-1/g{gen}/orders/movement", f"turn-1/g{gen}/orders/turn"]      # no battle report
    first = bot_raw(discourse, topic_id)[0]
    assert first.startswith("![Map: ")                          # the map picture, uploaded, on top
    assert first.split("\n\n", 1)[1].startswith("#")             # then raw Markdown, rendered by Discourse
    assert camp.state["stage"]["turn"] == 2


def test_private_message_to_the_bot_carries_orders_and_is_answered_in_it(
        on_discourse: Campaign, discourse: DiscourseServer) -> None:
    pm = discourse.state.private_message("alice", BOT, "[rift] my orders", "R-1 M T25")
    camp = run(on_discourse)
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]
    [answer] = [p for p in pm.posts if p["username"] == BOT]
    assert "`R-1 M T25`" in answer["raw"] and answer["reply_to_post_number"] == 1
    assert not outbox(camp, "alice")
    camp = run(camp, T0 + timedelta(hours=2))                 # the bot's own answer is not read back
    assert len([p for p in pm.posts if p["username"] == BOT]) == 1


def test_a_private_message_tagged_for_another_campaign_is_left_alone(
        on_discourse: Campaign, discourse: DiscourseServer) -> None:
    discourse.state.private_message("alice", BOT, "[other-game] orders", "R-1 M T25")
    camp = run(on_discourse)
    assert not camp.state.get("submissions") and not outbox(camp, "alice")


def test_result_post_in_the_discourse_thread_is_read_and_answered_by_mail(
        on_discourse: Campaign, discourse: DiscourseServer) -> None:
    topic = discourse.state.topics[on_discourse.settings.forum["topic"]]
    discourse.state.add_post(topic, "alice", "STATUS")
    discourse.state.add_post(topic, "mallory", "@pbem_bot STATUS")
    camp = run(on_discourse)
    [ack] = outbox(camp, "alice")
    assert "Orders on file" in body(ack)
    [alert] = [m for m in outbox(camp, "gm@") if "attention" in str(m["Subject"])]
    assert "'mallory'" in body(alert)
    assert [p["username"] for p in topic.posts] == ["gm_dave", "alice", "mallory"]   # no public answer


def test_forum_down_is_logged_and_nothing_resolves_until_it_is_read(on_discourse: Campaign,
                                                                   discourse: DiscourseServer) -> None:
    discourse.state.api_key = "rotated"
    deadline = T0 + timedelta(days=30)
    log = tick(on_discourse.folder.parent, deadline)
    assert any("forum not read" in line and "HTTP 403" in line for line in log.lines)
    assert Campaign(on_discourse.folder).state["stage"]["turn"] == 1


def test_welcome_mail_explains_forum_identity_and_secrecy(on_discourse: Campaign) -> None:
    ruleset = registry.get("daemon_rift")
    replies = welcome_replies(on_discourse, {"red": "S", "blue": "S", "gm": "S"}, T0)
    text = body(build_mail(on_discourse, ruleset, replies[0], T0))
    assert "**alice**" in text and "never carry your secret" in text and f"private message to @{BOT}" in text


# -- settings -------------------------------------------------------------------------


def test_forum_settings_problems_are_all_reported_with_their_keys(tmp_path: Path) -> None:
    camp = campaign(tmp_path, {"R-1": "T24", "B-1": "T27"})
    settings = read_toml(camp.folder / "campaign.toml")
    settings["transport"]["forum"] = {"kind": "discourse", "url": "forum.example.org", "public_words": ["PASSWORD"],
                                      "colour": "red"}
    settings["players"][1]["forum"] = "ALICE"
    write_toml(camp.folder / "campaign.toml", settings)
    with pytest.raises(SettingsError) as caught:
        Campaign(camp.folder)
    text = str(caught.value)
    for expected in ("transport.forum.url", "transport.forum.topic", "transport.forum.bot",
                     "transport.forum.public_words", "transport.forum.colour", "players[1].forum"):
        assert expected in text


def test_a_private_message_whose_answer_cannot_be_posted_is_read_again_next_tick(
        on_discourse: Campaign, discourse: DiscourseServer) -> None:
    pm = discourse.state.private_message("alice", BOT, "[rift] orders", "R-1 M T25")
    discourse.state.read_only = True
    log = tick(on_discourse.folder.parent, T0 + timedelta(hours=1))
    assert any("kept for the next tick" in line and "read only" in line for line in log.lines)
    camp = Campaign(on_discourse.folder)
    assert not camp.state.get("submissions") and not any("forum" in k for k in camp.state.get("journal", {}))
    discourse.state.read_only = False
    camp = run(camp, T0 + timedelta(hours=2))
    assert camp.state["submissions"]["red"]["payload"]["orders"]["orders"]["R-1"]["path"] == ["T25"]
    assert len([p for p in pm.posts if p["username"] == BOT]) == 1
