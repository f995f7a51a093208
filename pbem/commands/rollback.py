"""`pbem rollback CAMPAIGN`: restore the state at the start of the previous turn."""

from __future__ import annotations

import argparse

from pbem.commands._common import add_campaign, campaign_folder


def add_arguments(p: argparse.ArgumentParser) -> None:
    add_campaign(p)


def run(args: argparse.Namespace) -> int:
    from pbem import turns
    from pbem.campaign import Campaign
    from pbem.errors import UserError
    from pbem.store import campaign_lock

    folder = campaign_folder(args)
    with campaign_lock(folder):
        camp = Campaign(folder)
        try:
            turn = turns.rollback(camp)
        except ValueError as exc:
            raise UserError(str(exc)) from exc
        camp.save()
    print(f"{camp.name}: back at the start of turn {turn}; players must resend their orders for it")
    return 0
