"""The one rule that tells order lines from prose (pbem/kit/prose.py), as every window uses it."""

from __future__ import annotations

from pbem.kit.orders import AmbiguousOrder, IllegalOrder, InvalidOrder, NotAnOrder
from pbem.kit.prose import Vocabulary, places_of, prose_lines, prose_note
from pbem.rulesets.daemon_rift.ruleset import campaign_map

WINDOW = Vocabulary.of(("CHALLENGE", "CLAIM", "EVENT", "A", "F"), ("Wyvern", "Orc Boyz", "R-1"),
                       ("T7", "Cinder Reach", "Brest"))


def test_greetings_thanks_and_names_read_as_prose() -> None:
    for line in ("Hi GM,", "What a game! Thanks Alice.", "Cheers,", "Alice", "--", "See you soon"):
        assert not WINDOW.is_order(line), line


def test_a_first_word_close_to_an_order_word_reads_as_an_order() -> None:
    for line in ("CHALENGE Ben", "CLIAM somewhere", "chalenge ben", "EVNT Plague"):
        assert WINDOW.is_order(line), line


def test_short_words_must_be_order_words_exactly() -> None:
    assert WINDOW.is_order("A Paris") and not WINDOW.is_order("Ah well")


def test_a_line_naming_an_id_or_a_place_or_carrying_a_digit_reads_as_an_order() -> None:
    for line in ("goes to Cinder Reach", "to brest please", "r-1 go home", "Wyvren killed", "Orc Boys lost",
                 "Goblins x 20", "Spearmen | Infantry"):
        assert WINDOW.is_order(line), line


def test_only_lines_rejected_as_not_understood_can_be_prose() -> None:
    lines = [(1, "Hi GM,"), (2, "Hi there"), (3, "Hello"), (4, "Cheers,"), (5, "Bye")]
    problems = [NotAnOrder("x", 1), IllegalOrder("y", 2), AmbiguousOrder("z", 3), InvalidOrder("w", 4)]
    assert prose_lines(lines, problems, WINDOW) == [(1, "Hi GM,"), (4, "Cheers,")]     # line 5 was accepted


def test_the_note_counts_and_quotes_each_skipped_line_as_code() -> None:
    assert prose_note([(2, "Hi GM,")]) == "1 line read as prose and skipped: line 2 `Hi GM,`."
    assert prose_note([(2, "Hi"), (9, "Say `hi`")]) == \
        "2 lines read as prose and skipped: line 2 `Hi`, line 9 `` Say `hi` ``."


def test_a_vocabulary_of_a_map_holds_its_places_and_is_the_same_for_every_mail() -> None:
    rift = campaign_map("rift_valley")
    made = Vocabulary.of_map(("M",), ("R-1",), rift)
    assert made == Vocabulary.of(("M",), ("R-1",), places_of(rift)) == Vocabulary.of_map(("M",), ("R-1",), rift)
    assert made.names_one(rift.name_of(places_of(rift)[0]))
