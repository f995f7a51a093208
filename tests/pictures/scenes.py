"""A turn of each rule system played through its own hooks, and the scene of the stage it
resolved, with the maps they stand on: what the structural and golden picture tests draw.

- Daemon Rift, turn 1 on the Rift Valley: Red's R-1 attacks Blue's B-1 at T26, a tabletop battle;
  Red wins it, and B-1 retreats to T27 (the battle results window's picture).
- Diplomacy, Fall 1901 on the standard board: England convoys A YOR to Norway, Germany's supported
  attack dislodges the French army in Burgundy, Russia and Turkey bounce in the Black Sea.
- Campaigns of Conquest, the documented round 3 position at window 4: Anna claims T7, then runs
  out of EP for T13 and T14; Ben raids T30; Ben's siege of Deepdale stands.
- Mighty Kingdoms, year 1 month 2's battle window on the Three Realms, from a built state: a move
  that took a tile, one turned back by a tower, a battle and the loser's retreat.
"""

from __future__ import annotations

import tempfile
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from pbem.kit.hexes import load_hexmap
from pbem.kit.maps import PlaceMap
from pbem.kit.scene import Scene
from pbem.rulesets import registry
from pbem.rulesets.base import Context
from pbem.state.campaign import Campaign
from tests.pictures import stages

MAPS = Path(__file__).resolve().parents[2] / "rules" / "maps"
RIFT_ORDERS = {"red": "R-1 M T26\nR-2 S R-1 T25-T26", "blue": "B-1 H\nB-2 M T9"}
RIFT_RESULTS = {"red": "RESULT 1 Red\nRESULT 2 Red", "blue": "RESULT 1 Red\nRESULT 2 Red"}
SPRING_1901 = {"aus": "A VIE - GAL\nF TRI H\nA BUD S F TRI", "eng": "F LON - NTH\nA LVP - YOR\nF EDI - NWG",
               "fra": "A PAR - BUR\nA MAR S A PAR - BUR\nF BRE - MAO", "ger": "A MUN - RUH\nA BER - MUN\nF KIE - DEN",
               "ita": "A VEN - TRI", "rus": "A WAR - GAL\nF SEV - BLA", "tur": "F ANK - BLA"}
FALL_1901 = {"eng": "F NTH C A YOR - NWY\nA YOR - NWY", "ger": "A RUH - BUR\nA MUN S A RUH - BUR",
             "rus": "F SEV - BLA", "tur": "F ANK - BLA"}
CONQUEST_ORDERS = {"anna": "CLAIM T7\nCLAIM T13\nCLAIM T14", "ben": "RAID T30"}


@cache
def rift_games() -> tuple[dict[str, Any], dict[str, Any], Campaign]:
    """(after the orders window, after the battle results window, the campaign)."""
    root = Path(tempfile.mkdtemp(prefix="pbem-scenes-"))
    camp, game = stages.rift(root, {"R-1": "T25", "R-2": "T9", "B-1": "T26", "B-2": "T10"})
    orders = stages.resolve(camp, game, RIFT_ORDERS)
    return orders, stages.resolve(camp, orders, RIFT_RESULTS), camp


@cache
def diplomacy_games() -> tuple[dict[str, Any], dict[str, Any], Campaign]:
    """(after Spring 1901 movement, after Fall 1901 movement, the campaign)."""
    root = Path(tempfile.mkdtemp(prefix="pbem-scenes-"))
    camp, game = stages.diplomacy(root)
    spring = stages.resolve(camp, game, SPRING_1901)
    return spring, stages.resolve(camp, spring, FALL_1901), camp


@cache
def conquest_games() -> tuple[dict[str, Any], dict[str, Any], Campaign]:
    """(the position, after window 4, the campaign)."""
    root = Path(tempfile.mkdtemp(prefix="pbem-scenes-"))
    camp, game = stages.conquest(root)
    return game, stages.resolve(camp, game, CONQUEST_ORDERS), camp


def scene_of(camp: Campaign, game: dict[str, Any]) -> Scene:
    ruleset = registry.get(camp.settings.ruleset)
    scene = ruleset.scene(ruleset.view(Context(camp.settings, game, stages.T0)))
    assert scene is not None
    return scene


def map_of(camp: Campaign) -> PlaceMap:
    return registry.get(camp.settings.ruleset).load_map(camp.settings)  # type: ignore[no-any-return]


def rift_map() -> PlaceMap:
    return map_of(rift_games()[2])


def rift_scene() -> Scene:
    _, results, camp = rift_games()
    return scene_of(camp, results)


def diplomacy_map() -> PlaceMap:
    return map_of(diplomacy_games()[2])


def diplomacy_scene() -> Scene:
    _, fall, camp = diplomacy_games()
    return scene_of(camp, fall)


def conquest_map() -> PlaceMap:
    """The Four Marches hex map (what the layout and delivery tests draw on)."""
    return load_hexmap(MAPS / "four_marches.toml")


def conquest_turn_map() -> PlaceMap:
    """The Three Crowns map the Conquest turn is played on."""
    return map_of(conquest_games()[2])


def conquest_scene() -> Scene:
    _, after, camp = conquest_games()
    return scene_of(camp, after)


def mighty_kingdoms_map() -> PlaceMap:
    """The Three Realms hex map of the Mighty Kingdoms demo."""
    return load_hexmap(MAPS / "mk_three_realms.toml")


def mighty_kingdoms_scene() -> Scene:
    """Year 1, month 2 in its battle window (tests/mighty_kingdoms/test_picture.py's month): Red's A1
    took T35 from T29, Blue's B1 was turned back from the tower at T31 and, beaten at T35, lies on its
    side in T34; Red's village T20 is razed."""
    from pbem.rulesets.mighty_kingdoms import rules
    from pbem.rulesets.mighty_kingdoms.ruleset import RULESET as MIGHTY_KINGDOMS
    from pbem.rulesets.phases import View
    from tests.mighty_kingdoms.helpers_reform import settings
    from tests.mighty_kingdoms.test_picture import month

    state = month()
    view = View(settings(["a", "b"]), state, mighty_kingdoms_map(), rules.load(), datetime(2026, 5, 1, tzinfo=UTC))
    return MIGHTY_KINGDOMS.scene(view)
