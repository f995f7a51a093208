"""`pbem approve CAMPAIGN WHAT... | ALL`: approve army lists waiting for the GM (Daemon Rift, Mighty Kingdoms)."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("tokens", nargs="+", metavar="WHAT|ALL",
                   help="whose lists to approve, as in the GM alert: a token (R-1, Daemon Rift) or a player by id, "
                        "name or faction (alice, Alice, \"Red Realm\"); several, or ALL")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["APPROVE", *args.tokens])
