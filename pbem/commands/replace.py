"""`pbem replace CAMPAIGN PLAYER EMAIL [NAME...]`: hand a player's seat to someone else."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("player", help="the player id whose seat changes hands")
    p.add_argument("email", help="the new player's address")
    p.add_argument("name", nargs="*", help="the new player's name")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["REPLACE", args.player, args.email, *args.name])
