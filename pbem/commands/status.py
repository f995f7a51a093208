"""`pbem status [CAMPAIGN] [--root DIR]`: every campaign's (or the one named) stage, deadline,
for each player owing orders nothing sent / sent with N rejected lines / ready / waiting
(pbem.stages.readiness), and the mail problems it waits on (a mailbox or mail server it cannot use)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.rulesets.base import Stage
    from pbem.state.campaign import Campaign


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("campaign", nargs="?", default="", help="only this campaign (default: every campaign under --root)")
    p.add_argument("--root", type=Path, default=Path("campaigns"),
                   help="the folder that holds the campaigns (default: campaigns)")


def chosen(folders: list[Path], name: str, root: Path) -> list[Path]:
    """The campaign folders to show: all, or the one named (a GM types the name he gave `pbem new`)."""
    import difflib

    from pbem.errors import UserError

    if not name:
        return folders
    found = [f for f in folders if name in (f.name, str(f))]
    if found:
        return found
    close = difflib.get_close_matches(name, [f.name for f in folders], n=1, cutoff=0.6)
    hint = f"did you mean `{close[0]}`? " if close else ""
    raise UserError(f"no campaign {name} under {root}; {hint}`pbem status --root {root}` lists every campaign")


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
    for folder in chosen(discover(args.root), args.campaign, args.root):
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
    from pbem.kit.texts import counted
    from pbem.rulesets import registry
    from pbem.stages import turns
    from pbem.stages.record import StageRecord
    from pbem.tick.alarms import status_lines

    folder = camp.folder
    record = StageRecord.read(camp.state)
    if record.started and registry.get(camp.settings.ruleset).stage(turns.context(camp, datetime.now(UTC))).over:
        print(f"{camp.name}: the campaign is over ({record.title}); no orders are read and no deadline runs "
              f"(`pbem rollback {camp.name}` returns to just before a `pbem end`)")
        print(f"  outbox: {counted(len(pending(folder)), 'mail')} waiting for delivery")
        return
    deadline = camp.settings.schedule.show(record.due) if record.due else "-"
    print(f"{camp.name}: {record.title if record.started else 'not started'}; deadline {deadline}"
          + ("; PAUSED" if record.paused else ""))
    if record.waiting:
        q = record.question
        print(f"  waiting for the GM: {q.text} -> pbem decide {camp.name} {q.key} "
              f"<{'|'.join(q.options) or 'choice'}>")
    ruleset = registry.get(camp.settings.ruleset)
    ctx = turns.context(camp, datetime.now(UTC))
    for task in ruleset.gm_pending(ctx):
        print(f"  waiting for the GM: {task}")
    stage = ruleset.stage(ctx) if record.started else None
    if record.started and camp.settings.schedule.early_close == "never":
        print("  closes at the deadline only (schedule.early_close = \"never\")")
    for p in camp.settings.players:
        print(f"  {p.id:<12} {p.faction_name or p.name:<16} {_player_line(camp, p.id, stage)}")
    _on_time(camp)
    print(f"  outbox: {counted(len(pending(folder)), 'mail')} waiting for delivery")
    for line in status_lines(folder):      # a broken mailbox or server: the campaign waits for it
        print(f"  {line}")


def _player_line(camp: Campaign, player: str, stage: Stage | None) -> str:
    """Nothing sent / sent with N rejected lines / ready / waiting, and when his orders came."""
    from datetime import UTC, datetime

    from pbem.stages.absence import away
    from pbem.stages.readiness import readiness

    gone = away(camp, player, datetime.now(UTC))
    absent = f"; absent {gone.shown()}" if gone else ""
    if stage is None or player not in stage.owing:
        return "owes nothing in this stage" + absent
    sub = camp.state.get("submissions", {}).get(player)
    return readiness(camp.state, player, stage).shown() + (f" (received {sub['received']})" if sub else "") + absent


def _on_time(camp: Campaign) -> None:
    """Each player's reliability record (pbem/stages/reliability.py), once a stage has resolved."""
    from pbem.stages.reliability import records

    if not camp.state.get("reliability") and not camp.state.get("absences"):
        return
    print("  on time:")
    for player, row in zip(camp.settings.players, records(camp), strict=True):
        print(f"    {player.id:<12} {row.shown()}")
