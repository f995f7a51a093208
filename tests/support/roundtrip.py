"""Export a campaign as a position, import it into a fresh campaign, and play the next tick in
both: the same mail waiting, the same dice secrets, the same engine records (stage, submissions,
journal, GM log, history); only the game differs, the fresh one's read back from the position.
What the tick then writes (reports, dice logs, the game) must be the same in both. The source's
own tick is the one its play goes on with (`exported` before it, `compared` after).
"""

from __future__ import annotations

import difflib
import shutil
import tomllib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem.cli import main
from pbem.gm.positions import export_position
from pbem.rulesets.base import AnyRuleset, PositionError
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.tick.engine import tick
from tests.season.agents import AGENTS
from tests.season.harness import Season

NAME = "season"


@dataclass
class Trip:
    """One round trip: where it was taken and every difference found."""

    title: str
    kind: str = ""                     # the stage's kind (window) when exported
    exported: bool = True
    resolved: bool = False             # the tick resolved the stage (else it only took mail)
    differences: list[str] = field(default_factory=list)


@dataclass
class Pending:
    """A round trip waiting for the tick: the source campaign, its fresh import, what their
    history held before."""

    trip: Trip
    source: Path
    copy: Path
    before: dict[Path, dict[str, bytes]]
    generation: Any


def exported(root: Path, work: Path, now: datetime, ruleset: AnyRuleset) -> Pending | Trip:
    """The campaign `root/campaigns/season` (its inbox `root/inbox`) as it waits for the tick at
    `now`, exported and imported into a fresh campaign under `work`; a Trip not exported when
    the export is refused."""
    source = root / "campaigns" / NAME
    camp = Campaign(source)
    title, kind = str(camp.state.get("stage", {}).get("title", "")), str(camp.state.get("stage", {}).get("kind", ""))
    turn = int(camp.state.get("stage", {}).get("turn", 0))
    for later in range(turn, turn + 3):       # the secrets of turns the tick may open: drawn once, shared
        turns.turn_secret(camp, later)
    try:
        text = export_position(camp, ruleset, now)
    except PositionError:
        return Trip(title, kind, exported=False)
    copy = _imported(work / "b", source, text, work / "position.toml")
    return Pending(Trip(title, kind), source, copy, {source: _files(source), copy: _files(copy)},
                   camp.state.get("generation"))


def compared(pending: Pending, now: datetime) -> Trip:
    """Once the source has had its tick at `now`: the import's tick at `now`, and every difference."""
    tick(pending.copy.parent, now)
    trip, source, copy = pending.trip, pending.source, pending.copy
    trip.resolved = Campaign(source).state.get("generation") != pending.generation
    trip.differences = _compare(source, copy, pending.before[source], pending.before[copy])
    return trip


def _imported(into: Path, source: Path, text: str, position: Path) -> Path:
    """A fresh campaign of the same campaign.toml started by `pbem import` from the position,
    then given the source's engine records, so that only the game comes from the position."""
    folder = into / "campaigns" / NAME
    folder.mkdir(parents=True)
    shutil.copy2(source / "campaign.toml", folder / "campaign.toml")
    position.write_text(text, encoding="utf-8")
    code = main(["import", str(folder), str(position)])
    assert code == 0, f"pbem import refused the exported position:\n{text}"
    game = Campaign(folder).state["game"]
    for name in ("history", "private"):
        shutil.rmtree(folder / name, ignore_errors=True)
        if (source / name).exists():
            shutil.copytree(source / name, folder / name)
    for name in ("auth.toml", "state.toml"):
        (folder / name).unlink(missing_ok=True)
        if (source / name).exists():
            shutil.copy2(source / name, folder / name)
    shutil.rmtree(folder / "outbox", ignore_errors=True)
    camp = Campaign(folder)
    camp.state["game"] = game
    camp.save()
    (into / "inbox").mkdir(parents=True)
    for mail in (source.parent.parent / "inbox").glob("*.eml"):
        shutil.copy2(mail, into / "inbox" / mail.name)
    return folder


def _files(folder: Path) -> dict[str, bytes]:
    history = folder / "history"
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(history.rglob("*")) if p.is_file()} \
        if history.exists() else {}


def _compare(a: Path, b: Path, was_a: dict[str, bytes], was_b: dict[str, bytes]) -> list[str]:
    out = []
    game_a, game_b = _unshown(Campaign(a).state["game"]), _unshown(Campaign(b).state["game"])
    out += [f"game: {d}" for d in _diff(game_a, game_b)]
    now_a, now_b = _files(a), _files(b)
    written = sorted({k for k, v in now_a.items() if was_a.get(k) != v} | {k for k, v in now_b.items()
                                                                            if was_b.get(k) != v})
    for name in written:
        if name.endswith(".md") or name.endswith("dice.toml"):
            if now_a.get(name) != now_b.get(name):
                out.append(f"{name}: differs: {_text_diff(now_a.get(name, b''), now_b.get(name, b''))}")
        elif name.endswith(".toml") and "stages" in name:
            continue                 # the game after a stage: compared as the game
    return out


def _unshown(game: dict[str, Any]) -> dict[str, Any]:
    """A Conquest round's log without the lines its reports already showed (a position starts the
    log afresh: what was shown is not shown again either way)."""
    rnd = game.get("conquest", {}).get("round")
    if rnd is not None:
        rnd["log"], rnd["log_shown"] = rnd.get("log", [])[rnd.get("log_shown", 0):], 0
    return game


def _text_diff(x: bytes, y: bytes) -> str:
    lines = difflib.unified_diff(x.decode().splitlines(), y.decode().splitlines(), "source", "import", n=0, lineterm="")
    return " | ".join(list(lines)[2:12])


def _diff(x: Any, y: Any, where: str = "") -> list[str]:
    if isinstance(x, dict) and isinstance(y, dict):
        out = []
        for key in sorted(set(x) | set(y), key=str):
            if key not in x or key not in y:
                out.append(f"{where}.{key}: only in {'the source' if key in x else 'the import'}")
            else:
                out += _diff(x[key], y[key], f"{where}.{key}")
        return out
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        return [d for i, (p, q) in enumerate(zip(x, y, strict=True)) for d in _diff(p, q, f"{where}[{i}]")]
    return [] if x == y else [f"{where}: {_short(x)} != {_short(y)}"]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) < 200 else text[:200] + "..."


def read(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def season_campaign(root: Path, system: str) -> Path:
    """The campaign a quick season of `system` plays (its players, map, schedule and rules), as
    `pbem new` made it: what the positions under tests/<system>/positions were exported from."""
    season = Season(root, system, 1, AGENTS[system](quick=True).setup)
    return season.camp.folder


def position_body(text: str) -> str:
    """A position file without its opening comment (where and when it was written)."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("#")).strip()


def reads_back(folder: Path, ruleset: AnyRuleset, position: Path) -> tuple[str, str]:
    """`pbem import` the position into the campaign; the stage it opened and the position that
    `pbem export-position` then writes."""
    assert main(["import", str(folder), str(position)]) == 0
    camp = Campaign(folder)
    return str(camp.state["stage"]["kind"]), export_position(camp, ruleset, datetime.now().astimezone())
