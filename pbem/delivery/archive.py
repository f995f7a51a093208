"""A campaign's chronicle as a small static web site (`pbem site CAMPAIGN OUT/`).

    OUT/index.html            the campaign, its standing now, charts over time, every turn
    OUT/turn-003.html         a turn: its public reports, the map after each stage, the dice
    OUT/pictures/*.png        the map pictures, drawn from history/ as `pbem render` draws them
    OUT/charts/*.svg          places and pieces per player over the turns (pygal)

Only what the players were shown in public goes in: the reports `history/<turn>/public.toml`
names, the public map pictures, and the dice with their proofs (a turn's secret once its report
revealed it). Pages are Jinja templates (`templates/site/`, overridable from a campaign's own
`templates/site/`) with autoescape on, and the reports go through the mail's Markdown reader,
which shows raw HTML as text: what players wrote stays text. No JavaScript; links are relative,
so the folder reads from file:// as from any static host.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jinja2 import ChoiceLoader, FileSystemLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from pbem.kit.texts import TEMPLATES_DIR
from pbem.mail.compose import markdown_to_html
from pbem.pictures.kept import kept
from pbem.pictures.picture import picture_of
from pbem.rulesets.base import AnyRuleset, Context
from pbem.stages.turns import public_reports, stage_snapshots
from pbem.state.campaign import Campaign
from pbem.state.store import read_toml, write_atomic


@dataclass
class Turn:
    number: int
    reports: list[tuple[str, Markup]] = field(default_factory=list)     # (title, HTML)
    pictures: list[tuple[str, str]] = field(default_factory=list)       # (stage, file under OUT)
    dice: dict[str, Any] = field(default_factory=dict)
    held: Counter[str] = field(default_factory=Counter)                 # side name -> places held at its end
    pieces: Counter[str] = field(default_factory=Counter)

    @property
    def page(self) -> str:
        return f"turn-{self.number:03d}.html"


def write_site(camp: Campaign, ruleset: AnyRuleset, out: Path) -> list[Path]:
    """Every page, picture and chart of the campaign's archive under `out`; the files written."""
    turns = [read_turn(camp, ruleset, number, out) for number in kept_turns(camp)]
    env = environment(camp.folder)
    common = {"campaign": camp.settings, "ruleset": ruleset.title, "turns": turns}
    written = [*(out / file for turn in turns for _, file in turn.pictures)]
    charts = write_charts(turns, out)
    for turn in turns:
        written.append(_page(env, "turn", out / turn.page, common | {"turn": turn}))
    written.append(_page(env, "index", out / "index.html", common | {"charts": charts, "last": turns[-1] if turns
                                                                      else None}))
    return written + [out / chart for chart in charts]


def kept_turns(camp: Campaign) -> list[int]:
    history = camp.folder / "history"
    return sorted(int(p.name) for p in history.iterdir() if p.is_dir() and p.name.isdigit()) if history.is_dir() \
        else []


def read_turn(camp: Campaign, ruleset: AnyRuleset, number: int, out: Path) -> Turn:
    turn = Turn(number)
    folder = camp.history(number)
    for name in public_reports(camp, number):
        text = (folder / name).read_text(encoding="utf-8")
        title = next((line.lstrip("# ").strip() for line in text.splitlines() if line.startswith("#")), name)
        turn.reports.append((title, Markup(markdown_to_html(text))))
    game: dict[str, Any] = {}
    start = [("start", folder / "start.toml")] if (folder / "start.toml").exists() else []
    for stage, path in stage_snapshots(camp, number) or start:      # a turn under way: the map it opened with
        game = dict(read_toml(path).get("game", {}))
        name = f"{camp.name}-turn-{number:03d}-{stage}"
        drawn = kept(path, name, settings=[camp.folder / "campaign.toml"]) or picture_of(
            ruleset, camp.settings, game, name)
        if drawn is not None:
            _write_changed(out / "pictures" / f"{drawn.name}.png", drawn.png)
            turn.pictures.append((stage, f"pictures/{drawn.name}.png"))
    dice = folder / "dice.toml"
    turn.dice = read_toml(dice) if dice.exists() else {}
    if game:
        turn.held, turn.pieces = standing(camp, ruleset, game)
    return turn


def _write_changed(path: Path, data: bytes) -> None:
    """Write `data` unless the file holds it already: the site is written again at every turn's
    end, and the pictures of the turns before are the same each time."""
    try:
        if path.stat().st_size == len(data) and path.read_bytes() == data:
            return
    except OSError:
        pass
    write_atomic(path, data)


def standing(camp: Campaign, ruleset: AnyRuleset, game: dict[str, Any]) -> tuple[Counter[str], Counter[str]]:
    """Places held and pieces on the map per side, as the map picture shows them."""
    from datetime import UTC, datetime

    view = ruleset.view(Context(camp.settings, game, datetime.now(UTC)))
    scene = ruleset.scene(view)
    if scene is None:
        return Counter(), Counter()
    name = {side.id: side.name for side in scene.sides}
    return (Counter(name.get(owner, owner) for owner in scene.owners.values()),
            Counter(name.get(piece.owner, piece.owner) for piece in scene.pieces))


def write_charts(turns: list[Turn], out: Path) -> list[str]:
    """Line charts of places held and pieces per side over the turns, as SVG files."""
    import pygal  # type: ignore[import-untyped]  # LGPL, pure Python, no type hints: axes, legend, lines

    files = []
    for what, title in (("held", "Places held at the end of each turn"), ("pieces", "Pieces on the map")):
        counts = [getattr(turn, what) for turn in turns]
        sides = sorted({side for count in counts for side in count})
        if not sides:
            continue
        chart = pygal.Line(js=[], disable_xml_declaration=True, width=640, height=320, title=title,
                           x_title="Turn", show_dots=True, legend_at_bottom=True)
        chart.x_labels = [str(turn.number) for turn in turns]
        for side in sides:
            chart.add(side, [count.get(side, 0) for count in counts])
        name = f"charts/{what}.svg"
        write_atomic(out / name, re.sub(r"<script.*?</script>", "", chart.render(is_unicode=True), flags=re.S))
        files.append(name)
    return files


def environment(folder: Path) -> SandboxedEnvironment:
    """The site's templates, a campaign's own `templates/site/` first; HTML, so autoescaped."""
    paths = [folder / "templates" / "site", TEMPLATES_DIR / "site"]
    return SandboxedEnvironment(loader=ChoiceLoader([FileSystemLoader(str(p)) for p in paths if p.is_dir()]),
                                undefined=StrictUndefined, autoescape=True, trim_blocks=True, lstrip_blocks=True)


def _page(env: SandboxedEnvironment, template: str, path: Path, context: dict[str, Any]) -> Path:
    write_atomic(path, env.get_template(f"{template}.html.j2").render(**context))
    return path
