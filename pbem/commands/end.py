"""`pbem end CAMPAIGN [--reason TEXT]`: end the campaign now, with a final report to everyone."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("--reason", default="", help="a few words for the final report: why the campaign ends")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["FINISH", *args.reason.split()])
