"""The ready-made Rift Valley map: what DR-SET and "What the map must provide" ask of it."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.territories import TERRAINS, GameMap, load_map

MAP_PATH = Path(__file__).resolve().parents[2] / "rules" / "maps" / "rift_valley.toml"


@pytest.fixture(scope="module")
def rift() -> GameMap:
    return load_map(MAP_PATH)


def edge_cycle(rift: GameMap) -> list[str]:
    """The edge territories in order around the map, starting at realm 1's stronghold."""
    far = max(rift.distances(rift.objective).values())
    edge = {t for t, d in rift.distances(rift.objective).items() if d == far}
    start = rift.homes["1"].stronghold
    cycle = [start]
    while True:
        step = sorted(n for n in rift.neighbours(cycle[-1]) if n in edge and n not in cycle)
        if not step:
            return cycle
        cycle.append(step[0])


def test_size_and_every_terrain_type(rift: GameMap) -> None:
    assert 50 <= len(rift.territories) <= 60
    assert {t.terrain for t in rift.territories.values()} == set(TERRAINS)
    assert len({t.name for t in rift.territories.values()}) == len(rift.territories)


def test_map_is_connected(rift: GameMap) -> None:
    assert len(rift.distances(rift.objective)) == len(rift.territories)


def test_dr_set_4_two_specials_near_the_centre_and_the_objective_at_the_centre(rift: GameMap) -> None:
    assert len(rift.special) == 2 and len(set(rift.special)) == 2 and rift.objective
    assert rift.objective not in rift.special
    eccentricity = {t: max(rift.distances(t).values()) for t in rift.territories}
    assert eccentricity[rift.objective] == min(eccentricity.values())
    assert all(rift.adjacent(s, rift.objective) for s in rift.special)


def test_dr_set_1_eight_realms_of_stronghold_and_two_adjacent_originals(rift: GameMap) -> None:
    assert sorted(rift.homes) == [str(n) for n in range(1, 9)]
    seen: set[str] = set()
    for home in rift.homes.values():
        assert len(home.originals) == 3 and home.stronghold in home.originals
        others = [t for t in home.originals if t != home.stronghold]
        assert all(rift.adjacent(home.stronghold, t) for t in others)
        assert not seen & set(home.originals)
        seen |= set(home.originals)
    assert not seen & {*rift.special, rift.objective}


def test_realms_lie_on_the_edge_equally_far_from_the_objective(rift: GameMap) -> None:
    edge = set(edge_cycle(rift))
    assert len(edge) >= 24
    distances = {rift.distance(h.stronghold, rift.objective) for h in rift.homes.values()}
    assert len(distances) == 1
    assert all(set(h.originals) <= edge for h in rift.homes.values())


@pytest.mark.parametrize("players", [4, 5, 6, 7, 8])
def test_first_n_realms_are_spread_fairly(rift: GameMap, players: int) -> None:
    cycle = edge_cycle(rift)
    slot = len(cycle) // 8
    spots = sorted(cycle.index(rift.homes[str(n)].stronghold) for n in range(1, players + 1))
    gaps = [(b - a) % len(cycle) for a, b in zip(spots, spots[1:] + spots[:1], strict=True)]
    assert max(gaps) - min(gaps) <= slot
    assert min(gaps) >= slot
    if players == 4:
        assert set(gaps) == {2 * slot}


def test_roads_reach_every_stronghold_and_cross_rivers_on_bridges(rift: GameMap) -> None:
    for home in rift.homes.values():
        assert any(rift.border(home.stronghold, n).road for n in rift.neighbours(home.stronghold))
    borders = list(rift.borders.values())
    assert any(b.river and b.road for b in borders)
    assert any(b.river and b.bridge and not b.road for b in borders)
    assert sum(b.unbridged_river for b in borders) >= 5


def test_names_resolve(rift: GameMap) -> None:
    assert rift.lookup("The Rift Maw") == rift.objective == rift.lookup("maw")
    assert rift.lookup("Old Kings Barrow") == "T4"
