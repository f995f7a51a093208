"""`pbem extend CAMPAIGN 2d` or `pbem extend CAMPAIGN 2026-11-30T20:00` (in the campaign's time zone)."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command
from pbem.commands._time import EXAMPLES, NOW_HELP, duration_or_moment, moment


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("by", help=f"how long to add to the deadline, or the new deadline: {EXAMPLES}; a date and time "
                   "is read in the campaign's time zone ([schedule] timezone) unless it has an offset, e.g. "
                   "2026-11-30T20:00+01:00 or 2026-11-30T19:00Z; a time already past is refused")
    p.add_argument("--now", metavar="TIME", help=NOW_HELP)


def run(args: argparse.Namespace) -> int:
    duration_or_moment(args.by)       # a typo is answered before the campaign is opened
    now = moment(args.now, "--now") if args.now else None
    return gm_command(args, ["EXTEND", args.by], now=now)
