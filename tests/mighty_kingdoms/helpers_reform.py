"""Small Mighty Kingdoms boards for the Reform tests: a strip of hex tiles, kingdoms, armies."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pbem.kit.hexes import hexmap_from_dict
from pbem.kit.roster import Mark, Roster
from pbem.rulesets.mighty_kingdoms import armylist, rules
from pbem.rulesets.mighty_kingdoms.model import MEDAL, SCAR, Army, Kingdom, MKState, MKView, TileState
from pbem.rulesets.phases import View
from pbem.state.campaign import Player, Settings
from pbem.state.schedule import Schedule


def settings(players: list[str]) -> Settings:
    people = tuple(Player(p, p.upper(), (f"{p}@127.0.0.1",), "", faction=p) for p in players)
    gm = Player("gm", "GM", ("gm@127.0.0.1",), "")
    return Settings("mk", "Test Kingdoms", "mighty_kingdoms", "", "pbem@127.0.0.1", "127.0.0.1",
                    Schedule.from_settings({}), {}, {}, {}, gm, people)


def strip(count: int) -> Any:
    """T1..Tn in a row (each next to the one before), all land."""
    return hexmap_from_dict({"tiles": {f"T{i}": {"q": i, "r": 0, "terrain": "land"} for i in range(1, count + 1)}})


def view(state: MKState, tiles: int = 6, overrides: dict[str, Any] | None = None) -> MKView:
    return View(settings(list(state.kingdoms)), state, strip(tiles), rules.load(overrides),
                datetime(2026, 5, 1, tzinfo=UTC))


def board(players: list[str]) -> MKState:
    state = MKState(order=list(players))
    state.kingdoms = {p: Kingdom(p, p.upper()) for p in players}
    return state


def army(state: MKState, ident: str, owner: str, tile: str, units: list[str], upright: bool = True) -> Army:
    """An army from unit lines in the mail syntax (armylist); its tile is owned by `owner` if unexplored."""
    roster, problems = armylist.read(ident, ident, enumerate(units, 1))
    assert not problems, problems
    made = Army(ident, owner, tile, upright=upright, roster=roster)
    state.armies[ident] = made
    state.tiles.setdefault(tile, TileState(owner))
    return made


def marks(roster: Roster, unit: str, medals: int = 0, scars: int = 0) -> None:
    entry = roster.get(unit)
    assert entry is not None
    for _ in range(medals):
        entry.add_mark(Mark(MEDAL, value=1, permanent=False))
    for _ in range(scars):
        entry.add_mark(Mark(SCAR, value=1, permanent=False))


SPEARMEN = "Spearmen | Inf | 5 4+ - 4+ 12 13/15 | | 100"
