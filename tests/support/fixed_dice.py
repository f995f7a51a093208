"""Fixed dice secrets for a test campaign: every turn's secret drawn from a label, written before
the first tick publishes a commitment, so that a campaign plays the same game on every run."""

from __future__ import annotations

import hashlib
from pathlib import Path

from pbem.state.store import write_toml


def fix_dice(folder: Path, label: str, turns: int) -> None:
    """Turns 0 to `turns` - 1 of the campaign in `folder` get the secrets `label` derives."""
    secrets = {str(n): hashlib.sha256(f"{label}, turn {n}".encode()).hexdigest() for n in range(turns)}
    write_toml(folder / "private" / "dice.toml", {"secrets": secrets})
