"""Orders are read once per distinct line and map, then served from a memo:
the memo must give the same answers as reading afresh, per phase, and must not
carry anything from one position into another."""

from __future__ import annotations

from pbem.rulesets.diplomacy import Unit, adjudicate_movement, standard_board
from pbem.rulesets.diplomacy.board import MEMO_LIMIT
from pbem.rulesets.diplomacy.orders import Move, Order, Retreat

BOARD = standard_board()


def test_same_line_reads_to_the_same_order_each_time() -> None:
    first = Order.parse("a par-bur", BOARD)
    assert Order.parse("a par-bur", BOARD) is first
    assert str(first) == "A PAR - BUR"


def test_memo_is_kept_per_phase() -> None:
    assert isinstance(Order.parse("A MUN - BOH", BOARD, "movement"), Move)
    assert isinstance(Order.parse("A MUN - BOH", BOARD, "retreat"), Retreat)
    assert isinstance(Order.parse("A MUN - BOH", BOARD, "movement"), Move)


def test_memoised_order_is_checked_against_each_position_afresh() -> None:
    """One line, two positions: the fleet's coast comes from the unit in each
    position, and a unit missing from the second position makes the line invalid."""
    south = adjudicate_movement(BOARD, [Unit("France", "F", "SPA/SC")], [("France", "F SPA - MAO")])
    north = adjudicate_movement(BOARD, [Unit("France", "F", "SPA/NC")], [("France", "F SPA - MAO")])
    empty = adjudicate_movement(BOARD, [Unit("France", "A", "PAR")], [("France", "F SPA - MAO")])
    assert [(r.order, r.result) for r in south.orders] == [("F SPA/SC - MAO", "succeeds")]
    assert [(r.order, r.result) for r in north.orders] == [("F SPA/NC - MAO", "succeeds")]
    assert [r.result for r in empty.orders] == ["invalid"]
    assert [str(u) for u in empty.units] == ["France: A PAR"]


def test_memoised_order_keeps_each_positions_owner_and_outcome() -> None:
    """The same lines in two positions with different owners and defenders."""
    orders = [("Germany", "A MUN - BUR"), ("France", "A PAR S A MUN - BUR")]
    alone = adjudicate_movement(BOARD, [Unit("Germany", "A", "MUN")], orders[:1])
    held = adjudicate_movement(
        BOARD, [Unit("Germany", "A", "MUN"), Unit("France", "A", "BUR")], [*orders[:1], ("France", "A BUR H")]
    )
    assert [str(u) for u in alone.units] == ["Germany: A BUR"]
    assert [str(u) for u in held.units] == ["France: A BUR", "Germany: A MUN"]
    assert [r.result for r in held.orders] == ["fails", "succeeds"]


def test_memo_that_outgrows_its_limit_starts_afresh() -> None:
    table = BOARD.memo("test table")
    table.update((str(n), n) for n in range(MEMO_LIMIT + 1))
    assert BOARD.memo("test table") == {}


def test_power_and_province_names_are_remembered_after_a_first_lookup() -> None:
    assert BOARD.power("french") == "France" and BOARD.power("french") == "France"
    assert BOARD.province("Mid-Atlantic") == "MAO" and BOARD.province("Mid-Atlantic") == "MAO"


def test_forgotten_readings_are_read_again_to_the_same_order() -> None:
    first = Order.parse("F NTH C A LON - BEL", BOARD)
    BOARD.forget_readings()
    again = Order.parse("F NTH C A LON - BEL", BOARD)
    assert again is not first and again == first
