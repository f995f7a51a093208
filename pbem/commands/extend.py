"""`pbem extend CAMPAIGN 2d` or `pbem extend CAMPAIGN 2026-11-30T20:00`."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command
from pbem.commands._time import EXAMPLES, duration_or_moment


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("by", help=f"how long to add to the deadline, or the new deadline: {EXAMPLES}")


def run(args: argparse.Namespace) -> int:
    duration_or_moment(args.by)       # a typo is answered before the campaign is opened
    return gm_command(args, ["EXTEND", args.by])
