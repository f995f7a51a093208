"""COC-BAT arithmetic: battle size, team shares, gold limits and army bonuses."""

from __future__ import annotations

from pbem.rulesets.conquest.armies import (
    GM_NEEDED,
    allocate_gold,
    army_points,
    gold_bonus,
    largest_empire_bonus,
    settle_shares,
    settle_size,
)


def test_coc_bat_1_coc_bat_2_size_from_proposals() -> None:
    assert settle_size([1500, 1500], 2000).points == 1500                 # equal proposals
    assert settle_size([3000, 1500], 2000).points == 1500                 # smaller by default
    assert settle_size([3000, 1500], 2000, "larger").points == 3000
    assert settle_size([3000, 1500], 2000, "default").points == 2000
    decided = settle_size([3000, 1500], 2000, "gm")
    assert decided.points == 1500 and decided.how == GM_NEEDED
    assert settle_size([1000, 0], 2000).points == 1000                    # one side only
    assert settle_size([], 2000).how.startswith("nobody proposed") and settle_size([0, 0], 2000).points == 2000
    assert settle_size([3000, 1500], 2000, gm_points=2500).points == 2500  # the GM may override


def test_coc_bat_3_largest_empire_bonus() -> None:
    assert largest_empire_bonus(2000) == 50 and largest_empire_bonus(1000) == 25


def test_coc_bat_5_gold_bonus_is_proportional() -> None:
    assert gold_bonus(2000, 200) == 200 and gold_bonus(1000, 200) == 100
    assert gold_bonus(2000, 50) == 50 and gold_bonus(1000, 50) == 25


def test_coc_bat_6_fractions_dropped() -> None:
    assert largest_empire_bonus(1500) == 37 and gold_bonus(1500, 50) == 37
    assert largest_empire_bonus(1500, rounding="up") == 38


def test_coc_bat_4_coc_bat_8_gold_cut_on_later_battles() -> None:
    assert allocate_gold(230, [200, 100]) == [200, 30]
    assert allocate_gold(1000, [250, -5, 120]) == [200, 0, 120]           # at most 200, never negative
    assert allocate_gold(0, [50]) == [0]


def test_coc_bat_9_coc_bat_10_every_bonus_in_every_battle() -> None:
    first = army_points(2000, True, 200)
    second = army_points(2000, True, 30)
    assert (first.largest_bonus, second.largest_bonus) == (50, 50)
    assert first.total == 2250 and second.total == 2080


def test_coc_bat_11_coc_bat_12_team_shares() -> None:
    shares, used = settle_shares(2000, ["ben", "dan"], {"ben": 1500, "dan": 500})
    assert used and shares == {"ben": 1500, "dan": 500}
    shares, used = settle_shares(2000, ["ben", "dan"], {"ben": 1500, "dan": 1500})   # inconsistent
    assert not used and shares == {"ben": 1000, "dan": 1000}
    shares, _ = settle_shares(2000, ["ben", "dan", "eve"], {"ben": 1500})
    assert shares == {"ben": 668, "dan": 666, "eve": 666}                 # remainder to the first challenger


def test_coc_bat_13_coc_bat_14_bonuses_on_own_share() -> None:
    assert army_points(1500, True, 100).largest_bonus == 37
    assert army_points(1500, False, 100).total == 1575                     # SC-5 team variant
    assert army_points(2000, True, 200).total == 2250                     # the lone opponent: full size


def test_sc_5_1000_point_variant() -> None:
    assert army_points(1000, True, 0).total == 1025
    assert army_points(1000, True, 200).total == 1125
