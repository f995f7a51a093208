"""Handing a player's seat to someone else (`REPLACE`, `pbem replace`).

Campaigns run for months; players drop out. The seat (player id, faction,
orders on file, everything in the game) stays; the person changes: a new
address and name in `campaign.toml`, a fresh generated secret sent only to the
new address in a welcome mail, any secret the old player chose forgotten, and
a short note to the old address. `campaign.toml` is rewritten with tomli-w, so
hand-written comments in it do not survive a replacement.

A crash after the welcome mail is queued but before the GM's message is
journalled makes the next tick replace again with another secret; the welcome
mails are keyed by their secret's digest, so the later (valid) one is sent too.
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from pbem.delivery.replies import Reply
from pbem.state import credentials
from pbem.state.campaign import Campaign, load_settings
from pbem.state.store import read_toml, write_toml


def replace_player(camp: Campaign, words: list[str], now: datetime) -> tuple[str, list[Reply]]:
    """`REPLACE <player> <email> [name...]`: returns the GM's line and the mails to send."""
    if len(words) < 2:
        raise ValueError("write REPLACE <player> <email> [name]")
    pid, email, name = words[0], words[1].strip("<>").lower(), " ".join(words[2:]).strip()
    old = camp.settings.player(pid)
    if old is None:
        known = ", ".join(p.id for p in camp.settings.players)
        raise ValueError(f"no player {pid!r} (players: {known})")
    if "@" not in email or " " in email:
        raise ValueError(f"{email!r} is not a mail address")
    if any(p.email == email and p.id != pid for p in camp.settings.players) or email in camp.settings.gm.emails:
        raise ValueError(f"{email} already plays in {camp.name}")
    secret = credentials.generate()
    path = camp.folder / "campaign.toml"
    raw = read_toml(path)
    entry = next(p for p in raw["players"] if p["id"] == pid)
    entry.update(email=email, secret=credentials.hash_generated(secret))
    if name:
        entry["name"] = name
    write_toml(path, raw, header=f"# Campaign {camp.name}: settings. Edit freely; secrets are hashes.")
    camp.auth.get("secrets", {}).pop(pid, None)
    camp.settings = load_settings(camp.folder)
    new = camp.settings.player(pid)
    assert new is not None
    from pbem.delivery.welcome import welcome_reply

    tag = hashlib.sha256(secret.encode()).hexdigest()[:12]
    welcome = welcome_reply(camp, new, secret, now, key=f"welcome/{pid}/{tag}")
    farewell = Reply(f"replaced/{pid}/{tag}", (old.email,), f"[{camp.name}] your place has been handed over",
                     "replaced", {"campaign": camp.settings, "player": old, "now": now}, auto_reply=False)
    mails = [welcome] if old.email == email else [welcome, farewell]
    return f"{pid} is now played by {new.name} <{email}>; a welcome mail with a new secret goes there", mails
