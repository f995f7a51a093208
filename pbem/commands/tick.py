"""`pbem tick [--root DIR] [--now TIME] [--quiet | --log]`: the cron job. It exits with 1 when a
campaign was not processed, each such campaign one line (on stderr with --quiet or --log), never a
traceback; with 2 when the campaigns folder does not exist (a typo in the crontab)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC
from pathlib import Path

from pbem.commands._time import NOW_HELP


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=Path("campaigns"),
                   help="the folder that holds the campaigns, or one campaign folder (default: campaigns)")
    p.add_argument("--now", metavar="TIME", help=NOW_HELP + "; moves the clock of every campaign under --root, so "
                   "give one campaign's folder to try that one out")
    quiet = p.add_mutually_exclusive_group()
    quiet.add_argument("--quiet", action="store_true", help="print only problems, on stderr (for cron)")
    quiet.add_argument("--log", action="store_true",
                       help="print one line with the time and what the tick did, and each problem on stderr "
                            "(for a log file, as cron/pbem-tick writes)")


def run(args: argparse.Namespace) -> int:
    from datetime import datetime

    from pbem.commands._time import moment
    from pbem.state.schedule import iso
    from pbem.tick.engine import tick

    now = moment(args.now, "--now") if args.now else datetime.now(UTC)
    if not args.root.is_dir():       # a typo in the crontab must not read as "nothing to do"
        print(f"pbem tick: no folder {args.root}; give the campaigns folder with --root", file=sys.stderr)
        return 2
    log = tick(args.root, now)
    problems = [line for line in log.lines if "NOT PROCESSED" in line]
    stamp = f"{iso(now)} " if args.log else ""
    if args.log:
        print(f"{stamp}tick: {log.summary()}", flush=True)
    elif not args.quiet:
        print("\n".join(log.lines) or "nothing to do")
    for line in problems if args.quiet or args.log else []:   # cron mails what a quiet run writes
        print(f"{stamp}pbem: {line}", file=sys.stderr)
    return 1 if problems else 0
