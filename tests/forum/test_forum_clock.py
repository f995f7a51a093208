"""The time pbem writes on its own forum posts is the tick's clock (`--now`), the same as on the
mail it sends: a campaign played on a test clock or replayed does not mix two calendars."""

from __future__ import annotations

from datetime import datetime, timedelta
from email.utils import parsedate_to_datetime
from pathlib import Path

from pbem.forum.discourse import Credentials, DiscourseForum
from pbem.forum.folder import FolderForum
from tests.forum.conftest import API_KEY, BOT
from tests.forum.discourse_server import DiscourseServer
from tests.forum.test_forum_engine import bot_posts, campaign, orders_in
from tests.support.engine_helpers import T0, outbox


def test_a_report_posted_to_the_folder_forum_is_dated_by_the_tick_like_its_mail(tmp_path: Path) -> None:
    camp = orders_in(campaign(tmp_path, {"R-1": "T24", "B-1": "T27"}))      # ticked at T0 + 1h
    [(header, _), *_] = bot_posts(camp)
    report = next(m for m in outbox(camp) if "Turn 1" in str(m["Subject"]))
    assert header["created"] == T0 + timedelta(hours=1) == parsedate_to_datetime(str(report["Date"]))


def test_the_folder_forum_dates_its_posts_by_the_clock_it_is_given(tmp_path: Path) -> None:
    forum = FolderForum(tmp_path / "thread", bot="pbem", now=datetime(2031, 5, 6, 7, 8, 9, 123, tzinfo=T0.tzinfo))
    post = forum.publish("k", "Title", "text")
    assert post.created == datetime(2031, 5, 6, 7, 8, 9, tzinfo=T0.tzinfo)


def test_a_discourse_post_held_for_moderation_is_dated_by_the_tick(discourse: DiscourseServer) -> None:
    topic = discourse.state.new_topic("Rift campaign")
    discourse.state.add_post(topic, "system", "Welcome to the campaign thread.")
    discourse.state.moderate = True
    forum = DiscourseForum(discourse.url, topic.id, Credentials(API_KEY, BOT), now=T0)
    post = forum.publish("turn-1/report", "Turn 1", "# Turn 1")
    assert post.pending and post.created == T0
