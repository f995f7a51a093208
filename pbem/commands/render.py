"""`pbem render CAMPAIGN [TURN] [--stage S] [--out DIR] [--format svg|png]`: the map pictures of
a campaign's turns, drawn again from `history/`.

Each turn's folder keeps the state the turn started from (`start.toml`, the stage `start`) and
any other stage snapshots as `<stage>.toml`; `--stage current` draws the campaign as it stands.
Without TURN every turn in `history/` is drawn, so a game master can redraw a whole campaign.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.campaign import Campaign


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("turn", type=int, nargs="?", help="the turn to draw (default: every turn in history/)")
    p.add_argument("--stage", default="start",
                   help="the stored state to draw: start (default), another snapshot of the turn, or current")
    p.add_argument("--out", type=Path, help="where to write the pictures (default: CAMPAIGN/pictures)")
    p.add_argument("--format", choices=("svg", "png"), action="append",
                   help="svg or png; give it twice for both (default: both)")


def run(args: argparse.Namespace) -> int:
    from pbem.campaign import Campaign
    from pbem.commands._common import campaign_folder
    from pbem.errors import UserError
    from pbem.pictures.picture import picture_of
    from pbem.rulesets import registry
    from pbem.store import write_atomic

    camp = Campaign(campaign_folder(args))
    ruleset = registry.get(camp.settings.ruleset)
    formats = tuple(dict.fromkeys(args.format or ("svg", "png")))
    out = args.out or camp.folder / "pictures"
    for turn, game in _states(camp, args.turn, args.stage):
        name = f"{camp.settings.name}-turn-{turn:03d}-{args.stage}"
        picture = picture_of(ruleset, camp.settings, game, name, raster="png" in formats)
        if picture is None:
            raise UserError(f"the {ruleset.title} rules draw no map pictures")
        for file, data in picture.files(formats).items():
            write_atomic(out / file, data)
            print(out / file)
    return 0


def _states(camp: Campaign, turn: int | None, stage: str) -> list[tuple[int, dict[str, Any]]]:
    """(turn, stored game) for each picture asked for; a missing one is a one-line error."""
    from pbem.errors import UserError
    from pbem.store import read_toml

    if stage == "current":
        now = int(camp.state.get("stage", {}).get("turn", 0))
        return [(turn if turn is not None else now, dict(camp.state.get("game", {})))]
    turns = [turn] if turn is not None else _turns(camp.folder / "history")
    if not turns:
        raise UserError(f"no turns in {camp.folder / 'history'} yet; `--stage current` draws the campaign now")
    found = []
    for t in turns:
        path = camp.history(t) / f"{stage}.toml"
        if not path.exists():
            known = sorted(p.stem for p in camp.history(t).glob("*.toml") if p.stem != "dice")
            raise UserError(f"no stage {stage!r} kept for turn {t} ({path}); kept: {', '.join(known) or 'none'}")
        found.append((t, dict(read_toml(path).get("game", {}))))
    return found


def _turns(history: Path) -> list[int]:
    return sorted(int(p.name) for p in history.glob("[0-9][0-9][0-9]") if p.is_dir())
