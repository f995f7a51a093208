"""`pbem decide CAMPAIGN KEY CHOICE`: answer the question a resolution is waiting on."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("key", help="the question's key, as in the GM alert or `pbem status`")
    p.add_argument("choice", nargs="+", help="one of the choices the question offers")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["DECIDE", args.key, *args.choice])
