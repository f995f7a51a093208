"""`pbem new NAME --gm-email ADDR [--address ADDR] [--timezone ZONE]
--player id,Name,email[,Faction[,F]][,field=value...] ...`"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from pbem.commands._time import NOW_HELP, moment


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="campaign name: folder name and mail tag, e.g. rift-2026")
    p.add_argument("--root", type=Path, default=Path("campaigns"), help="campaigns directory (default: campaigns)")
    from pbem.rulesets import registry

    systems = ", ".join(sorted(registry.available()))
    p.add_argument("--ruleset", default="daemon_rift", help=f"the rule system: one of {systems} "
                   "(default: daemon_rift)")
    p.add_argument("--map", default="", help="a map in rules/maps/ (without .toml) or a path (default: the "
                   "smallest ready-made map of the rule system drawn for at least as many players as you give)")
    p.add_argument("--player", action="append", required=True, metavar="SPEC",
                   help="id,Name,email[,Faction name[,token prefix]][,field=value...]; repeat per player, in "
                        "faction order (Diplomacy: the faction name is the power, e.g. eng,Alice,alice@example.org,"
                        "England); field=value sets one of the rule system's own player fields, e.g. home=3 "
                        "(a field it does not have is refused with the list of those it has)")
    p.add_argument("--address", default="", help="the campaign's own mail address, the one players write to "
                   "(default: the shared mailbox's address of pbem.toml in --root, else NAME@pbem.localhost, to "
                   "change in campaign.toml before the first tick)")
    p.add_argument("--timezone", default="", help="the time zone deadlines are set and shown in, e.g. Europe/Berlin "
                   "(default: UTC)")
    p.add_argument("--position", type=Path, default=None, metavar="FILE",
                   help="start at the turn and stage of a position written by hand (the rule system's position "
                        "format, TOML) instead of the opening")
    p.add_argument("--gm-email", required=True, help="your own address: GM alerts go there, GM commands come from it")
    p.add_argument("--now", metavar="TIME", help=NOW_HELP + "; the first deadline counts from it")


def run(args: argparse.Namespace) -> int:
    """Exit status 2, with one line per problem and nothing written, for arguments that cannot
    make a campaign."""
    from pbem.errors import UserError
    from pbem.gm.creation import CreationError, argument_problems, choose_map, create, read_players, warnings
    from pbem.gm.positions import read_position
    from pbem.rulesets import registry

    now = moment(args.now, "--now") if args.now else datetime.now(UTC)

    players, labels, problems = read_players(args.player)
    problems += argument_problems(args.root, args.name, args.ruleset, players, args.gm_email, labels,
                                  address=args.address, timezone=args.timezone)
    map_name, map_problems = choose_map(args.ruleset, args.map, len(players))
    problems += map_problems
    position = None
    try:
        position = read_position(args.position) if args.position else None
    except UserError as exc:
        problems.append(str(exc))
    try:
        if problems:
            raise CreationError(problems)
        camp, _ = create(args.root, args.name, args.ruleset, map_name, players, args.gm_email, now,
                         welcome=True, address=args.address, timezone=args.timezone, position=position)
    except CreationError as exc:
        for problem in exc.problems:
            print(f"pbem new: {problem}", file=sys.stderr)
        return 2
    told = registry.get(camp.settings.ruleset).creation_warnings(camp.settings)    # e.g. a rule too big for so few
    for warning in [*warnings(args.ruleset, map_name, players), *told]:
        print(f"pbem new: warning: {warning}", file=sys.stderr)
    print(f"created {camp.folder} on the map {camp.settings.map}; the welcome mails, one with each secret, go out "
          f"at the next `pbem tick --root {args.root}` (fix the address in campaign.toml first if it is not right)")
    return 0
