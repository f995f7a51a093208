"""Public reports to a Discord channel through a webhook (pbem/forum/discord.py), against a
loopback server that follows Discord's documented webhook API (tests/forum/discord_server.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from pbem.forum.queue import split_post
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from pbem.tick.faults import Faults
from tests.forum.discord_server import DiscordState, discord_server
from tests.support.engine_helpers import T0, dr_campaign, put

HOUR = T0 + timedelta(hours=1)
Server = tuple[DiscordState, str]


@pytest.fixture
def discord() -> Iterator[tuple[DiscordState, str]]:
    with discord_server() as found:
        yield found


def campaign(tmp_path: Path, webhook: str, thread: int = 0) -> Campaign:
    forum = {"kind": "discord", "credentials": "discord.toml", "bot": "Rift Herald"}
    forum |= {"topic": thread} if thread else {}
    camp = dr_campaign(tmp_path, transport={"forum": forum})
    (camp.folder / "discord.toml").write_text(f'webhook = "{webhook}"\n', encoding="utf-8")
    put(camp, "red", "PLAYER red RRRR-TEST-0000-0000-0001\nR-1 H\n")
    put(camp, "blue", "PLAYER blue BBBB-TEST-0000-0000-0002\nB-1 H\n", sender="Bob <bob@test.localhost>")
    return camp


def reports(state: DiscordState) -> list[str]:
    return [m["content"] for m in state.messages.values() if not m["content"].endswith("posting…*")]


def test_a_public_report_is_posted_once_with_its_picture_and_no_table_syntax(tmp_path: Path, discord: Server) -> None:
    state, webhook = discord
    camp = campaign(tmp_path, webhook, thread=1777)
    tick(camp.folder.parent, HOUR)
    tick(camp.folder.parent, HOUR + timedelta(minutes=5))
    posted = reports(state)
    assert posted and all(len(text) <= 2000 for text in posted)
    assert posted[0].startswith("# Daemon Rift") and "|---" not in "".join(posted) and "```" in "".join(posted)
    first = next(iter(state.messages.values()))
    assert first["channel_id"] == "1777" and first["attachments"][0]["filename"].endswith(".png")
    assert all(m["edits"] == 1 for m in state.messages.values())


def test_a_rate_limit_is_waited_out_and_the_report_still_posted_once(tmp_path: Path, discord: Server) -> None:
    state, webhook = discord
    state.limited = 2
    camp = campaign(tmp_path, webhook)
    tick(camp.folder.parent, HOUR)
    assert len(reports(state)) == len(state.messages) >= 1
    assert [method for method, _ in state.requests].count("POST") == len(state.messages) + 2   # two 429s answered


def test_a_long_rate_limit_leaves_the_report_queued_for_the_next_tick(tmp_path: Path, discord: Server) -> None:
    state, webhook = discord
    state.limited, state.retry_after = 1, 120.0
    camp = campaign(tmp_path, webhook)
    log = tick(camp.folder.parent, HOUR)
    assert not state.messages and any("rate limited for 120 s" in line for line in log.lines)
    tick(camp.folder.parent, HOUR + timedelta(minutes=5))
    assert reports(state)


def test_a_crash_between_the_post_and_its_record_posts_no_report_twice(tmp_path: Path, discord: Server) -> None:
    state, webhook = discord

    def crash(point: str) -> None:
        if point == "published":
            raise KeyboardInterrupt("killed after posting, before the queue's record")

    camp = campaign(tmp_path, webhook)
    with pytest.raises(KeyboardInterrupt):
        tick(camp.folder.parent, HOUR, faults=Faults(crash))
    before = dict(state.messages)
    tick(camp.folder.parent, HOUR + timedelta(minutes=5))
    assert len(reports(state)) == len(set(reports(state)))
    assert set(before) <= set(state.messages) and all(m["edits"] == 1 for m in state.messages.values())


def test_an_answer_lost_after_the_upload_leaves_one_placeholder_and_one_report(tmp_path: Path, discord: Server) -> None:
    state, webhook = discord
    state.drop_after_create = True
    camp = campaign(tmp_path, webhook)
    log = tick(camp.folder.parent, HOUR)
    assert any("posting failed, kept for retry" in line for line in log.lines)
    tick(camp.folder.parent, HOUR + timedelta(minutes=5))
    placeholders = [m for m in state.messages.values() if m["content"].endswith("posting…*")]
    assert len(placeholders) == 1 and len(reports(state)) == len(set(reports(state))) >= 1


def test_a_wrong_token_is_one_line_naming_the_credentials(tmp_path: Path, discord: Server) -> None:
    state, webhook = discord
    camp = campaign(tmp_path, webhook.replace("secret-token", "stale"))
    log = tick(camp.folder.parent, HOUR)
    assert not state.messages
    assert any("HTTP 401: Invalid Webhook Token (the webhook was deleted or its address is wrong: check credentials)"
               in line for line in log.lines)


def test_long_reports_are_cut_between_sections_within_discords_limit() -> None:
    sections = [f"## Section {n}\n\n" + "\n\n".join(f"line {n}.{i} " + "x" * 60 for i in range(8)) for n in range(9)]
    parts = split_post("# Report\n\n" + "\n\n".join(sections), 2000)
    assert len(parts) > 1 and all(len(part) <= 2000 for part in parts)
    assert all(part.split("\n\n", 1)[-1].startswith("## Section") for part in parts[1:])
