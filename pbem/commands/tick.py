"""`pbem tick [--root DIR] [--now TIME] [--quiet | --log]`: the cron job. Each problem is one line
(on stderr with --quiet or --log), never a traceback; the exit status says the worst (EXIT_STATUSES)."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC
from pathlib import Path

from pbem.commands._time import NOW_HELP

EXIT_STATUSES = """exit status: 0 all went well; 1 a campaign (or the shared mailbox of pbem.toml) was not
processed; 2 the campaigns folder does not exist (a typo in the crontab); 3 every campaign was
processed, but a mailbox or mail server could not be used (a wrong password or folder, a missing
password variable, a server that is down): the campaign waits for its mail, and its GM is told once
by the mail that still works, otherwise only here and in `pbem status`"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.epilog, p.formatter_class = EXIT_STATUSES, argparse.RawDescriptionHelpFormatter
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
    stamp = f"{iso(now)} " if args.log else ""
    if args.log:
        print(f"{stamp}tick: {log.summary()}", flush=True)
    elif not args.quiet:
        print("\n".join(log.lines) or "nothing to do")
    for line in log.problems if args.quiet or args.log else []:   # cron mails what a quiet run writes
        print(f"{stamp}pbem: {line}", file=sys.stderr)
    return log.status()
