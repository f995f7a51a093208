"""The forum a campaign's settings name, ready to read and post."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.forum.base import Forum, ForumKind
from pbem.plugins import FORUMS
from pbem.state.campaign import Settings
from pbem.state.forumconfig import forum_settings


def open_forum(settings: Settings, folder: Path, now: datetime | None = None) -> Forum | None:
    """None when campaign.toml has no `[transport.forum]`; relative paths start at the campaign
    folder. The kind is a `pbem.forums` entry point (pbem/plugins.py), checked with the settings.
    `now` is the tick's clock: the time pbem writes on its own posts, the same as on its mail."""
    forum = forum_settings(settings.forum)
    if forum is None:
        return None
    kind: ForumKind = FORUMS.load(forum.kind)
    return kind.open(forum, settings, folder, now)
