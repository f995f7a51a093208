"""`pbem absent CAMPAIGN PLAYER FIRST LAST [NOTE...]` (or `PLAYER NONE`): a player's absence, as
his own `ABSENT` would record it (pbem/stages/absence.py)."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command
from pbem.commands._time import NOW_HELP, moment


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("player", help="the player id, name or faction")
    p.add_argument("days", nargs="+", help="the first and last day away, e.g. 2027-05-05 2027-05-09, then an "
                   "optional note; or NONE to withdraw his absences not yet over")
    p.add_argument("--now", metavar="TIME", help=NOW_HELP)


def run(args: argparse.Namespace) -> int:
    now = moment(args.now, "--now") if args.now else None
    return gm_command(args, ["ABSENT", args.player, *args.days], now=now)
