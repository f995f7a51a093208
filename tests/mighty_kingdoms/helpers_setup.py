"""Mighty Kingdoms campaigns for the setup tests: made by the real `create`, read through the rule
system's hooks, resolved with fixed dice; and small states built by hand on a map of the tests."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pbem.gm.creation import NewPlayer, create
from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.rulesets.base import Context, Parsed, Resolution
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.model import MKState, MKView
from pbem.rulesets.mighty_kingdoms.ruleset import RULESET
from pbem.rulesets.phases import View
from pbem.state.campaign import Campaign

T0 = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SECRETS = {"a": "ANNA-TEST-0000-0000-0001", "b": "BENN-TEST-0000-0000-0002",
           "c": "CARA-TEST-0000-0000-0003", "gm": "GMGM-TEST-0000-0000-0000"}
PLAYERS = [NewPlayer(p, n, f"{p}@mk.localhost", k) for p, n, k in
           (("a", "Anna", "Red Realm"), ("b", "Ben", "Blue March"), ("c", "Cara", "Green Hold"))]

LIST = """LIST Iron Guard
Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100
Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100
Bowmen | Inf | 5 5+ 5+ 3+ 8 10/12 | | 90
Knights | Cav | 8 3+ - 5+ 16 14/17 | Thunderous Charge (2) | 130
Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring, Crushing Strength (1) | 80"""


COLOURS = [NewPlayer(p, p.title(), f"{p}@mk.localhost", f"{p.title()} Kingdom") for p in ("red", "blue", "green")]


def campaign(root: Path, rules: dict[str, Any] | None = None, map_name: str = "mk_three_realms",
             players: list[NewPlayer] | None = None) -> Campaign:
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    who = players or PLAYERS
    secrets = {p.id: f"SECRET-{p.id.upper():>4}-0000-0001" for p in who} | {"gm": SECRETS["gm"]}
    camp, _ = create(root / "campaigns", "mk", "mighty_kingdoms", map_name, who, "gm@mk.localhost", T0,
                     transport=transport, rules=rules, fixed_secrets=secrets if players else SECRETS)
    return camp


def ctx(camp: Campaign, game: dict[str, Any] | None = None) -> Context:
    return Context(camp.settings, game if game is not None else camp.state["game"], T0)


def view(camp: Campaign) -> MKView:
    return RULESET.view(ctx(camp))


def state(camp: Campaign) -> MKState:
    return RULESET.load_state(camp.state["game"])


def parse(camp: Campaign, player: str, text: str) -> Parsed:
    person = camp.settings.player(player)
    assert person is not None
    return RULESET.parse(ctx(camp), person, list(enumerate(text.strip().splitlines(), 1)))


def resolve(camp: Campaign, submissions: dict[str, dict[str, Any]], dice: Dice) -> Resolution:
    """Resolve the stage the campaign is in and keep the new game in `camp` (not saved)."""
    res = RULESET.resolve(ctx(camp), submissions, dice)
    camp.state["game"] = res.game
    return res


def gm(camp: Campaign, *words: str) -> str:
    game, reply = RULESET.gm_command(ctx(camp), list(words))
    camp.state["game"] = game
    return reply


def put(camp: Campaign, new: MKState) -> None:
    camp.state["game"] = RULESET.store(camp.state["game"], new)


def small_map(tiles: dict[str, dict[str, Any]]) -> HexMap:
    return hexmap_from_dict({"name": "test", "tiles": tiles})


def hand_view(camp: Campaign, new: MKState, gmap: HexMap | None = None, rules: dict[str, Any] | None = None) -> MKView:
    """A view over a state built by hand, on the campaign's settings (and a map of the test's own)."""
    return View(camp.settings, new, gmap or RULESET.load_map(camp.settings), rulesmod.load(rules), T0)
