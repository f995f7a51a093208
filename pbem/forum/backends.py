"""The forum a campaign's settings name, ready to read and post."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.campaign import Settings
from pbem.forum.base import Forum, ForumError
from pbem.forum.config import forum_settings
from pbem.forum.discourse import DiscourseForum, load_credentials
from pbem.forum.folder import FolderForum


def open_forum(settings: Settings, folder: Path, now: datetime | None = None) -> Forum | None:
    """None when campaign.toml has no `[transport.forum]`; relative paths start at the campaign folder.
    `now` is the tick's clock: the time pbem writes on its own posts, the same as on its mail."""
    forum = forum_settings(settings.forum)
    if forum is None:
        return None
    if forum.kind == "discourse":
        credentials = load_credentials(forum.credentials, folder)
        if credentials.username.casefold() != forum.bot.casefold():
            raise ForumError(f"the Discourse API username {credentials.username!r} is not the bot account "
                             f"{forum.bot!r} of [transport.forum]")
        return DiscourseForum(forum.url, forum.topic, credentials, timeout=forum.timeout, now=now)
    return FolderForum(folder / forum.path, bot=forum.bot, title=settings.title, now=now)
