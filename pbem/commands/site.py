"""`pbem site CAMPAIGN OUT`: the campaign's chronicle as a static web site (pbem/delivery/archive.py).

An index with the standing and charts over time, a page per turn with its public reports, the map
after each stage and the dice with their proofs. No JavaScript; it reads from file:// as from any
static host (copy the folder to the club's web space).
"""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("out", type=Path, help="the folder to write the site into (made when missing)")


def run(args: argparse.Namespace) -> int:
    from pbem.commands._common import campaign_folder
    from pbem.delivery.archive import write_site
    from pbem.rulesets import registry
    from pbem.state.campaign import Campaign

    camp = Campaign(campaign_folder(args))
    written = write_site(camp, registry.get(camp.settings.ruleset), args.out)
    print(f"{args.out / 'index.html'}: {len(written)} file(s) written")
    return 0
