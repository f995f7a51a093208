"""One stage of each rule system played through its own hooks (parse, then resolve), with the
picture of the game it leaves read back: what the turn pictures are tested on."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.gm.creation import NewPlayer, create
from pbem.kit.dice import SeededDice
from pbem.pictures.picture import picture_of
from pbem.rulesets import registry
from pbem.rulesets.base import AnyRuleset, Context
from pbem.state.campaign import Campaign
from tests.pictures.readback import Drawn, read_svg

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
DOCS = Path(__file__).resolve().parents[2] / "docs" / "positions"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def campaign(root: Path, system: str, players: list[NewPlayer], map_name: str = "") -> Campaign:
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", system.replace("_", "-")[:8], system, map_name, players, "gm@test.localhost",
                     T0, transport=transport)
    return camp


def resolve(camp: Campaign, game: Mapping[str, Any], orders: Mapping[str, str]) -> dict[str, Any]:
    """The stored game after the open stage of `game` resolves with `orders` (player id -> lines)."""
    ruleset = registry.get(camp.settings.ruleset)
    ctx = Context(camp.settings, game, T0)
    submissions = {}
    for pid, text in orders.items():
        player = camp.settings.player(pid)
        assert player is not None, pid
        parsed = ruleset.parse(ctx, player, list(enumerate(text.strip().splitlines(), 1)))
        assert not parsed.problems, [str(p) for p in parsed.problems]
        submissions[pid] = parsed.payload
    return dict(ruleset.resolve(ctx, submissions, SeededDice(7)).game)


def drawn(camp: Campaign, game: Mapping[str, Any]) -> Drawn:
    """The picture of a stored game, read back."""
    ruleset: AnyRuleset = registry.get(camp.settings.ruleset)
    picture = picture_of(ruleset, camp.settings, game, "test", raster=False, now=T0)
    assert picture is not None
    return read_svg(picture.svg)


def svg_of(camp: Campaign, game: Mapping[str, Any]) -> str:
    picture = picture_of(registry.get(camp.settings.ruleset), camp.settings, game, "test", raster=False, now=T0)
    assert picture is not None
    return picture.svg


# -- the three rule systems -------------------------------------------------------------------


def rift(root: Path, tokens: Mapping[str, str]) -> tuple[Campaign, dict[str, Any]]:
    """Red and Blue on the Rift Valley map, turn 1's orders open, `tokens` where they stand."""
    from tests.support.engine_helpers import dr_campaign

    camp = dr_campaign(root, tokens=tokens)
    return camp, dict(camp.state["game"])


def diplomacy(root: Path) -> tuple[Campaign, dict[str, Any]]:
    """The seven powers on the standard board, Spring 1901."""
    players = [NewPlayer(p.lower()[:3], p, f"{p.lower()}@test.localhost", p, p[:3].upper()) for p in POWERS]
    camp = campaign(root, "diplomacy", players)
    return camp, dict(camp.state["game"])


def conquest(root: Path) -> tuple[Campaign, dict[str, Any]]:
    """The documented example position: round 3 of a Three Crowns campaign, window 4 open."""
    players = [NewPlayer(p, p.title(), f"{p}@test.localhost", c, c[0]) for p, c in
               (("anna", "Red"), ("ben", "Blue"), ("cara", "Green"))]
    camp = campaign(root, "conquest", players, "three_crowns")
    text = (DOCS / "conquest.md").read_text()
    example = re.search(r"## Example.*?```toml\n(.*?)```", text, re.S)
    assert example is not None
    position = tomllib.loads(example.group(1))
    return camp, registry.get("conquest").position(camp.settings, position, "position.toml")
