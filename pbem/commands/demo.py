"""`pbem demo [--ruleset NAME] [DIR]`: a campaign played from the sample mails in inbox_samples/.

Daemon Rift (the default): four factions on the Rift Valley map; list registration and
approval, turn 1, turn 2 with a tabletop battle and both players' results (one faction
sends nothing and holds). Diplomacy: seven powers on the standard map; Spring 1901 with a
corrected order set and one power that sends nothing, Fall 1901 with a dislodgement and its
retreat, and the Winter 1901 builds. Mighty Kingdoms: three kingdoms on Three Realms with two
summer months (the demo campaign's `campaign.summer_months`); exploration, a battle at Storridge
reported by both players, the Reform's medal and scar rolls, a winter's purchases (a build, a
recruit with its list, a tithe, a quest refused as no tower stands) and deployment, up to year 2's
first orders. Wandering Tribes (mode one_on_one): three tribes set up, three strategic rounds with
divisions, locks and rests, and a battle phase with two locked battles and an ambush, up to round
4's orders. Star Wars Miniatures: three factions on the Ten Factions map; setup, then two
full turns with the Rebel-Mandalorian alliance, a battle at the Imperial capital (fortified)
reported by both sides, and an upgrade bought with the XP it earned (victory by capitals
needs all three in play: `victory.capitals_needed = 3`). The demo feeds each folder of
`inbox_samples/<ruleset>/` into the campaign's inbox in turn and ticks the clock forward,
and leaves every ack and report in `DIR/outbox` (a Maildir) and in the campaign's `history/`.

A demo with `dice_turns` plays with fixed dice, so every run mails the same rolls: before the
first tick it writes `private/dice.toml` (where `pbem.stages.turns` keeps each turn's secret) with
the secret of turn n set to the SHA-256 hex digest of `<campaign> demo dice, turn <n>`
(e.g. `rift-demo demo dice, turn 3`). They are published, so they are for demos only.
"""

from __future__ import annotations

import argparse
import hashlib
import shutil
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

SAMPLES = Path(__file__).resolve().parents[2] / "inbox_samples"
START = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
TRANSPORT = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}


@dataclass(frozen=True)
class Demo:
    """One ruleset's demo: the campaign to create and the sample mails (inbox_samples/<ruleset>/) to play."""

    campaign: str
    map: str
    players: tuple[tuple[str, str, str, str, str, dict[str, str]], ...]   # NewPlayer fields
    secrets: dict[str, str]
    schedule: dict[str, str]
    rules: dict[str, Any] = field(default_factory=dict)    # rule overrides for the demo campaign
    dice_turns: int = 0                 # turns 0..N get the fixed dice secrets above; 0 = drawn as usual


DEMOS = {
    "daemon_rift": Demo(
        "rift-demo", "rift_valley",
        (("red", "Alice", "alice@players.localhost", "Red", "R", {"home": "1"}),
         ("blue", "Bob", "bob@players.localhost", "Blue", "B", {"home": "5"}),
         ("green", "Carol", "carol@players.localhost", "Green", "G", {"home": "3"}),
         ("yellow", "Dave", "dave@players.localhost", "Yellow", "Y", {"home": "2"})),
        {"red": "RRRR-DEMO-0000-0000-0001", "blue": "BBBB-DEMO-0000-0000-0002",
         "green": "GGGG-DEMO-0000-0000-0003", "yellow": "YYYY-DEMO-0000-0000-0004",
         "gm": "GMGM-DEMO-0000-0000-0000"},
        {"timezone": "Europe/London", "lists": "3d", "orders": "3d", "battles": "5d", "retreats": "2d",
         "at": "20:00", "reminder": "24h"}, dice_turns=15),
    "diplomacy": Demo(
        "dip-demo", "standard",
        tuple((pid, name, f"{name.lower()}@players.localhost", power, power, {})
              for pid, name, power in (("eng", "Alice", "England"), ("fra", "Bob", "France"),
                                       ("ger", "Carol", "Germany"), ("ita", "Dave", "Italy"),
                                       ("aus", "Erin", "Austria"), ("rus", "Frank", "Russia"),
                                       ("tur", "Grace", "Turkey"))),
        {"eng": "ENGL-DEMO-0000-0000-0001", "fra": "FRAN-DEMO-0000-0000-0002", "ger": "GERM-DEMO-0000-0000-0003",
         "ita": "ITAL-DEMO-0000-0000-0004", "aus": "AUST-DEMO-0000-0000-0005", "rus": "RUSS-DEMO-0000-0000-0006",
         "tur": "TURK-DEMO-0000-0000-0007", "gm": "GMGM-DEMO-0000-0000-0000"},
        {"timezone": "Europe/London", "orders": "3d", "retreats": "1d", "adjustments": "1d",
         "at": "20:00", "reminder": "24h"}),
    "conquest": Demo(
        "coc-demo", "four_marches",
        tuple((pid, name, f"{pid}@players.localhost", colour, colour[0], {})
              for pid, name, colour in (("anna", "Anna", "Red"), ("ben", "Ben", "Blue"), ("cara", "Cara", "Green"),
                                        ("dan", "Dan", "Yellow"))),
        {"anna": "ANNA-DEMO-0000-0000-0001", "ben": "BENN-DEMO-0000-0000-0002", "cara": "CARA-DEMO-0000-0000-0003",
         "dan": "DANN-DEMO-0000-0000-0004", "gm": "GMGM-DEMO-0000-0000-0000"},
        {"timezone": "Europe/London", "capitals": "3d", "campaign": "4d", "setup": "3d", "results": "10d",
         "conquest": "4d", "at": "20:00", "reminder": "24h"},
        {"siege": {"enabled": True}, "setup": {"starting_gold": 100}}, dice_turns=10),
    "mighty_kingdoms": Demo(
        "mk-demo", "mk_three_realms",
        (("red", "Anna", "anna@players.localhost", "Red Realm", "R", {}),
         ("blue", "Ben", "ben@players.localhost", "Blue March", "B", {}),
         ("green", "Cara", "cara@players.localhost", "Green Hold", "G", {})),
        {"red": "REDD-DEMO-0000-0000-0001", "blue": "BLUE-DEMO-0000-0000-0002", "green": "GREN-DEMO-0000-0000-0003",
         "gm": "GMGM-DEMO-0000-0000-0000"},
        {"timezone": "Europe/London", "setup": "5d", "lists": "3d", "orders": "4d", "battle": "7d",
         "purchases": "4d", "deployment": "3d", "at": "20:00", "reminder": "24h"},
        {"campaign": {"summer_months": 2}}, dice_turns=12),
    "wandering_tribes": Demo(
        "wt-demo", "wt_three_tribes",
        (("anna", "Anna", "anna@players.localhost", "Reikland Wanderers", "A", {}),
         ("ben", "Ben", "ben@players.localhost", "Waaagh Grimgut", "B", {}),
         ("cara", "Cara", "cara@players.localhost", "Host of Karak Ungor", "C", {})),
        {"anna": "ANNA-DEMO-0000-0000-0001", "ben": "BENN-DEMO-0000-0000-0002", "cara": "CARA-DEMO-0000-0000-0003",
         "gm": "GMGM-DEMO-0000-0000-0000"},
        {"timezone": "Europe/London", "setup": "3d", "orders": "3d", "battle": "5d", "at": "20:00",
         "reminder": "24h"},
        {"campaign": {"mode": "one_on_one"}}, dice_turns=12),
    "star_wars_miniatures": Demo(
        "swm-demo", "swm_ten_factions",
        tuple((pid, name, f"{pid}@players.localhost", faction, key, {})
              for pid, name, faction, key in (("anna", "Anna", "Imperial", "imperial"),
                                              ("ben", "Ben", "Rebel", "rebel"),
                                              ("cara", "Cara", "Mandalorian", "mandalorian"))),
        {"anna": "ANNA-DEMO-0000-0000-0001", "ben": "BENN-DEMO-0000-0000-0002", "cara": "CARA-DEMO-0000-0000-0003",
         "gm": "GMGM-DEMO-0000-0000-0000"},
        {"timezone": "Europe/London", "factions": "4d", "squads": "5d", "initiative": "3d", "economics": "3d",
         "action": "4d", "battle": "7d", "at": "20:00", "reminder": "24h"},
        {"victory": {"capitals_needed": 3}}, dice_turns=4),      # three capitals in play: all three win
}


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("dir", nargs="?", type=Path, default=Path("demo"), help="where to build it (default: ./demo)")
    p.add_argument("--ruleset", default="daemon_rift", choices=sorted(DEMOS),
                   help="which rule system's demo to play (default: daemon_rift)")


