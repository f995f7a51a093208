"""A map holds what adjudication reads and little else: the index of province names is built
only when a player writes a name rather than an id, and each neighbour in the adjacency is the
very string that is its province's key (a map file spells every id again in its neighbours'
lists; a second copy is memory a large map's lookups would have to read)."""

from __future__ import annotations

import tomllib

from pbem.rulesets.diplomacy import Board, Unit, adjudicate_movement
from pbem.rulesets.diplomacy.board import MAPS_DIR, board_from_data


def fresh_board() -> Board:
    """The standard map read anew from its file, so no other test has used its name index."""
    return board_from_data(tomllib.loads((MAPS_DIR / "standard.toml").read_text(encoding="utf-8")))


def test_orders_by_id_leave_the_name_index_unbuilt() -> None:
    board = fresh_board()
    result = adjudicate_movement(board, [Unit("France", "A", "PAR")], [("France", "A PAR - BUR")])
    assert [r.result for r in result.orders] == ["succeeds"]
    assert "names" not in vars(board)


def test_an_order_by_name_builds_the_index_and_reads_as_before() -> None:
    board = fresh_board()
    result = adjudicate_movement(board, [Unit("France", "A", "PAR")], [("France", "A Paris - Burgundy")])
    assert [(r.order, r.result) for r in result.orders] == [("A PAR - BUR", "succeeds")]
    assert "names" in vars(board)


def test_each_neighbour_is_its_provinces_own_key() -> None:
    board = fresh_board()
    key = {p: p for p in board.provinces}
    neighbours = [n for near in board.army_adj.values() for n in near]
    assert neighbours and all(n is key[n] for n in neighbours)
