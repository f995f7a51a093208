"""How a player's mail comes: `MAIL immediate|digest|reports-only`.

immediate     every mail as it is made (the default)
digest        answers to mail that changed nothing important, reminders and press wait for one
              mail a day, at `[rules.mail] digest_at` in the campaign's time zone
reports-only  as digest, but the daily mail holds only what is not a plain acknowledgement

Turn reports, battle briefings and everything the GM sends always go at once. The choice is kept
in state.toml (`[mail_choice] <player> = "digest"`).
"""

from __future__ import annotations

from collections.abc import MutableMapping
from typing import Any

from pbem.state.campaign import Campaign

CHOICES = ("immediate", "digest", "reports-only")


def choice(state: MutableMapping[str, Any], player: str) -> str:
    chosen = state.get("mail_choice", {}).get(player, "immediate")
    return str(chosen) if chosen in CHOICES else "immediate"


def choose(camp: Campaign, player: str, chosen: str) -> str:
    """Keep `player`'s choice; the note his acknowledgement shows."""
    camp.state.setdefault("mail_choice", {})[player] = chosen
    if chosen == "immediate":
        return "MAIL immediate: every mail from the campaign reaches you as it is made."
    at = camp.settings.between.digest_at
    kept = "acknowledgements, reminders and press" if chosen == "digest" else "reminders and press"
    return (f"MAIL {chosen}: {kept} come in one mail a day at {at} ({camp.settings.schedule.zone.key}); "
            "turn reports and battle briefings still come at once. MAIL immediate undoes it.")
