"""`pbem status [--root DIR]`: every campaign's stage, deadline and who has sent orders."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=Path("campaigns"))


def run(args: argparse.Namespace) -> int:
    from datetime import UTC, datetime

    from pbem import turns
    from pbem.campaign import Campaign, discover
    from pbem.rulesets import registry
    from pbem.outqueue import pending
    from pbem.schedule import parse_time

    for folder in discover(args.root):
        camp = Campaign(folder)
        stage = camp.state.get("stage", {})
        subs = camp.state.get("submissions", {})
        deadline = camp.settings.schedule.show(parse_time(stage["deadline"])) if stage.get("deadline") else "-"
        print(f"{camp.name}: {stage.get('title', 'not started')}; deadline {deadline}"
              + ("; PAUSED" if stage.get("paused") else ""))
        if stage.get("question"):
            q = stage["question"]
            print(f"  waiting for the GM: {q['text']} -> pbem decide {camp.name} {q['key']} "
                  f"<{'|'.join(q['options']) or 'choice'}>")
        for task in registry.get(camp.settings.ruleset).gm_pending(turns.context(camp, datetime.now(UTC))):
            print(f"  waiting for the GM: {task}")
        for p in camp.settings.players:
            mark = "sent " + subs[p.id]["received"] if p.id in subs else "waiting"
            print(f"  {p.id:<12} {p.faction_name or p.name:<16} {mark}")
        print(f"  outbox: {len(pending(folder))} mail(s) waiting for delivery")
    return 0
