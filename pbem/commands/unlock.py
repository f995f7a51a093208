"""`pbem unlock CAMPAIGN ADDRESS`: lift the lock on an address after repeated bad secrets."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("address", help="the mail address to answer again")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["UNLOCK", args.address])
