"""`pbem result CAMPAIGN BATTLE WINNER|draw [massacred] [obliterated]`: the GM's word on a battle."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("battle", help="battle number, e.g. 1")
    p.add_argument("outcome", nargs="+", help="winning faction or 'draw', then optionally 'massacred', 'obliterated'")


def run(args: argparse.Namespace) -> int:
    return gm_command(args, ["RESULT", args.battle, *args.outcome])
