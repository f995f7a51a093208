"""`pbem new NAME --player id,Name,email[,Faction[,F]] ...`"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("name", help="campaign name: folder name and mail tag, e.g. rift-2026")
    p.add_argument("--root", type=Path, default=Path("campaigns"), help="campaigns directory (default: campaigns)")
    p.add_argument("--ruleset", default="daemon_rift")
    p.add_argument("--map", default="", help="a map in rules/maps/ (without .toml) or a path "
                   "(default: the ruleset's own, e.g. rift_valley, standard)")
    p.add_argument("--player", action="append", required=True, metavar="SPEC",
                   help="id,Name,email[,Faction name[,token prefix]]; repeat per player, in faction order "
                        "(Diplomacy: the faction name is the power, e.g. eng,Alice,alice@example.org,England)")
    p.add_argument("--gm-email", required=True)


def run(args: argparse.Namespace) -> int:
    from pbem.creation import NewPlayer, create, welcome_replies
    from pbem.engine import build_mail
    from pbem.outqueue import enqueue
    from pbem.rulesets import registry

    now = datetime.now(UTC)
    players = [NewPlayer.parse(s) for s in args.player]
    camp, secrets = create(args.root, args.name, args.ruleset, args.map, players, args.gm_email, now)
    ruleset = registry.get(camp.settings.ruleset)
    for reply in welcome_replies(camp, secrets, now):
        enqueue(camp.folder, build_mail(camp, ruleset, reply, now))
    print(f"created {camp.folder}; welcome mails with each secret are queued: run `pbem tick --root {args.root}`")
    return 0
