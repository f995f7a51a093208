"""`pbem sheet CAMPAIGN BATTLE FACTION [FILE]`: the GM enters or corrects a side's post-battle sheet.

The sheet's lines (`U1 lost 11`, `C1 killed`, `PRIORITY U1 C2`, one entry a line, as a
player sends them) come from FILE, or from standard input when FILE is `-` or left out.
It runs like the GM's mailed `SHEET <battle> <faction> <line>; <line>; ...`, and is logged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pbem.commands._common import add_campaign, gm_command
from pbem.errors import UserError


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("battle", help="battle number, e.g. 1")
    p.add_argument("faction", help="the side whose sheet it is, e.g. Red")
    p.add_argument("file", nargs="?", default="-", help="the sheet's lines (default: standard input)")


def sheet_lines(text: str) -> list[str]:
    """The entry lines: blank lines, `#` comments and a leading `SHEET ...` line are left out."""
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.strip().startswith("#")]
    if lines and lines[0].split()[0].upper() == "SHEET":
        lines = lines[1:]
    return lines


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read the sheet: {exc}") from exc
    lines = sheet_lines(text)
    if not lines:
        raise UserError("the sheet has no lines: give one line per entry, like `U1 lost 11`")
    return gm_command(args, ["SHEET", args.battle, args.faction, "; ".join(lines)])
