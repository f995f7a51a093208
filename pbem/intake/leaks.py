"""Secrets found in a public post, wherever they hide in it.

Everyone reads the thread, so what counts is what a reader sees or can open: table talk,
`[quote]` blocks, `>` lines and HTML comments (invisible when rendered, but in the post's
source) are searched as well as the lines pbem reads as orders. Two kinds of candidate are
tried against every stored secret of the campaign, the players' and the game master's:
anything shaped like a generated secret (cheap to test: a SHA-256), and the words after a
PLAYER, FACTION, GM or PASSWORD line. A chosen secret is an scrypt hash, a fifth of a second
a try, so it is tried only with the lines that name its owner (`PLAYER red ...` for red,
`GM ...` for the game master, `PASSWORD ...` for the author), and at most MAX_CHOSEN times
a post: nobody can make a tick slow by posting secret lines.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pbem.state import credentials
from pbem.state.campaign import Player, Settings

SECRET_WORDS = ("PLAYER", "FACTION", "GM", "PASSWORD")
GENERATED = re.compile(r"\b[A-Z0-9]{4}(?:[- ]?[A-Z0-9]{4}){4}\b", re.IGNORECASE)
MARKUP = re.compile(r"\[/?quote[^\]]*\]|<!--|-->", re.IGNORECASE)
MAX_CHOSEN = 2
"""Tries against chosen (scrypt) secrets per post: each costs about 0.2 s."""
MAX_GENERATED = 32


@dataclass(frozen=True)
class Leak:
    """A real secret of `owner` found in a post."""

    owner: Player
    gm: bool = False


def visible_lines(raw: str) -> list[str]:
    """Every line of the post's source, quote and comment markup removed and `>` unwrapped."""
    text = MARKUP.sub("\n", raw.replace("\r\n", "\n"))
    return [line.lstrip(" >\t") for line in text.split("\n")]


def secret_lines(raw: str) -> list[tuple[str, str]]:
    """(whom the line names, the words that would be a secret) for each PLAYER/FACTION/GM/PASSWORD
    line; whom is "gm" for a GM line and "" for PASSWORD (the author's own)."""
    found = []
    for line in visible_lines(raw):
        words = line.split()
        word = words[0].upper().rstrip(":,") if words else ""
        if word not in SECRET_WORDS:
            continue
        skip = 1 if word in ("GM", "PASSWORD") else 2
        if len(words) > skip:
            whom = {"GM": "gm", "PASSWORD": ""}.get(word, words[1] if len(words) > 1 else "")
            found.append((whom, " ".join(words[skip:])))
    return found


def looks_secret(raw: str) -> bool:
    """Might this post carry a secret? Then it is read even when it is table talk."""
    return bool(secret_lines(raw)) or any(GENERATED.search(line) for line in visible_lines(raw))


def leaks(settings: Settings, raw: str, secret_of: Callable[[Player], str],
          author: Player | None = None) -> list[Leak]:
    """Whose real secret is in the post (each owner once, the GM last)."""
    lines = secret_lines(raw)
    generated = list(dict.fromkeys(m.group(0) for line in visible_lines(raw) for m in GENERATED.finditer(line)))
    cheap = generated[:MAX_GENERATED] + [secret for _, secret in lines[:MAX_GENERATED]]
    found, chosen_tries = [], MAX_CHOSEN
    for owner, gm in _owners(settings):
        stored = secret_of(owner)
        if stored.startswith("sha256:"):
            tries = cheap
        else:
            tries = [secret for whom, secret in lines if _names(settings, whom, owner, gm, author)][:chosen_tries]
            chosen_tries -= len(tries)
        if any(credentials.check(candidate, stored) for candidate in tries):
            found.append(Leak(owner, gm))
    return found


def _names(settings: Settings, whom: str, owner: Player, gm: bool, author: Player | None) -> bool:
    """Does a secret line naming `whom` hold `owner`'s secret, if any?"""
    if not whom:
        return owner == author
    return whom.casefold() == "gm" if gm else settings.player(whom) == owner


def _owners(settings: Settings) -> Iterator[tuple[Player, bool]]:
    yield from ((player, False) for player in settings.players)
    yield settings.gm, True
