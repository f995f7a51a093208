"""`pbem orders CAMPAIGN [PLAYER]`: the orders on file, as the rule system reads them (GM)."""

from __future__ import annotations

import argparse
from datetime import UTC


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("player", nargs="?", default="", help="one player's id (default: every player)")


def run(args: argparse.Namespace) -> int:
    from datetime import datetime

    from pbem.commands._common import campaign_folder
    from pbem.errors import UserError
    from pbem.rulesets import registry
    from pbem.stages import turns
    from pbem.state.campaign import Campaign

    camp = Campaign(campaign_folder(args))
    ruleset = registry.get(camp.settings.ruleset)
    ctx = turns.context(camp, datetime.now(UTC))
    players = [camp.settings.player(args.player)] if args.player else list(camp.settings.players)
    if None in players:
        raise UserError(f"no player {args.player!r} in {camp.name}")
    subs = camp.state.get("submissions", {})
    print(camp.state.get("stage", {}).get("title", ""))
    for p in players:
        assert p is not None
        sub = subs.get(p.id)
        print(f"{p.id} ({p.faction_name or p.name}): " + ("no orders" if not sub else f"receipt {sub['receipt'][:16]}"))
        for line in ruleset.canonical(ctx, p, sub["payload"]) if sub else []:
            print(f"    {line}")
    return 0
