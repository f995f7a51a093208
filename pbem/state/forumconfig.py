"""`[transport.forum]` in campaign.toml: which forum, and what a public post may carry.

    [transport.forum]
    kind = "folder"                  # or "discourse" (any `pbem.forums` entry point); leave the table out for no forum
    path = "forum"                   # folder: the thread's directory (relative to the campaign folder)
    bot = "pbem"                     # the account pbem posts as (Discourse: the API username, required)
    url = "https://forum.example.org"    # discourse: the site
    topic = 1234                     # discourse: the campaign's thread (topic id)
    credentials = "/etc/pbem/discourse-rift.toml"   # discourse: api_key and username, outside campaign.toml
    timeout = 30                     # discourse: seconds one whole request may take (a slow site waits)
    public_orders = false            # true: orders may be posted in the public thread
    public_words = ["RESULT", "HELP", "STATUS"]     # what a public post may carry otherwise

Players register their forum account in their `[[players]]` entry (`forum = "alice"`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pbem.plugins import FORUMS

PUBLIC_WORDS = ("RESULT", "HELP", "STATUS")
"""Battle results are known to both sides and published anyway; HELP and STATUS only shape the
answer, which goes by mail. Orders are secret until the deadline, so they stay out by default."""
KEYS = {"kind", "path", "bot", "url", "topic", "credentials", "public_orders", "public_words", "timeout"}
TIMEOUT = 30.0
MAX_TIMEOUT = 600


class KindCheck(Protocol):
    """What the settings check asks of a forum kind (pbem.forum.base.ForumKind, found through the
    registry: the campaign's files know no forum code)."""

    def problems(self, raw: Mapping[str, object], where: str) -> list[str]:
        """What this kind needs of the `[transport.forum]` table beyond the common keys."""
        ...


@dataclass(frozen=True)
class ForumSettings:
    kind: str
    path: str = "forum"
    bot: str = "pbem"
    url: str = ""
    topic: int = 0
    credentials: str = ""
    public_orders: bool = False
    public_words: tuple[str, ...] = PUBLIC_WORDS
    timeout: float = TIMEOUT


def forum_settings(raw: Mapping[str, Any]) -> ForumSettings | None:
    """The settings of a checked `[transport.forum]` table; None when there is no forum."""
    if not raw:
        return None
    return ForumSettings(
        kind=str(raw["kind"]), path=str(raw.get("path", "forum")), bot=str(raw.get("bot", "pbem")),
        url=str(raw.get("url", "")).rstrip("/"), topic=int(raw.get("topic", 0)),
        credentials=str(raw.get("credentials", "")), public_orders=bool(raw.get("public_orders", False)),
        public_words=tuple(str(w).upper() for w in raw.get("public_words", PUBLIC_WORDS)),
        timeout=float(raw.get("timeout", TIMEOUT)),
    )


def forum_problems(raw: Any, accounts: Sequence[tuple[str, str]]) -> list[str]:
    """Every problem of `[transport.forum]` and of the players' `forum` accounts, each with its key.

    `accounts` pairs a player's place in campaign.toml with his forum account ("" for none)."""
    problems = [f"{where}.forum: the account {name!r} is registered twice"
                for i, (where, name) in enumerate(accounts)
                if name and name.casefold() in {n.casefold() for _, n in accounts[:i]}]
    if not raw:
        return problems
    where = "transport.forum"
    if not isinstance(raw, Mapping):
        return [*problems, f"{where}: expected a table"]
    problems += [f"{where}.{key}: unknown key; expected one of {', '.join(sorted(KEYS))}" for key in raw
                 if key not in KEYS]
    problems += _kind_problems(raw, where)
    if "public_orders" in raw and not isinstance(raw["public_orders"], bool):
        problems.append(f"{where}.public_orders: true or false")
    words = raw.get("public_words", [])
    if not isinstance(words, list) or not all(isinstance(w, str) and w.strip() for w in words):
        problems.append(f"{where}.public_words: a list of command words, e.g. [\"RESULT\"]")
    elif {w.upper() for w in words} & {"PASSWORD", "PLAYER", "FACTION", "GM"}:
        problems.append(f"{where}.public_words: PASSWORD, PLAYER, FACTION and GM lines carry secrets "
                        "and are never read from a public post")
    timeout = raw.get("timeout", TIMEOUT)
    if isinstance(timeout, bool) or not isinstance(timeout, int | float) or not 0 < timeout <= MAX_TIMEOUT:
        problems.append(f"{where}.timeout: seconds a whole request to the forum may take, "
                        f"a number from 1 to {MAX_TIMEOUT} (default {TIMEOUT:g})")
    for key in ("path", "bot", "credentials"):
        if key in raw and (not isinstance(raw[key], str) or not raw[key].strip()):
            problems.append(f"{where}.{key}: non-empty text")
    return problems


def _kind_problems(raw: Mapping[str, Any], where: str) -> list[str]:
    """A known kind (a `pbem.forums` entry point, pbem/plugins.py), and what that kind needs."""
    kind, kinds = raw.get("kind"), FORUMS.names()
    if kind not in kinds:
        return [f"{where}.kind: {kind!r}; expected one of {', '.join(kinds)}"]
    forum: KindCheck = FORUMS.load(str(kind))
    return forum.problems(raw, where)
