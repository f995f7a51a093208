"""Forum posts as submissions: who wrote them, and what a public post may carry.

Identity: the forum authenticates its users, so a post is attributed to the player whose
`forum` account (in his `[[players]]` entry) wrote it; no `PLAYER <id> <secret>` line is
needed. A post's Submission comes only from the forum: its Message-ID is made of the forum
kind and the post id, and `forum_account` is always set, so no mail can stand for a post.

A public post must never carry a secret: a post with a PLAYER, FACTION or GM line that has a
secret, a PASSWORD line, or a real secret of anyone in the campaign anywhere in it (table
talk, quotes, `>` lines and HTML comments included, pbem/intake/leaks.py) is refused and
nothing in it is acted on. Its author is told by mail; the owner of every secret shown is
told by mail to change it, and the game master is alerted to remove the post.

Secrecy of orders: everyone reads the public thread, so by default a public post may carry
only what is public by nature: RESULT (both sides report a battle everyone hears of), HELP
and STATUS (the answer goes by mail). A post with anything else is refused as a whole and
its author told to send orders privately: a private message to the bot, or mail. A
campaign that plays in the open sets `[transport.forum] public_orders = true`.

Table talk: in the public thread pbem reads only posts addressed to it, those whose first
line starts with a command word it knows or with `@<bot>`, and any post that may carry a
secret (to refuse it). Every private message to the bot is a submission.

Alerts: the game master hears about a forum account at most once a day per kind of problem
(`throttle`), however many posts it writes; its posts are still journalled, like mail past
the reply limit.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from pbem.forum.base import Post
from pbem.intake.envelope import ENGINE_COMMANDS, Envelope
from pbem.intake.leaks import SECRET_WORDS, Leak, leaks, looks_secret
from pbem.intake.throttle import Throttle
from pbem.kit.orders import significant_lines
from pbem.mail.message import Submission
from pbem.state.campaign import Player, Settings
from pbem.state.forumconfig import ForumSettings

ALERT_WINDOW = timedelta(hours=24)
ALERTS = Throttle(1, ALERT_WINDOW)
"""One alert per forum account and kind of problem a day."""
NO_AUTHOR = "(no author)"
QUOTE = re.compile(r"\[quote[^\]]*\].*?\[/quote\]", re.IGNORECASE | re.DOTALL)
COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
FENCE = re.compile(r"\s*(```|~~~).*")


@dataclass
class Verdict:
    """What to do with a post: act for `player`, or refuse (`refusal` is told to him), or ignore."""

    player: Player | None = None
    refusal: str = ""
    alerts: list[str] = field(default_factory=list)
    note: str = ""


@dataclass(frozen=True)
class ForumSubmission(Submission):
    """A post as a Submission, with what only a post has."""

    raw: str = ""
    """The post as written, quotes and comments included: searched for secrets."""
    addressed: bool = True
    """Written to pbem (see `addressed`); False for table talk read only because it may hold a secret."""
    leaks: list[Leak] = field(default_factory=list, compare=False)
    """Filled by `admit`: whose real secrets the post shows (their owners are told)."""


def message_id(kind: str, campaign: str, post: Post) -> str:
    """Stable per post, so the message journal recognises a post read twice; made only of the
    forum's kind and its own post id."""
    return f"<forum-post-{kind}-{post.id}@{campaign}>"


def player_of(settings: Settings, account: str) -> Player | None:
    key = account.casefold()
    return next((p for p in settings.players if p.forum and p.forum.casefold() == key), None)


def post_text(raw: str, bot: str) -> str:
    """The lines pbem reads: quotes of other posts, code fences, hidden comments and the
    mention of the bot are not orders."""
    text = COMMENT.sub("", QUOTE.sub("", raw.replace("\r\n", "\n")))
    mention = re.compile(rf"^\s*@{re.escape(bot)}\b[:,]?\s*", re.IGNORECASE)
    lines = [mention.sub("", line) for line in text.split("\n")
             if not line.lstrip().startswith(">") and not FENCE.fullmatch(line)]
    return "\n".join(lines).strip("\n")


def addressed(post: Post, forum: ForumSettings) -> bool:
    """Is this post for pbem? Private messages always; in the thread, see the module notes."""
    return written_to_pbem(post, forum) or (not post.private and looks_secret(post.text))


def written_to_pbem(post: Post, forum: ForumSettings) -> bool:
    if post.private:
        return True
    lines = significant_lines(COMMENT.sub("", QUOTE.sub("", post.text)))
    if not lines:
        return False
    # "Wait, what?", "Ready when you are", "Mail is slow": table talk too often; these words in the thread need @bot
    known = {*forum.public_words, *ENGINE_COMMANDS, *SECRET_WORDS, "CAMPAIGN"} - \
        {"READY", "WAIT", "MAIL", "ABSENT", "STANDING"}
    first = lines[0][1].split()[0].upper().rstrip(":,")
    mentions = re.search(rf"(^|\s)@{re.escape(forum.bot)}\b", post.text, re.IGNORECASE) is not None
    carries_secret = any(line.split()[0].upper() in SECRET_WORDS for _, line in lines)
    return first in known or mentions or carries_secret


