"""`pbem tick [--root DIR] [--now TIME]`: the cron job."""

from __future__ import annotations

import argparse
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
    if not args.quiet:
        print("\n".join(log.lines) or "nothing to do")
    return 1 if any("NOT PROCESSED" in line for line in log.lines) else 0
