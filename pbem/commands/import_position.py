"""`pbem import CAMPAIGN POSITION.toml [--force]`: start a campaign at any turn and stage from a
position written by hand, in the rule system's position format (see README, "Starting from a
position"). Every problem of the position is one line, and nothing is written unless it all
reads; a campaign already played is replaced only with --force."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.commands._common import add_campaign, campaign_folder

if TYPE_CHECKING:
    from datetime import datetime

    from pbem.gm.positions import Position


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("position", type=Path, help="the position file (TOML), e.g. turn7.toml")
    p.add_argument("--force", action="store_true",
                   help="replace the game of a campaign that has already been played (its history is set aside)")


def run(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from pbem.gm.positions import read_position

    folder = campaign_folder(args)
    position = read_position(args.position)      # a broken file is answered before the campaign is opened
    state = folder / "state.toml"
    made = not state.exists()        # a campaign.toml written by hand: an empty state to open it with
    if made:
        state.write_text("", encoding="utf-8")
    code = 1
    try:
        code = _start(folder, position, datetime.now(UTC), args.force)
    finally:
        if made and code != 0:
            state.unlink()
    return code


def _start(folder: Path, position: Position, now: datetime, force: bool) -> int:
    from pbem.delivery.mails import build_mail
    from pbem.delivery.outqueue import enqueue
    from pbem.gm.positions import start_campaign
    from pbem.rulesets import registry
    from pbem.rulesets.base import PositionError
    from pbem.state.campaign import Campaign
    from pbem.state.store import campaign_lock

    with campaign_lock(folder):
        camp = Campaign(folder)
        ruleset = registry.get(camp.settings.ruleset)
        try:
            stage, mails = start_campaign(camp, ruleset, position, now, force)
        except PositionError as exc:
            for problem in exc.problems:
                print(f"pbem import: {exc.source}: {problem}", file=sys.stderr)
            return 2
        for reply in mails:                  # delivered by the next tick
            enqueue(folder, build_mail(camp, ruleset, reply, now))
        camp.save()
    print(f"{camp.name}: started at {stage.title} from {position.source}; each player is mailed what to send "
          "(the mail goes out with the next tick)")
    return 0
