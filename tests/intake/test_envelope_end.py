"""A bare END line closes a mail's orders (the signature below it is never read); a line that only
begins with END, like the `END LIST` closing a Mighty Kingdoms recruit's list block, is an order line."""

from __future__ import annotations

from pbem.intake.envelope import read_envelope

MAIL = "PLAYER green secret\nRECRUIT T60\nLIST Pack\nArchers | Inf | 5 5+ 4+ 3+ 10 10/12 | | 100\nEND LIST\n" \
       "BUILD village T54\nEND\n--\nCara"


def test_bare_end_closes_the_orders_and_the_signature_is_not_read() -> None:
    lines = [text for _, text in read_envelope("[mk-demo] winter", MAIL).lines]
    assert lines[-1] == "BUILD village T54" and "Cara" not in lines


def test_end_list_is_an_order_line_and_the_lines_after_it_are_read() -> None:
    lines = [text for _, text in read_envelope("[mk-demo] winter", MAIL).lines]
    assert lines == ["RECRUIT T60", "LIST Pack", "Archers | Inf | 5 5+ 4+ 3+ 10 10/12 | | 100", "END LIST",
                     "BUILD village T54"]
