"""Pieces the GM commands share: finding a campaign and running a GM command on it."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import UserError

if TYPE_CHECKING:
    from pbem.rulesets.base import AnyRuleset
    from pbem.state.campaign import Campaign


def add_campaign(p: argparse.ArgumentParser) -> None:
    p.add_argument("campaign", help="campaign name (under --root) or a campaign folder")
    p.add_argument("--root", type=Path, default=Path("campaigns"),
                   help="the folder that holds the campaigns (default: campaigns)")


def campaign_folder(args: argparse.Namespace) -> Path:
    direct = Path(args.campaign)
    folder = direct if (direct / "campaign.toml").exists() else args.root / args.campaign
    if not (folder / "campaign.toml").exists():
        raise UserError(f"no campaign {args.campaign!r} (looked in {folder})")
    return folder


def gm_command(args: argparse.Namespace, words: list[str], now: datetime | None = None) -> int:
    """Run a GM command under the campaign lock, as if mailed by the GM, and log it; the mails
    it asks for are queued for the next tick. `now` (default: the clock) for trying a campaign out."""
    from pbem.gm.desk import run
    from pbem.gm.verbs import Desk
    from pbem.rulesets import registry
    from pbem.state.campaign import Campaign
    from pbem.state.store import campaign_lock

    folder = campaign_folder(args)
    with campaign_lock(folder):
        camp = Campaign(folder)
        ruleset = registry.get(camp.settings.ruleset)
        setup_rules_first(camp, ruleset)
        desk = Desk(camp, ruleset, now or datetime.now(UTC))
        text = run(desk, words)
        if desk.mailings:
            from pbem.delivery.mails import build_mail
            from pbem.delivery.outqueue import enqueue

            for reply in desk.mailings:       # delivered by the next tick
                enqueue(folder, build_mail(camp, desk.ruleset, reply, desk.now))
        camp.save_auth()
        camp.save()
    print(text)
    return 1 if text.startswith("not done") else 0


def setup_rules_first(camp: Campaign, ruleset: AnyRuleset) -> None:
    """As the tick does first: a GM command or a resolution counts as the game's start, so the
    setup rules changed in campaign.toml are taken before it (said in one line), or refused with
    a SettingsError once they can no longer apply (pbem/stages/setup_rules.py)."""
    from pbem.stages import setup_rules

    if (done := setup_rules.apply(camp, ruleset)) is not None:
        print(f"{camp.name}: {done}")
