"""One tick: intake -> GM desk -> due stages -> reminders -> delivery, as a list of named steps.

`tick()` is what cron runs every few minutes. The shared mailbox (pbem.toml) is read first, for
every campaign at once; then each campaign with work takes its steps (pbem/tick/campaign.py)
under its lock and behind its own boundary. A campaign with nothing to do is passed over after
one small file is read (pbem/tick/idle.py), so an idle tick costs little more than starting Python.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.state.folders import SITE_FILE, discover, site_root
from pbem.tick import idle
from pbem.tick.log import TickLog

if TYPE_CHECKING:
    from pbem.tick.faults import Faults


def tick(root: Path, now: datetime, faults: Faults | None = None, log: TickLog | None = None) -> TickLog:
    log = log or TickLog()
    folders = discover(root)
    if not (site_root(root) / SITE_FILE).exists():      # no shared mailbox: idle campaigns are known now
        folders = [folder for folder in folders if not idle.skippable(folder, now)]
        if not folders:
            return log
    # the steps of a tick with work bring in Jinja, Markdown, the mail stack and the rule systems:
    # loaded here, so an idle tick never imports them
    from pbem.tick.campaign import tick_busy

    return tick_busy(root, folders, now, faults, log)
