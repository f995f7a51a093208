"""`pbem status [--root DIR]`: every campaign's stage, deadline and who has sent orders."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.state.campaign import Campaign


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=Path("campaigns"),
                   help="the folder that holds the campaigns (default: campaigns)")


def run(args: argparse.Namespace) -> int:
    from pbem.errors import UserError
    from pbem.intake.isolation import one_line
    from pbem.state.campaign import Campaign
    from pbem.state.folders import discover

    if not args.root.is_dir():
        raise UserError(f"no folder {args.root}; give the campaigns folder with --root")
    if not discover(args.root):
        print(f"no campaigns in {args.root}; create one with `pbem new`")
    failed = 0
    for folder in discover(args.root):
        try:
            show(Campaign(folder))
        except BrokenPipeError:      # the reader went away: pbem.cli ends quietly
            raise
        except Exception as exc:     # noqa: BLE001  one broken campaign: one line, and the others are still shown
            line = one_line(exc)     # named by its folder unless the line names a file in it already
            print(f"pbem: {line if str(folder) in line else f'{folder.name}: {line}'}", file=sys.stderr)
            failed = 1
    return failed


def show(camp: Campaign) -> None:
    """One campaign's stage, deadline, questions for the GM and players."""
    from datetime import UTC, datetime

    from pbem.delivery.outqueue import pending
    from pbem.rulesets import registry
    from pbem.stages import turns
    from pbem.stages.record import StageRecord

    folder = camp.folder
    record = StageRecord.read(camp.state)
    if record.started and registry.get(camp.settings.ruleset).stage(turns.context(camp, datetime.now(UTC))).over:
        print(f"{camp.name}: the campaign is over ({record.title}); no orders are read and no deadline runs "
              f"(`pbem rollback {camp.name}` returns to just before a `pbem end`)")
        print(f"  outbox: {len(pending(folder))} mail(s) waiting for delivery")
        return
    subs = camp.state.get("submissions", {})
    deadline = camp.settings.schedule.show(record.due) if record.due else "-"
    print(f"{camp.name}: {record.title if record.started else 'not started'}; deadline {deadline}"
          + ("; PAUSED" if record.paused else ""))
    if record.waiting:
        q = record.question
        print(f"  waiting for the GM: {q.text} -> pbem decide {camp.name} {q.key} "
              f"<{'|'.join(q.options) or 'choice'}>")
    for task in registry.get(camp.settings.ruleset).gm_pending(turns.context(camp, datetime.now(UTC))):
        print(f"  waiting for the GM: {task}")
    for p in camp.settings.players:
        mark = "sent " + subs[p.id]["received"] if p.id in subs else "waiting"
        print(f"  {p.id:<12} {p.faction_name or p.name:<16} {mark}")
    print(f"  outbox: {len(pending(folder))} mail(s) waiting for delivery")