def run(args: argparse.Namespace) -> int:
    from pbem.state.campaign import Campaign

    root: Path = args.dir
    folder = play(root, args.ruleset, _show)
    camp = Campaign(folder)
    print(f"\nDemo done. Mail sent: {root / 'outbox'} (Maildir); reports: {camp.folder / 'history'}; "
          f"public reports also in the forum thread {root / 'forum' / camp.name}")
    return 0


def play(root: Path, ruleset_name: str, after_step: Callable[[list[str], str], None]) -> Path:
    """Build the demo campaign under `root` and play its sample mails step by step, calling
    `after_step(tick lines, step name)` after each tick; returns the campaign folder."""
    from pbem.errors import UserError
    from pbem.gm.creation import NewPlayer, create
    from pbem.state.campaign import Campaign
    from pbem.state.schedule import parse_time
    from pbem.tick.engine import tick

    if (root / "campaigns").exists():
        raise UserError(f"{root} already holds a demo; remove it first")
    demo = DEMOS[ruleset_name]
    players = [NewPlayer(*spec) for spec in demo.players]
    camp, _ = create(root / "campaigns", demo.campaign, ruleset_name, demo.map, players,
                           "gm@players.localhost", START, schedule=demo.schedule,
                           transport=TRANSPORT | {"forum": {"kind": "folder", "path": f"../../forum/{demo.campaign}"}},
                           rules=demo.rules, fixed_secrets=demo.secrets, welcome=True)
    if demo.dice_turns:
        _fix_dice(camp.folder, demo)
    now = START
    for step in sorted(p for p in (SAMPLES / ruleset_name).iterdir() if p.is_dir()):
        now = _feed(step, root / "inbox", now)
        after_step(tick(root / "campaigns", now).lines, step.name)
    camp = Campaign(camp.folder)
    now = parse_time(camp.state["stage"]["deadline"]) - timedelta(hours=12)   # inside the reminder window
    after_step(tick(root / "campaigns", now).lines, "reminders")
    return camp.folder


def _fix_dice(folder: Path, demo: Demo) -> None:
    """The demo's fixed turn secrets (see the module notes), before any is drawn."""
    from pbem.state.store import write_toml

    secrets = {str(n): hashlib.sha256(f"{demo.campaign} demo dice, turn {n}".encode()).hexdigest()
               for n in range(demo.dice_turns + 1)}
    write_toml(folder / "private" / "dice.toml", {"secrets": secrets},
               header="# Fixed demo dice secrets (pbem demo): published, never for a real campaign.")


def _feed(step: Path, inbox: Path, now: datetime) -> datetime:
    """Copy one step's mails into the inbox; a `wait` file moves the clock (e.g. `3d1h`)."""
    from pbem.state.schedule import parse_duration

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
