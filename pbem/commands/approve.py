"""`pbem approve CAMPAIGN TOKEN|ALL`: approve army lists waiting for the GM (Daemon Rift)."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("tokens", nargs="+", metavar="TOKEN|ALL",
                   help="the token whose list to approve, as in the GM alert (e.g. R-1), several, or ALL")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["APPROVE", *args.tokens])
