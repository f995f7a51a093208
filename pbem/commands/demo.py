"""`pbem demo [DIR]`: a Daemon Rift campaign played from the sample mails in inbox_samples/.

Four factions on the Rift Valley map. The demo feeds each folder of
`inbox_samples/daemon_rift/` into the campaign's inbox in turn and ticks the
clock forward: list registration and approval, turn 1, turn 2 with a tabletop
battle and both players' results (one faction sends nothing and holds), and
leaves every ack, briefing and report in `DIR/outbox` (a Maildir) and in the
campaign's `history/`.
"""

from __future__ import annotations

import argparse
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

SAMPLES = Path(__file__).resolve().parents[2] / "inbox_samples" / "daemon_rift"
START = datetime(2026, 11, 23, 9, 0, tzinfo=timezone.utc)
DEMO_SECRETS = {"red": "RRRR-DEMO-0000-0000-0001", "blue": "BBBB-DEMO-0000-0000-0002",
                "green": "GGGG-DEMO-0000-0000-0003", "yellow": "YYYY-DEMO-0000-0000-0004",
                "gm": "GMGM-DEMO-0000-0000-0000"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", nargs="?", type=Path, default=Path("demo"), help="where to build it (default: ./demo)")


def run(args: argparse.Namespace) -> int:
    from pbem.campaign import Campaign
    from pbem.creation import NewPlayer, create, welcome_replies
    from pbem.schedule import parse_time
    from pbem.engine import build_mail, tick
    from pbem.errors import UserError
    from pbem.outqueue import enqueue
    from pbem.rulesets import registry

    root: Path = args.dir
    if (root / "campaigns").exists():
        raise UserError(f"{root} already holds a demo; remove it first")
    players = [NewPlayer("red", "Alice", "alice@players.localhost", "Red", "R", "1"),
               NewPlayer("blue", "Bob", "bob@players.localhost", "Blue", "B", "5"),
               NewPlayer("green", "Carol", "carol@players.localhost", "Green", "G", "3"),
               NewPlayer("yellow", "Dave", "dave@players.localhost", "Yellow", "Y", "2")]
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    schedule = {"timezone": "Europe/London", "lists": "3d", "orders": "3d", "battles": "5d", "retreats": "2d",
                "at": "20:00", "reminder": "24h"}
    camp, secrets = create(root / "campaigns", "rift-demo", "daemon_rift", "rift_valley", players,
                           "gm@players.localhost", START, schedule=schedule, transport=transport,
                           fixed_secrets=DEMO_SECRETS)
    ruleset = registry.get(camp.settings.ruleset)
    for reply in welcome_replies(camp, secrets, START):
        enqueue(camp.folder, build_mail(camp, ruleset, reply, START))
    now = START
    for step in sorted(p for p in SAMPLES.iterdir() if p.is_dir()):
        now = _feed(step, root / "inbox", now)
        _show(tick(root / "campaigns", now).lines, step.name)
    camp = Campaign(camp.folder)
    now = parse_time(camp.state["stage"]["deadline"]) - timedelta(hours=12)   # inside the reminder window
    _show(tick(root / "campaigns", now).lines, "reminders")
    print(f"\nDemo done. Mail sent: {root / 'outbox'} (Maildir); reports: {camp.folder / 'history'}")
    return 0


def _feed(step: Path, inbox: Path, now: datetime) -> datetime:
    """Copy one step's mails into the inbox; a `wait` file moves the clock (e.g. `3d1h`)."""
    from pbem.schedule import parse_duration

    inbox.mkdir(parents=True, exist_ok=True)
    wait = step / "wait"
    now += parse_duration(wait.read_text().strip()) if wait.exists() else timedelta(hours=1)
    for mail in sorted(step.glob("*.eml")):
        shutil.copy(mail, inbox / mail.name)
    return now


def _show(lines: list[str], label: str) -> None:
    print(f"== {label}")
    for line in lines:
        print(f"   {line}")
