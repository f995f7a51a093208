"""`pbem export-position CAMPAIGN [--out FILE]`: the campaign's state now, written in its rule
system's position format (docs/positions/<system>.md), the file `pbem import` reads: to move a
campaign, rebuild one after a mishap, or set up a test where a campaign stands."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("--out", type=Path, help="write the position to this file instead of printing it")


def run(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from pbem.commands._common import campaign_folder
    from pbem.gm.positions import export_position
    from pbem.rulesets import registry
    from pbem.rulesets.base import PositionError
    from pbem.state.campaign import Campaign
    from pbem.state.store import write_atomic

    camp = Campaign(campaign_folder(args))
    try:
        text = export_position(camp, registry.get(camp.settings.ruleset), datetime.now(UTC))
    except PositionError as exc:
        for problem in exc.problems:
            print(f"pbem export-position: {camp.name}: {problem}", file=sys.stderr)
        return 2
    if args.out is None:
        print(text, end="")
        return 0
    write_atomic(args.out, text)
    print(f"{camp.name}: position written to {args.out}; `pbem import CAMPAIGN {args.out}` starts a campaign there")
    return 0
