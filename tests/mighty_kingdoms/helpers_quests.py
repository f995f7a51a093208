"""Small boards for the quest, artefact and deployment tests: a 4x3 hex grid, kingdoms, armies."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from pbem.kit.hexes import HexMap, hexmap_from_dict
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import armylist
from pbem.rulesets.mighty_kingdoms import rules as rulesmod
from pbem.rulesets.mighty_kingdoms.model import (
    WINTER,
    Army,
    Calendar,
    Kingdom,
    MKState,
    MKView,
    TileState,
)
from pbem.state.campaign import Player, Settings
from pbem.state.schedule import Schedule

NOW = datetime(2026, 11, 25, 9, 0, tzinfo=UTC)

# Rows of four: T1 T2 T3 T4 / T5 T6 T7 T8 / T9 T10 T11 T12 (axial q, r). T6's neighbours are
# T2, T3, T5, T7, T9 and T10.
GRID = {f"T{r * 4 + q + 1}": {"q": q, "r": r, "terrain": "land"} for r in range(3) for q in range(4)}

CAPTAIN = "Captain | Hero (Inf) | 5 3+ - 5+ 5 -/13 | Individual, Inspiring, Crushing Strength (1) | 80"
SPEARS = "Spearmen | Inf | 5 4+ - 4+ 12 14/16 | Phalanx | 100"
ARCHERS = "Bowmen | Inf | 5 5+ 5+ 3+ 8 10/12 | | 90"


def grid() -> HexMap:
    return hexmap_from_dict({"tiles": GRID})


def book(**sections: Mapping[str, Any]) -> RuleBook:
    """The shipped rules with overrides, e.g. book(quests={"resolution": "gm"})."""
    return rulesmod.load(dict(sections))


def settings(players: Iterable[str]) -> Settings:
    people = tuple(Player(p, p.title(), (f"{p}@mk.test",), "", p, p.title()) for p in players)
    return Settings("mk", "Mighty Test", "mighty_kingdoms", "grid", "mk@pbem.test", "pbem.test",
                    Schedule.from_settings({}), {}, {}, {}, Player("gm", "GM", ("gm@mk.test",), ""), people)


def state(players: Sequence[str] = ("a", "b", "c"), window: str = "purchases") -> MKState:
    """Winter of year 1, player order as given; kingdoms named after their players."""
    out = MKState(calendar=Calendar(1, WINTER, window), order=list(players))
    for p in players:
        out.kingdoms[p] = Kingdom(p, p.title())
    return out


def own(st: MKState, player: str, *tiles: str, settlement: str = "") -> None:
    for t in tiles:
        st.tiles[t] = TileState(player, settlement=settlement)


def tower(st: MKState, *tiles: str) -> None:
    for t in tiles:
        st.tiles[t] = TileState("", tower=True)


def capital(st: MKState, player: str, tile: str) -> None:
    own(st, player, tile, settlement="city")
    st.kingdoms[player].start_tile = tile


def army(st: MKState, ident: str, owner: str, tile: str, *units: str) -> Army:
    roster, problems = armylist.read(ident, f"{ident} list", enumerate(units or (CAPTAIN, SPEARS), start=1))
    assert not problems, problems
    made = Army(ident, owner, tile, roster=roster)
    st.armies[ident] = made
    return made


def view(st: MKState, gmap: HexMap | None = None, rules: RuleBook | None = None,
         decisions: Mapping[str, str] | None = None) -> MKView:
    return MKView(settings(st.kingdoms), st, gmap or grid(), rules or book(), NOW, decisions=decisions or {})


def player(ident: str) -> Player:
    return Player(ident, ident.title(), (f"{ident}@mk.test",), "", ident, ident.title())
