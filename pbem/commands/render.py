"""`pbem render CAMPAIGN [TURN] [--stage S] [--out DIR] [--format svg|png]`: the map pictures of
a campaign's turns, drawn again from `history/`.

Each turn's folder keeps the state the turn started from (`start.toml`, the stage `start`) and
the game after each of its resolved stages (`stages/<kind>.toml`: `orders`, `battles`,
`movement`...; a kind resolved twice in one turn is `<kind>-2` the second time), whose pictures
show what the stage did. Without `--stage` every stored stage of the turn is drawn, `start`
first; `--stage current` draws the campaign as it stands. Without TURN every turn in `history/`
is drawn, so a game master can redraw a whole campaign. A resolved stage's picture the tick kept
beside its game (`stages/<kind>.svg`, `.png`) is written as kept, unless it is older than the
game or than campaign.toml (pbem/pictures/kept.py).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pbem.pictures.picture import Picture
    from pbem.state.campaign import Campaign

START = "start"
CURRENT = "current"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pbem.commands._common import add_campaign

    add_campaign(p)
    p.add_argument("turn", type=int, nargs="?", help="the turn to draw (default: every turn in history/)")
    p.add_argument("--stage",
                   help="the stage to draw: start (the turn's opening position), a resolved stage of the turn "
                        "(orders, battles, movement...), or current (the campaign now); default: every stored one")
    p.add_argument("--out", type=Path, help="where to write the pictures (default: CAMPAIGN/pictures)")
    p.add_argument("--format", choices=("svg", "png"), action="append",
                   help="svg or png; give it twice for both (default: both)")


def run(args: argparse.Namespace) -> int:
    from pbem.commands._common import campaign_folder
    from pbem.errors import UserError
    from pbem.pictures.picture import picture_of
    from pbem.rulesets import registry
    from pbem.state.campaign import Campaign
    from pbem.state.store import write_atomic

    camp = Campaign(campaign_folder(args))
    ruleset = registry.get(camp.settings.ruleset)
    formats = tuple(dict.fromkeys(args.format or ("svg", "png")))
    out = args.out or camp.folder / "pictures"
    for turn, stage, stored in _states(camp, args.turn, args.stage):
        name = f"{camp.settings.name}-turn-{turn:03d}-{stage}"
        picture = _kept(camp, stored, name, "png" in formats) or picture_of(
            ruleset, camp.settings, _game(camp, stored), name, raster="png" in formats)
        if picture is None:
            raise UserError(f"the {ruleset.title} rules draw no map pictures")
        for file, data in picture.files(formats).items():
            write_atomic(out / file, data)
            print(out / file)
    return 0


def _kept(camp: Campaign, stored: Path | None, name: str, raster: bool) -> Picture | None:
    """The picture the tick kept as the stage resolved, when it is still that stage's picture."""
    from pbem.pictures.kept import kept

    return kept(stored, name, raster, settings=[camp.folder / "campaign.toml"]) if stored is not None else None


def _game(camp: Campaign, stored: Path | None) -> dict[str, Any]:
    """The game a stored stage file holds; the campaign's game now without one."""
    from pbem.state.store import read_toml

    return dict(read_toml(stored).get("game", {}) if stored is not None else camp.state.get("game", {}))


def _states(camp: Campaign, turn: int | None, stage: str | None) -> list[tuple[int, str, Path | None]]:
    """(turn, stage, stored game's file; None for the campaign now) for each picture asked for;
    what is not kept is a one-line error naming what is."""
    from pbem.errors import UserError

    if stage == CURRENT:
        now = int(camp.state.get("stage", {}).get("turn", 0))
        return [(turn if turn is not None else now, CURRENT, None)]
    kept = _turns(camp.folder / "history")
    if not kept:
        raise UserError(f"no turns in {camp.folder / 'history'} yet; `--stage current` draws the campaign now")
    if turn is not None and turn not in kept:
        raise UserError(f"no turn {turn} in {camp.folder / 'history'}; turns kept: {_spans(kept)}")
    found: list[tuple[int, str, Path | None]] = []
    for t in [turn] if turn is not None else kept:
        stages = _stages(camp, t)
        chosen = [s for s in stages if stage in (None, s)]
        if not chosen and turn is not None:
            raise UserError(f"no stage {stage!r} kept for turn {t}; stages kept: {', '.join(stages) or 'none'}")
        found += [(t, s, stages[s]) for s in chosen]
    if not found:
        names = sorted({s for t in kept for s in _stages(camp, t)})
        raise UserError(f"no stage {stage!r} kept in any turn; stages kept: {', '.join(names)}")
    return found


def _stages(camp: Campaign, turn: int) -> dict[str, Path]:
    """The stored stages of `turn` by name, `start` first, then as they were resolved."""
    from pbem.stages.turns import stage_snapshots

    start = camp.history(turn) / f"{START}.toml"
    return {**({START: start} if start.exists() else {}), **dict(stage_snapshots(camp, turn))}


def _turns(history: Path) -> list[int]:
    return sorted(int(p.name) for p in history.glob("[0-9][0-9][0-9]") if p.is_dir())


def _spans(turns: list[int]) -> str:
    """1, 2, 3, 5 -> "1-3, 5"."""
    spans: list[list[int]] = []
    for t in turns:
        if spans and t == spans[-1][-1] + 1:
            spans[-1].append(t)
        else:
            spans.append([t])
    return ", ".join(f"{s[0]}-{s[-1]}" if len(s) > 1 else str(s[0]) for s in spans)
