"""`pbem extend CAMPAIGN 2d` or `pbem extend CAMPAIGN 2026-11-30T20:00`."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("by", help="a duration to add (2d, 12h) or a new ISO deadline")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["EXTEND", args.by])
