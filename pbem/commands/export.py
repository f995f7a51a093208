"""`pbem export CAMPAIGN TURN --bbcode [--tables] [--picture-url URL] [--out DIR]`: a turn's public
reports as BBCode, to paste into a phpBB (or similar) board.

The public reports are the ones the turn mailed to every player and posted to the forum thread
(`history/<turn>/public.toml` names them). Without `--out` they are printed, one after another;
with it each is written beside the others as `<report>.bbcode`.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("turn", type=int, help="the turn whose public reports to export")
    p.add_argument("--bbcode", action="store_true", help="write BBCode (the one format so far; required)")
    p.add_argument("--tables", action="store_true",
                   help="tables as [table] for boards that have the tag (default: aligned in [code])")
    p.add_argument("--picture-url", metavar="URL", default="",
                   help="where the turn's map pictures are published (e.g. the campaign archive's address); "
                        "each report then shows its picture as [img]URL/<picture>.png[/img]")
    p.add_argument("--out", type=Path, help="write <report>.bbcode files into this folder instead of printing")


def run(args: argparse.Namespace) -> int:
    from pbem.commands._common import campaign_folder
    from pbem.delivery.bbcode import to_bbcode
    from pbem.errors import UserError
    from pbem.stages.turns import public_reports
    from pbem.state.campaign import Campaign
    from pbem.state.store import write_atomic

    if not args.bbcode:
        raise UserError("name the format: --bbcode (the one there is so far)")
    camp = Campaign(campaign_folder(args))
    names = public_reports(camp, args.turn)
    if not names:
        raise UserError(f"turn {args.turn} of {camp.name} has no public report in history/ yet "
                        f"(a turn's reports are kept once its first stage has resolved)")
    for name in names:
        picture = f"{args.picture_url.rstrip('/')}/{picture_name(camp.name, args.turn, name)}" \
            if args.picture_url else ""
        text = to_bbcode((camp.history(args.turn) / name).read_text(encoding="utf-8"), tables=args.tables,
                         picture_url=picture)
        if args.out:
            write_atomic(args.out / f"{Path(name).stem}.bbcode", text)
            print(args.out / f"{Path(name).stem}.bbcode")
        else:
            print(text)
    return 0


def picture_name(campaign: str, turn: int, report: str) -> str:
    """The PNG `pbem render` writes for the stage a report file (`<stage>-<report>.md`) belongs to."""
    return f"{campaign}-turn-{turn:03d}-{report.split('-')[0]}.png"
