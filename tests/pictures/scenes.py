"""A small position of each rule system, built from its typed state, and the maps they stand on."""

from __future__ import annotations

from pathlib import Path

from pbem.kit.hexes import load_hexmap
from pbem.kit.maps import PlaceMap
from pbem.kit.scene import Scene
from pbem.kit.territories import load_map
from pbem.rulesets.conquest import picture as conquest_picture
from pbem.rulesets.conquest.model import (
    W_CONQUEST,
    Battle,
    ConquestState,
    Empire,
    RoundState,
    Siege,
    TileState,
)
from pbem.rulesets.daemon_rift import picture as rift_picture
from pbem.rulesets.daemon_rift.model import DRState, Effective, Faction, Order, Token, TurnFacts
from pbem.rulesets.diplomacy import picture as diplomacy_picture
from pbem.rulesets.diplomacy.board import standard_board
from pbem.rulesets.diplomacy.cycle import GameState
from pbem.rulesets.diplomacy.results import DislodgedUnit, OrderResult
from pbem.rulesets.diplomacy.units import Unit

MAPS = Path(__file__).resolve().parents[2] / "rules" / "maps"


def rift_map() -> PlaceMap:
    return load_map(MAPS / "rift_valley.toml")


def rift_scene() -> Scene:
    state = DRState(
        turn=3, phase="orders",
        factions={"R": Faction("R", "Red", "red", "T24", ["T24", "T55", "T25"]),
                  "B": Faction("B", "Blue", "blue", "T28", ["T28", "T27", "T29"])},
        faction_order=["R", "B"],
        tokens={"R-1": Token("R-1", "R", "T24"), "R-D1": Token("R-D1", "R", "T25"),
                "B-1": Token("B-1", "B", "T28"), "B-2": Token("B-2", "B", "T29")},
        control={"T24": "R", "T25": "R", "T55": "R", "T28": "B", "T27": "B", "T29": "B"},
    )
    effective = Effective(orders={
        "R-1": Order("R-1", "M", ("T25", "T26")),
        "R-D1": Order("R-D1", "S", ("T25", "T26"), target="R-1"),
        "B-1": Order("B-1", "M", ("T27", "T26")),
        "B-2": Order("B-2", "H"),
    })
    facts = TurnFacts(entered={"R-1": "T26"}, retreated={"B-2": "T30"})
    return rift_picture.scene(state, "rift-test", effective, facts, battles={"T26": 1})


def diplomacy_map() -> PlaceMap:
    return standard_board("standard")


def diplomacy_scene() -> Scene:
    board = standard_board("standard")
    state = GameState(
        year=1901, season="fall", phase="retreat",
        units=(Unit("England", "F", "NTH"), Unit("England", "A", "NWY"), Unit("Germany", "A", "BUR"),
               Unit("Russia", "F", "STP/SC"), Unit("France", "F", "MAO")),
        centers={"LON": "England", "EDI": "England", "NWY": "England", "BER": "Germany", "PAR": "France",
                 "STP": "Russia"},
        dislodged=(DislodgedUnit(Unit("France", "A", "BUR"), "MUN"),),
        contested=("RUM",),
    )
    results = [OrderResult("England", "A YOR - NWY", "succeeds"),
               OrderResult("England", "F NTH C A YOR - NWY", "succeeds"),
               OrderResult("Germany", "A MUN - BUR", "succeeds"),
               OrderResult("Germany", "A RUH S A MUN - BUR", "succeeds"),
               OrderResult("Russia", "A UKR - RUM", "fails"),
               OrderResult("France", "A BUR R PAR", "succeeds"),
               OrderResult("France", "F MAO H", "succeeds")]
    return diplomacy_picture.scene(board, state, "dip-test", results)


def conquest_map() -> PlaceMap:
    return load_hexmap(MAPS / "four_marches.toml")


def conquest_scene() -> Scene:
    state = ConquestState(
        empires={"anna": Empire("anna", "Anna", "Red", capital="T1"),
                 "ben": Empire("ben", "Ben", "Blue", capital="T16")},
        tiles={"T1": TileState("anna"), "T2": TileState("anna"), "T9": TileState("anna", "castle"),
               "T16": TileState("ben"), "T10": TileState("ben"), "T15": TileState("")},
        sieges=[Siege("T10", "anna", "ben", 2)],
        round=RoundState(number=2, window=W_CONQUEST, battles=[Battle("B1", "land", ["anna"], ["ben"])]),
    )
    return conquest_picture.scene(state, "coc-test")
