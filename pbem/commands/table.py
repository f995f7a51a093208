"""`pbem table CAMPAIGN [--dice typed] [--serve [--port N]]`: club night. A Wandering Tribes
strategic round (mode together) played live at the table, player by player in the published
sequence: each player's order typed in the mail's syntax (or the one he mailed, confirmed),
acknowledged as a mail is, his command tests rolled on screen with the turn's verifiable dice
(or typed in from real dice with `--dice typed`), and his round stored with the map picture as
soon as it is played. Stopped half way, `pbem table CAMPAIGN` goes on with the next player whose
round is not played; the tick leaves a round under way at the table alone (`pbem resolve
CAMPAIGN` has the next tick play the rest from the orders on file). README: "Club night"."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from pbem.commands._common import add_campaign, campaign_folder

if TYPE_CHECKING:
    from pbem.table.session import Sitting

TYPED = "typed"
DESCRIPTION = (
    "Play the open strategic round of a Wandering Tribes campaign (mode together) live at the table. The round's "
    "order roll and sequence are shown; each player in turn gives his order as lines typed in the mail's syntax "
    "(an empty line ends it; HELP shows the syntax with his stacks), or uses the order he mailed, and the screen "
    "answers as the acknowledgement mail would. Command tests are rolled on screen with the turn's verifiable dice "
    "(`pbem verify-dice`), or asked for with --dice typed, and each player's round is stored with its map picture "
    "as soon as it is played. Stopped half way (Ctrl-D, Ctrl-C), run it again: it goes on with the next player "
    "whose round is not played. While a round is under way at the table its deadline does not resolve it; "
    "`pbem resolve CAMPAIGN` has the next tick play the remaining players from their mailed orders. README: "
    "\"Club night\".")


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.description = DESCRIPTION
    p.add_argument("--dice", choices=(TYPED,),
                   help="`typed`: ask for each roll's value (real dice rolled at the table) instead of rolling "
                        "the turn's committed dice")
    p.add_argument("--typed-by", metavar="NAME", default="",
                   help="who rolls and types the dice with --dice typed (default: `GM <the GM's name>`)")
    p.add_argument("--serve", action="store_true",
                   help="also serve a page for a projector on 127.0.0.1: the map and the round's log, updated "
                        "after every step")
    p.add_argument("--port", type=int, default=0,
                   help="the page's port with --serve (default: any free port; the address is printed)")


def run(args: argparse.Namespace) -> int:
    from pbem.errors import UserError
    from pbem.state.campaign import Campaign
    from pbem.table.orders import Console
    from pbem.table.session import Interrupted, Sitting

    if args.typed_by and not args.dice:
        raise UserError("--typed-by names who types the dice: use it with `--dice typed`")
    if args.port and not args.serve:
        raise UserError("--port is the page's port: use it with --serve")
    folder = campaign_folder(args)
    typed_by = args.typed_by or (f"GM {Campaign(folder).settings.gm.name}" if args.dice else "")
    sitting = Sitting(folder, Console(input, print), typed_by=typed_by)
    try:
        with serving(sitting, args.serve, args.port):
            print(sitting.run())
    except Interrupted as stop:
        print(f"\npbem table: {stop}", file=sys.stderr)
        return 130
    return 0


@contextmanager
def serving(sitting: Sitting, serve: bool, port: int) -> Iterator[None]:
    """The projector's page while the sitting lasts, when --serve asks for it."""
    if not serve:
        yield
        return
    from pbem.errors import UserError
    from pbem.table.serve import Server

    try:
        server = Server(sitting.board, port)
    except OSError as exc:
        raise UserError(f"cannot serve the page on 127.0.0.1:{port}: {exc.strerror or exc}; "
                        "leave out --port to take any free port") from None
    with server:
        print(f"The table's page: {server.url} (open it in the projector's browser)", flush=True)
        yield
