"""Map M1 and state builders from the Daemon Rift catalog's acceptance scenarios.

M1 is a 3x3 grid of clear territories, Red (T1 stronghold, T2, T4), Blue
(T9 stronghold, T6, T8), faction order Red, Blue, Green.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from pbem.kit.rulebook import RuleBook, load_rules
from pbem.kit.territories import GameMap, map_from_dict
from pbem.rulesets.daemon_rift.model import (
    LIST_ACTIVE,
    ArmyList,
    DRState,
    Faction,
    Token,
)

GRID_EDGES = [
    ("T1", "T2"), ("T2", "T3"), ("T4", "T5"), ("T5", "T6"), ("T7", "T8"), ("T8", "T9"),
    ("T1", "T4"), ("T4", "T7"), ("T2", "T5"), ("T5", "T8"), ("T3", "T6"), ("T6", "T9"),
]
NAMES = {"R": "Red", "B": "Blue", "G": "Green", "Y": "Yellow"}


def build_map(
    edges: Iterable[tuple[str, str]] = GRID_EDGES,
    terrain: Mapping[str, str] | None = None,
    extra: Iterable[str] = (),
    rivers: Iterable[tuple[str, str]] = (),
    roads: Iterable[tuple[str, str]] = (),
    special: tuple[str, ...] = ("T2", "T8"),
    objective: str = "T5",
) -> GameMap:
    """M1 by default; scenarios add territories, terrain, rivers and roads."""
    edges = list(edges)
    names = sorted({t for e in edges for t in e} | set(extra))
    terrain = terrain or {}
    rivers_set = {frozenset(r) for r in rivers}
    roads_set = {frozenset(r) for r in roads}
    data: dict[str, Any] = {
        "name": "M1",
        "territories": {t: {"terrain": terrain.get(t, "clear")} for t in names},
        "borders": [
            {"between": list(e), "river": frozenset(e) in rivers_set, "road": frozenset(e) in roads_set}
            for e in edges
        ],
        "homes": {
            "R": {"stronghold": "T1", "originals": ["T1", "T2", "T4"]},
            "B": {"stronghold": "T9", "originals": ["T9", "T6", "T8"]},
        },
        "special": list(special),
        "objective": objective,
    }
    return map_from_dict(data)


def build_state(
    tokens: Mapping[str, str],
    control: Mapping[str, str] | None = None,
    homes: Mapping[str, tuple[str, list[str]]] | None = None,
    lists: Mapping[str, Mapping[str, Any]] | None = None,
    turn: int = 3,
) -> DRState:
    """A state with the given tokens ({"R-1": "T4"}) and control ({"T4": "R"}).

    Every list token gets an approved, active 2250 list that has fought before
    (M1's default); `lists` overrides fields per token id.
    """
    homes = dict(homes or {"R": ("T1", ["T1", "T2", "T4"]), "B": ("T9", ["T9", "T6", "T8"]), "G": ("G0", ["G0"])})
    factions = sorted({t.split("-")[0] for t in tokens} | set(homes) | set((control or {}).values()),
                      key=lambda f: "RBGY".find(f) if f in "RBGY" else 99)
    state = DRState(turn=turn, faction_order=list(factions))
    for f in factions:
        stronghold, originals = homes.get(f, (f"{f}0", [f"{f}0"]))
        state.factions[f] = Faction(f, NAMES.get(f, f), f"player-{f.lower()}", stronghold, list(originals))
    for tid, where in tokens.items():
        faction = tid.split("-")[0]
        state.tokens[tid] = Token(tid, faction, where)
        if not tid.split("-")[1].startswith("D"):
            slot = int(tid.split("-")[1])
            lst = ArmyList(faction, slot, status=LIST_ACTIVE, name=f"{NAMES.get(faction, faction)} list {slot}",
                           approved=True, battles=1)
            for key, value in (lists or {}).get(tid, {}).items():
                setattr(lst, key, value)
            state.lists[tid] = lst
    state.control = dict(control or {})
    return state


@pytest.fixture
def m1() -> GameMap:
    return build_map()


@pytest.fixture
def rules() -> RuleBook:
    return load_rules("daemon_rift")


def rules_with(**overrides: Mapping[str, Any]) -> RuleBook:
    """Rules with overrides, e.g. rules_with(movement={"path_crossing": "intercept"})."""
    return load_rules("daemon_rift", overrides)
