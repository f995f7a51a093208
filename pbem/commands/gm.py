"""`pbem gm CAMPAIGN VERB [ARGS...]`: any game master command, as if mailed as a `GM` line.

The verbs are the engine's (RESOLVE, EXTEND, PAUSE, ...) and the rule system's for the stage
now open (RESULT, APPROVE, DRAW, ...), from one registry (pbem/gm/desk.py): a rule system's new
verb is here without a new command. `pbem gm CAMPAIGN HELP` (or `--help`) lists those open now.
`pbem extend`, `pbem approve` and the other GM commands are the same verbs under their own names.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pbem.commands._common import campaign_folder, gm_command


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("-h", "--help", action="store_true", dest="verbs_help",
                   help="list the GM commands open now in CAMPAIGN, with their usage")
    p.add_argument("campaign", nargs="?", help="campaign name (under --root) or a campaign folder")
    p.add_argument("--root", type=Path, default=Path("campaigns"),
                   help="the folder that holds the campaigns (default: campaigns)")
    p.add_argument("words", nargs=argparse.REMAINDER, metavar="VERB [ARGS...]",
                   help="the command as a GM line by mail would give it, e.g. EXTEND 2d or RESULT 1 Red")
    p.set_defaults(_parser=p)


def run(args: argparse.Namespace) -> int:
    parser: argparse.ArgumentParser = args._parser
    _leading_root(args)
    if args.verbs_help and args.campaign is None:
        parser.print_help()
        return 0
    if args.verbs_help or (args.words and args.words[0].upper() in ("HELP", "-H", "--HELP")):
        return show_verbs(args)
    if not args.words or args.campaign is None:
        parser.print_usage()
        print("pbem gm: name the command, e.g. `pbem gm CAMPAIGN EXTEND 2d`; "
              "`pbem gm CAMPAIGN HELP` lists those open now")
        return 2
    return gm_command(args, list(args.words))


def _leading_root(args: argparse.Namespace) -> None:
    """`pbem gm CAMPAIGN --root DIR VERB ...`: the words after CAMPAIGN are the command's own, but a
    --root before the verb is still ours."""
    words = list(args.words)
    while words and ((words[0] == "--root" and len(words) > 1) or words[0].startswith("--root=")):
        value = words[0].partition("=")[2] or words[1]
        words = words[1:] if "=" in words[0] else words[2:]
        args.root = Path(value)
    args.words = words


def show_verbs(args: argparse.Namespace) -> int:
    """The verbs open now, one line each: how to write it, what it does."""
    from datetime import UTC, datetime

    from pbem.gm.desk import help_lines
    from pbem.gm.verbs import Desk
    from pbem.rulesets import registry
    from pbem.state.campaign import Campaign

    camp = Campaign(campaign_folder(args))
    desk = Desk(camp, registry.get(camp.settings.ruleset), datetime.now(UTC))
    print(f"GM commands open now in {camp.name} (pbem gm {camp.name} VERB [ARGS...], or a line by mail):")
    for line in help_lines(desk):
        print(f"  {line}")
    return 0
