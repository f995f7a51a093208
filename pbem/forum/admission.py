"""Forum posts as submissions: who wrote them, and what a public post may carry.

Identity: the forum authenticates its users, so a post is attributed to the player whose
`forum` account (in his `[[players]]` entry) wrote it; no `PLAYER <id> <secret>` line is
needed. A public post must never carry a secret: a post with a PLAYER, FACTION or GM line
that has a secret, a PASSWORD line, or the author's own generated secret anywhere in it is
refused, nothing in it is acted on, and its author is told by mail to change his secret
(the game master too, when it was the real one).

Secrecy of orders: everyone reads the public thread, so by default a public post may carry
only what is public by nature: RESULT (both sides report a battle everyone hears of), HELP
and STATUS (the answer goes by mail). A post with anything else is refused as a whole and
its author told to send orders privately: a private message to the bot, or mail. A
campaign that plays in the open sets `[transport.forum] public_orders = true`.

Table talk: in the public thread pbem reads only posts addressed to it, those whose first
line starts with a command word it knows or with `@<bot>`, and any post carrying a secret
(to refuse it). Every private message to the bot is a submission.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pbem import credentials
from pbem.campaign import Player, Settings
from pbem.envelope import ENGINE_COMMANDS, Envelope
from pbem.forum.base import Post
from pbem.forum.config import ForumSettings
from pbem.mail.message import Submission
from pbem.orders import significant_lines

SECRET_WORDS = ("PLAYER", "FACTION", "GM", "PASSWORD")
GENERATED = re.compile(r"\b[A-Z0-9]{4}(?:[- ]?[A-Z0-9]{4}){4}\b", re.IGNORECASE)
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


def message_id(kind: str, campaign: str, post: Post) -> str:
    """Stable per post, so the message journal recognises a post read twice."""
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
    if post.private:
        return True
    lines = significant_lines(COMMENT.sub("", QUOTE.sub("", post.text)))
    if not lines:
        return False
    known = {*forum.public_words, *ENGINE_COMMANDS, *SECRET_WORDS, "CAMPAIGN"}
    first = lines[0][1].split()[0].upper().rstrip(":,")
    mentions = re.search(rf"(^|\s)@{re.escape(forum.bot)}\b", post.text, re.IGNORECASE) is not None
    carries_secret = any(line.split()[0].upper() in SECRET_WORDS for _, line in lines)
    return first in known or mentions or carries_secret


def to_submission(settings: Settings, kind: str, forum: ForumSettings, post: Post) -> Submission:
    player = player_of(settings, post.author)
    text = post_text(post.text, forum.bot)
    size = len(post.text.encode("utf-8"))
    too_large = size > settings.max_mail_bytes
    return Submission(
        message_id=message_id(kind, settings.name, post), sender=player.email if player else "",
        sender_name=post.author, subject=f"[{settings.name}] {post.title or 'forum post'}", date=post.created,
        text="" if too_large else text, references=(), auto="", size=size, too_large=too_large, problems=(),
        forum_account=post.author, public=not post.private,
    )


def admit(settings: Settings, forum: ForumSettings, sub: Submission, env: Envelope,
          secret_of: Callable[[Player], str]) -> Verdict:
    where = f"{'public post' if sub.public else 'private message'} {sub.message_id}"
    account = sub.forum_account
    if settings.gm.forum and account.casefold() == settings.gm.forum.casefold():
        return Verdict(note="ignored: the game master's forum account (GM commands come by mail)")
    player = player_of(settings, account)
    if player is None:
        alert = (f"The {where} by forum account {account!r} was ignored: no player of this campaign has "
                 f"that account (to accept it, set forum = \"{account}\" in his [[players]] entry).")
        return Verdict(alerts=[alert], note="ignored: unknown forum account")
    if sub.public:
        leaked = _secret_in(sub, env, player, secret_of)
        if leaked:
            return _leak(player, where, leaked)
        return _public_orders(player, env, forum)
    if env.gm:
        return Verdict(player, "game master commands are taken by mail (a `GM` line) or on the command line, "
                               "never from the forum", note="refused: GM line in a forum post")
    if env.player and settings.player(env.player) != player:
        return Verdict(player, f"this forum account belongs to {player.id}, but the PLAYER line names "
                               f"{env.player!r}", note="refused: PLAYER line names someone else")
    return Verdict(player)


def _secret_in(sub: Submission, env: Envelope, player: Player, secret_of: Callable[[Player], str]) -> str:
    """"current" if the author's own secret is in the post, "line" for any other secret-bearing line."""
    stored = secret_of(player)
    candidates = [env.secret] if env.secret else []
    candidates += [c.partition(" ")[2] for _, c in env.commands if c.startswith("PASSWORD ")]
    if stored.startswith("sha256:"):   # cheap to test; a chosen (scrypt) secret is caught by its line only
        candidates += [m.group(0) for m in GENERATED.finditer(sub.text)]
    if any(credentials.check(c, stored) for c in candidates if c):
        return "current"
    secret_lines = env.secret or any(c.startswith("PASSWORD") for _, c in env.commands)
    return "line" if secret_lines else ""


def _leak(player: Player, where: str, leaked: str) -> Verdict:
    if leaked == "current":
        reason = ("your post carries your secret, and the thread is public: anyone may now sign mail as you. "
                  "Change it at once by mail with a line `PASSWORD <new secret>` (under your usual PLAYER line), "
                  "and ask the game master to remove the post. In the forum thread you never need the secret: "
                  "the forum account identifies you")
        alert = (f"{player.name} ({player.id}) posted his current secret in the {where}; nothing in it was "
                 "acted on and he was told to change it. Remove or hide the post on the forum.")
        return Verdict(player, reason, [alert], note="refused: secret in a public post")
    reason = ("your post has a line that carries a secret (PLAYER, FACTION, GM or PASSWORD), and the thread is "
              "public. Never put a secret in a forum post: the forum account identifies you. If the line held "
              "a real secret of yours, change it by mail with `PASSWORD <new secret>`")
    return Verdict(player, reason, note="refused: secret line in a public post")


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
