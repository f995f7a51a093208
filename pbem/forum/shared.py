"""A bot account serving several campaigns.

One Discourse account (or one folder thread) may be the bot of several campaigns. Its public
threads are apart, but its private messages are one inbox that every one of these campaigns
reads. The rule: when the bot is configured in more than one campaign, a private message
must name its campaign, by `[name]` in its title or a `CAMPAIGN name` line; one that names
none is acted on by no campaign, and the first of them by name answers it once, saying so.
"""

from __future__ import annotations

from pathlib import Path

from pbem.forum.base import ForumKind
from pbem.plugins import FORUMS
from pbem.state.campaign import Settings, load_settings
from pbem.state.checks import SettingsError
from pbem.state.folders import discover
from pbem.state.forumconfig import forum_settings
from pbem.state.store import StoreError

Identity = tuple[str, str, str]


def bot_identity(settings: Settings, folder: Path) -> Identity | None:
    """The bot account and where its private messages live; None without a forum."""
    forum = forum_settings(settings.forum)
    if forum is None:
        return None
    kind: ForumKind = FORUMS.load(forum.kind)
    return forum.kind, kind.place(forum, folder), forum.bot.casefold()


def campaigns_sharing_bot(folder: Path, settings: Settings) -> list[str]:
    """Names of the campaigns beside `folder` (itself included) with the same bot, sorted."""
    mine = bot_identity(settings, folder)
    names = [settings.name]
    for other in discover(folder.parent):
        if other.resolve() == folder.resolve():
            continue
        try:
            theirs = load_settings(other)
        except (SettingsError, StoreError, OSError, ValueError, TypeError, KeyError):
            continue     # a broken campaign is reported by its own tick
        if mine is not None and bot_identity(theirs, other) == mine:
            names.append(theirs.name)
    return sorted(names)
