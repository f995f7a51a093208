"""`pbem draw CAMPAIGN POWER POWER ... | ALL`: the GM ends a Diplomacy game in a draw."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("powers", nargs="+", help="the surviving powers sharing the draw, or ALL for every survivor")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["DRAW", *args.powers])
