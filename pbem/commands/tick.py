"""`pbem tick [--root DIR] [--now TIME] [--quiet]`: the cron job. It exits with 1 when a campaign
was not processed; each such campaign is one line (on stderr with --quiet), never a traceback."""

from __future__ import annotations

import argparse
import sys
from datetime import UTC
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=Path("campaigns"), help="campaigns directory or one campaign folder")
    p.add_argument("--now", help="pretend it is this ISO time (testing, catching up)")
    p.add_argument("--quiet", action="store_true")


def run(args: argparse.Namespace) -> int:
    from datetime import datetime

    from pbem.engine import tick
    from pbem.schedule import parse_time

    now = parse_time(args.now) if args.now else datetime.now(UTC)
    log = tick(args.root, now)
    problems = [line for line in log.lines if "NOT PROCESSED" in line]
    if not args.quiet:
        print("\n".join(log.lines) or "nothing to do")
    for line in problems if args.quiet else []:      # cron mails what a quiet run writes: one line each
        print(f"pbem: {line}", file=sys.stderr)
    return 1 if problems else 0
