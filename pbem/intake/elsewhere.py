"""Orders that fit another campaign of the sender: a player of two campaigns who sends one
game's orders to the other is told which campaign they read as.

Asked only when nothing in a signed mail could be accepted, so the usual mail costs nothing.
The other campaigns are those of the same directory where the sender's address is a player's
(his own address: nothing is revealed of anyone else); each reads the lines as its current
stage would, without keeping anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

from pbem.rulesets import registry
from pbem.stages.turns import context
from pbem.state.campaign import Campaign, load_settings
from pbem.state.folders import discover
from pbem.state.store import StoreError


def fitting_campaign(camp: Campaign, sender: str, lines: Sequence[tuple[int, str]], now: datetime) -> str:
    """A note naming the sender's other campaign where more of `lines` read as orders, or ""."""
    best, count = None, 0
    for folder in discover(camp.folder.parent):
        if folder == camp.folder:
            continue
        accepted = _accepted(folder, sender, lines, now)
        if accepted > count:
            best, count = folder, accepted
    if best is None:
        return ""
    other = Campaign(best).settings
    return (f"These lines read as orders of your other campaign, {other.title} ({count} of {len(lines)}): "
            f"if they were meant for it, send them to {other.address} with `[{other.name}]` in the subject "
            "and your `PLAYER` line of that campaign.")


def _accepted(folder: Path, sender: str, lines: Sequence[tuple[int, str]], now: datetime) -> int:
    """How many of `lines` the campaign in `folder` would accept from the player at `sender`."""
    try:
        if not load_settings(folder).players_at(sender):
            return 0         # decided from campaign.toml alone, without reading the game
        other = Campaign(folder)
        player = other.settings.players_at(sender)[0]
        ruleset = registry.get(other.settings.ruleset)
        ctx = context(other, now)
        if player.id not in ruleset.stage(ctx).owing:
            return 0
        return len(ruleset.parse(ctx, player, lines).accepted)
    except (ValueError, LookupError, StoreError, OSError):
        return 0       # a campaign that cannot be read now is no answer
