"""`pbem rollback CAMPAIGN`: restore the state at the start of the previous turn, give its stage a
fresh deadline and mail every player (and the forum) what was undone and what happens next."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, campaign_folder


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)
    p.add_argument("--now", metavar="TIME", help="count the new deadline from this time instead of now (for "
                   "trying a campaign out): UTC unless it has an offset, e.g. 2026-11-30T20:00+01:00")


def run(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from pbem.errors import UserError
    from pbem.gm.rollbacks import roll_back
    from pbem.rulesets import registry
    from pbem.state.campaign import Campaign
    from pbem.state.schedule import parse_time
    from pbem.state.store import campaign_lock

    try:
        now = parse_time(args.now) if args.now else datetime.now(UTC)
    except ValueError as exc:
        raise UserError(f"--now {args.now!r} is no time: give an ISO time such as 2026-11-30T20:00Z") from exc
    folder = campaign_folder(args)
    with campaign_lock(folder):
        camp = Campaign(folder)
        try:
            done = roll_back(camp, registry.get(camp.settings.ruleset), now)
        except ValueError as exc:
            raise UserError(str(exc)) from exc
        camp.save()
    deadline = camp.settings.schedule.show(done.deadline)
    print(f"{camp.name}: back at the start of turn {done.turn} ({done.stage.title}); players are mailed to "
          f"resend their orders by {deadline} (the mail goes out with the next tick)")
    return 0
