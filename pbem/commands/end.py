"""`pbem end CAMPAIGN [--reason TEXT] [--yes]`: end the campaign now, with a final report to everyone.

Ending cannot be taken back by mail, so the command asks first (or takes `--yes`); with no terminal
to ask on and no `--yes` it refuses. `pbem rollback` afterwards returns to just before the end."""

from __future__ import annotations

import argparse
import sys

from pbem.commands._common import add_campaign, campaign_folder, gm_command
from pbem.errors import UserError


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("--reason", default="", help="a few words for the final report: why the campaign ends")
    p.add_argument("--yes", action="store_true", help="end it without asking (for scripts); `pbem rollback` "
                   "afterwards returns to just before the end")


def run(args: argparse.Namespace) -> int:
    folder = campaign_folder(args)
    if not args.yes:
        if not sys.stdin.isatty():
            raise UserError(f"pbem end asks before ending {folder.name}; add --yes to end it without asking")
        answer = input(f"End {folder.name} now and send the final report to every player? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            print(f"{folder.name} goes on; nothing was changed")
            return 1
    return gm_command(args, ["FINISH", *args.reason.split()])
