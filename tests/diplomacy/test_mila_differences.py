"""Positions on which pbem and the `diplomacy` package (MILA) rule differently,
each with the rule pbem follows (the benchmark compares the two engines)."""

from __future__ import annotations

import pytest

from pbem.rulesets.diplomacy import Unit, adjudicate_movement, standard_board

BOARD = standard_board()


@pytest.mark.clause("DATC-6.E.12")
def test_convoy_holds_when_its_fleets_own_power_supports_the_attack_on_it() -> None:
    """Russia supports Germany's F DEN - NTH against Russia's own convoying fleet.
    The support counts against Austria's F SKA (both attacks bounce: 2 against 1 and
    the 1 of the hold), but it cannot help dislodge a Russian unit (DATC 6.E.12), so
    F NTH is not dislodged and still convoys Italy's army to Norway. MILA reports
    the convoy as disrupted."""
    units = [Unit("Russia", "F", "NTH"), Unit("Russia", "F", "BEL"), Unit("Italy", "A", "YOR"),
             Unit("Germany", "F", "DEN"), Unit("Austria", "F", "SKA")]
    orders = [("Russia", "F NTH C A YOR - NWY"), ("Russia", "F BEL S F DEN - NTH"), ("Italy", "A YOR - NWY"),
              ("Germany", "F DEN - NTH"), ("Austria", "F SKA - NTH")]
    result = adjudicate_movement(BOARD, units, orders)
    assert [r.result for r in result.orders] == ["succeeds", "succeeds", "succeeds", "fails", "fails"]
    assert "Italy: A NWY" in map(str, result.units) and result.dislodged == []