def to_submission(settings: Settings, kind: str, forum: ForumSettings, post: Post) -> ForumSubmission:
    account = post.author.strip() or NO_AUTHOR
    player = player_of(settings, account)
    text = post_text(post.text, forum.bot)
    size = len(post.text.encode("utf-8"))
    too_large = size > settings.max_mail_bytes
    return ForumSubmission(
        message_id=message_id(kind, settings.name, post), sender=player.email if player else "",
        sender_name=account, subject=f"[{settings.name}] {post.title or 'forum post'}", date=post.created,
        text="" if too_large else text, references=(), auto="", size=size, too_large=too_large, problems=(),
        forum_account=account, public=not post.private, raw=post.text,
        addressed=written_to_pbem(post, forum),
    )


def admit(settings: Settings, forum: ForumSettings, sub: Submission, env: Envelope,
          secret_of: Callable[[Player], str]) -> Verdict:
    where = f"{'public post' if sub.public else 'private message'} {sub.message_id}"
    account = sub.forum_account
    player = player_of(settings, account)
    if sub.public:
        found = leaks(settings, getattr(sub, "raw", sub.text), secret_of, player)
        if isinstance(sub, ForumSubmission):
            sub.leaks.extend(found)
        if found:
            return _leaked(player, account, where, found)
        if not getattr(sub, "addressed", True):
            return Verdict(note="ignored: table talk")
    if settings.gm.forum and account.casefold() == settings.gm.forum.casefold():
        return Verdict(note="ignored: the game master's forum account (GM commands come by mail)")
    if player is None:
        alert = (f"The {where} by forum account {account!r} was ignored: no player of this campaign has "
                 f"that account (to accept it, set forum = \"{account}\" in his [[players]] entry).")
        return Verdict(alerts=[alert], note="ignored: unknown forum account")
    if sub.public:
        if env.secret or any(c.startswith("PASSWORD") for _, c in env.commands):
            return _secret_line(player)
        return _public_orders(player, env, forum)
    if env.gm:
        return Verdict(player, "game master commands are taken by mail (a `GM` line) or on the command line, "
                               "never from the forum", note="refused: GM line in a forum post")
    if env.player and settings.player(env.player) != player:
        return Verdict(player, f"this forum account belongs to {player.id}, but the PLAYER line names "
                               f"{env.player!r}", note="refused: PLAYER line names someone else")
    return Verdict(player)


def _leaked(author: Player | None, account: str, where: str, found: Sequence[Leak]) -> Verdict:
    """Refuse a post showing real secrets; the GM hears whose (the engine tells the owners)."""
    others = [leak for leak in found if leak.gm or leak.owner != author]
    names = ", ".join("the game master's own" if leak.gm else f"{leak.owner.name}'s ({leak.owner.id})"
                      for leak in others)
    alerts = []
    if len(others) < len(found) and author is not None:
        alerts.append(f"{author.name} ({author.id}) posted his current secret in the {where}; nothing in it was "
                      "acted on and he was told to change it. Remove or hide the post on the forum.")
    if others:
        change = " Change your own secret at once." if any(leak.gm for leak in others) else ""
        alerts.append(f"The {where} by forum account {account!r} shows a secret: {names}. Nothing in it was acted "
                      f"on; each player whose secret it shows was told by mail to change it.{change} "
                      "Remove or hide the post on the forum.")
    if author is None:
        return Verdict(alerts=alerts, note="ignored: a secret in a public post by an unknown account")
    reason = _OWN_SECRET if len(others) < len(found) else ""
    if others:
        reason = (reason + ". Also: " if reason else "") + (
            "your post shows someone else's secret (another player's or the game master's), and the thread is "
            "public. Its owner has been told to change it; remove the post")
    return Verdict(author, reason, alerts, note="refused: secret in a public post")


_OWN_SECRET = ("your post carries your secret, and the thread is public: anyone may now sign mail as you. "
               "Change it at once by mail with a line `PASSWORD <new secret>` (under your usual PLAYER line), "
               "and ask the game master to remove the post. In the forum thread you never need the secret: "
               "the forum account identifies you")


def _secret_line(player: Player) -> Verdict:
    reason = ("your post has a line that carries a secret (PLAYER, FACTION, GM or PASSWORD), and the thread is "
              "public. Never put a secret in a forum post: the forum account identifies you. If the line held "
              "a real secret of yours, change it by mail with `PASSWORD <new secret>`")
    return Verdict(player, reason, note="refused: secret line in a public post")


def throttle(forum_state: dict[str, Any], account: str, note: str, alerts: list[str], now: datetime) -> list[str]:
    """The alerts the GM may hear now: one per forum account and kind of problem (the note) a
    day, like mail's login failures; what is held back is dropped, the post stays journalled."""
    if not alerts:
        return []
    sent = forum_state.setdefault("alerted", {})
    ALERTS.forget(sent, now)
    return alerts if ALERTS.admit(sent, f"{account.casefold()} {note}", now) else []


def _public_orders(player: Player, env: Envelope, forum: ForumSettings) -> Verdict:
    if forum.public_orders:
        return Verdict(player)
    words = [text.split()[0].upper() for _, text in env.lines + env.commands]
    private = sorted({w for w in words if w not in forum.public_words})
    if not private:
        return Verdict(player)
    allowed = ", ".join(forum.public_words) or "nothing"
    reason = (f"everyone reads the campaign thread, and orders posted there would show your plans to your "
              f"opponents ({', '.join(private)}). A public post may carry only: {allowed}. Send your orders in a "
              f"private message to @{forum.bot} or by mail")
    return Verdict(player, reason, note="refused: orders in a public post")
