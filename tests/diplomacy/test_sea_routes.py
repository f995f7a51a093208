"""Which convoys the fleets at sea could make (DATC 4.E.1, 6.G.19): the one-fleet
short cut must agree with the search through groups of seas."""

from __future__ import annotations

import random

from pbem.rulesets.diplomacy import standard_board

BOARD = standard_board()
SEAS = sorted(BOARD.seas)
COASTS = sorted(p for p, spec in BOARD.provinces.items() if spec.kind == "coast")


def test_convoy_routes_agree_with_the_search_of_sea_groups() -> None:
    rng = random.Random(1901)
    checked = 0
    for _ in range(60):
        routes = BOARD.sea_routes(rng.sample(SEAS, rng.randint(1, 12)))
        for src in rng.sample(COASTS, 8):
            for dst in rng.sample(COASTS, 8):
                if src == dst:
                    continue
                searched = bool(routes.touching(src) & routes.touching(dst))
                assert routes.possible(src, dst) == searched, (src, dst)
                for via in routes.fleet_seas:
                    needed = routes._leg(src, via, dst) and routes._leg(dst, via, src)
                    assert routes.possible(src, dst, via) == needed, (src, dst, via)
                    checked += 1
    assert checked > 1000


def test_one_fleet_between_two_coasts_is_a_route() -> None:
    routes = BOARD.sea_routes(["NTH"])
    assert routes.possible("LON", "BEL") and routes.possible("LON", "BEL", via="NTH")
    assert not routes.possible("LON", "BRE") and not routes.possible("LON", "BRE", via="NTH")
