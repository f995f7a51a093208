"""Secrets found in a public post, wherever they hide in it.

Everyone reads the thread, so what counts is what a reader sees or can open: table talk,
`[quote]` blocks, `>` lines and HTML comments (invisible when rendered, but in the post's
source) are searched as well as the lines pbem reads as orders. Two kinds of candidate are
tried against every stored secret of the campaign, the players' and the game master's:
anything shaped like a generated secret (cheap to test: a SHA-256), and the words after a
PLAYER, FACTION, GM or PASSWORD line (a chosen secret is an scrypt hash, so only those
lines, and only a few, are tried).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from pbem import credentials
from pbem.campaign import Player, Settings

SECRET_WORDS = ("PLAYER", "FACTION", "GM", "PASSWORD")
GENERATED = re.compile(r"\b[A-Z0-9]{4}(?:[- ]?[A-Z0-9]{4}){4}\b", re.IGNORECASE)
MARKUP = re.compile(r"\[/?quote[^\]]*\]|<!--|-->", re.IGNORECASE)
MAX_CHOSEN = 4
"""Secret lines tried against chosen (scrypt) secrets per post: each try costs tens of ms."""
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


def secret_lines(raw: str) -> list[str]:
    """The words that would be a secret on each PLAYER/FACTION/GM/PASSWORD line."""
    found = []
    for line in visible_lines(raw):
        words = line.split()
        if not words or words[0].upper().rstrip(":,") not in SECRET_WORDS:
            continue
        skip = 1 if words[0].upper() in ("GM", "PASSWORD") else 2
        if len(words) > skip:
            found.append(" ".join(words[skip:]))
    return found


def looks_secret(raw: str) -> bool:
    """Might this post carry a secret? Then it is read even when it is table talk."""
    return bool(secret_lines(raw)) or any(GENERATED.search(line) for line in visible_lines(raw))


def leaks(settings: Settings, raw: str, secret_of: Callable[[Player], str]) -> list[Leak]:
    """Whose real secret is in the post (each owner once, the GM last)."""
    lines = secret_lines(raw)
    generated = list(dict.fromkeys(m.group(0) for line in visible_lines(raw) for m in GENERATED.finditer(line)))
    found = []
    for owner, gm in _owners(settings):
        stored = secret_of(owner)
        tries = generated[:MAX_GENERATED] + lines[:MAX_GENERATED] if stored.startswith("sha256:") else lines[:MAX_CHOSEN]
        if any(credentials.check(candidate, stored) for candidate in tries):
            found.append(Leak(owner, gm))
    return found


def _owners(settings: Settings) -> Iterator[tuple[Player, bool]]:
    yield from ((player, False) for player in settings.players)
    yield settings.gm, True
