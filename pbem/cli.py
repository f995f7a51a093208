"""Command line: a thin dispatcher; each command lives in `pbem.commands.<name>`.

A command module has `add_arguments(parser)` and `run(args) -> int`. Its top level
imports stay light; heavy imports go inside `run`, so `pbem tick` from cron does
not pay for the adjudicator or templates of commands it does not run.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from pbem import __version__
from pbem.errors import UserError

DESCRIPTION = ("pbem runs play-by-email wargame campaigns: players mail their orders, pbem acknowledges\n"
               "them, resolves each turn at its deadline and mails the reports.")
EPILOG = ("Start with `pbem new`, then let cron run `pbem tick` every few minutes (see cron/).\n"
          "`pbem COMMAND --help` explains one command.")

# command name -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "new": ("new", "create a campaign from a ruleset, a map and a player list"),
    "import": ("import_position", "start a campaign at any turn and stage from a position written by hand (GM)"),
    "export-position": ("export_position", "the campaign's state as a position file `pbem import` reads (GM)"),
    "tick": ("tick", "the cron job: read mail, acknowledge, resolve due turns, deliver"),
    "check-mail": ("check_mail", "log in to the campaigns' mailboxes and mail servers, changing nothing"),
    "status": ("status", "show each campaign's stage, deadline and who has submitted"),
    "orders": ("orders_cmd", "show the orders on file (GM)"),
    "gm": ("gm", "run any game master command: pbem gm CAMPAIGN VERB ... (pbem gm CAMPAIGN HELP lists them)"),
    "resolve": ("resolve", "resolve the current stage now (GM)"),
    "table": ("table", "play a Wandering Tribes strategic round live at the club table (GM)"),
    "result": ("result", "enter or override a battle result (GM)"),
    "sheet": ("sheet", "enter or correct a side's post-battle sheet (GM)"),
    "draw": ("draw", "end a Diplomacy game in a draw among surviving powers (GM)"),
    "decide": ("decide", "answer a question the resolution waits on (GM)"),
    "replace": ("replace", "hand a player's seat to someone else (GM)"),
    "extend": ("extend", "move the current deadline (GM)"),
    "absent": ("absent", "record a player's absence; his stages meanwhile use standing orders (GM)"),
    "approve": ("approve", "approve an army list waiting for the GM, or all of them (GM)"),
    "end": ("end", "end the campaign now with a final report to everyone (GM; FINISH by mail)"),
    "unlock": ("unlock", "answer mail from an address locked out after repeated bad secrets again (GM)"),
    "quarantine": ("quarantine", "list, release or drop mail whose handling kept failing (GM)"),
    "rollback": ("rollback", "restore the state before the last resolved turn (GM)"),
    "render": ("render", "draw the map pictures of a campaign's turns from history/"),
    "site": ("site", "the campaign's chronicle as a static web site: standing, charts, a page per turn"),
    "export": ("export", "a turn's public reports as BBCode for a board (phpBB and the like)"),
    "verify-dice": ("verify_dice", "recompute a turn's dice from the published secret"),
    "demo": ("demo", "build and run a demo campaign from inbox_samples/"),
    "adjudicate": ("adjudicate", "adjudicate Diplomacy positions from TOML files"),
}


OWN_HELP = {"gm"}
"""Commands whose --help is their own: `pbem gm CAMPAIGN --help` lists the campaign's GM verbs."""


class OneLineParser(argparse.ArgumentParser):
    """argparse's errors as one line that says how to find the usage, with a suggestion for a
    mistyped command, instead of the usage block followed by the error."""

    def error(self, message: str) -> NoReturn:
        if "invalid choice" in message and self.prog == "pbem":
            self.exit(2, f"pbem: {unknown_command(message)} (`pbem --help` lists the commands)\n")
        self.exit(2, f"{self.prog}: {message} (`{self.prog} --help` shows how to call it)\n")


def unknown_command(message: str) -> str:
    """"invalid choice: 'aprove' (choose from ...)" as "unknown command aprove; did you mean approve?"."""
    import difflib

    typed = message.split("'")[1] if message.count("'") >= 2 else ""
    close = difflib.get_close_matches(typed, COMMANDS, n=1, cutoff=0.6)
    return f"unknown command {typed}" + (f"; did you mean `pbem {close[0]}`?" if close else "")


def build_parser(wanted: str = "") -> argparse.ArgumentParser:
    """The parser; only the command being run imports its module."""
    parser = OneLineParser(prog="pbem", description=DESCRIPTION, epilog=EPILOG,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"pbem {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in COMMANDS.items():
        cmd = sub.add_parser(name, help=help_text, description=help_text, add_help=name not in OWN_HELP)
        cmd.set_defaults(_module=module)
        if name == wanted:
            _load(module).add_arguments(cmd)
    return parser


def _load(module: str) -> ModuleType:
    return importlib.import_module(f"pbem.commands.{module}")


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    wanted = next((a for a in argv if not a.startswith("-")), "")
    parser = build_parser(wanted)
    args = parser.parse_args(argv)
    if not getattr(args, "_module", None):
        parser.print_help()
        return 2
    try:
        code = int(_load(args._module).run(args) or 0)
        sys.stdout.flush()           # a closed pipe shows here, not in Python's own flush at exit
        return code
    except BrokenPipeError:      # `pbem status | head -1`: the reader has what it wanted
        _silence_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    except UserError as exc:
        print(f"pbem: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:    # noqa: BLE001  a broken campaign file, a full disk: one line, never a traceback
        from pbem.intake.isolation import one_line

        print(f"pbem: {one_line(exc)}", file=sys.stderr)
        return 1


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that Python's own flush at exit does not fail again."""
    import os

    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):      # not a real file (tests capture stdout): nothing to flush
        pass


if __name__ == "__main__":
    raise SystemExit(main())
