"""Acknowledgements a player can act on: each rejected line quoted with its number, a signature
or greeting skipped as prose with one note, suggestions that name the place, and no Python repr in a mail."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.kit.orders import AmbiguousOrder, InvalidOrder, NameIndex, NotAnOrder
from pbem.state.campaign import Campaign
from tests.support.engine_helpers import SECRETS, body, dr_campaign, outbox, put, run

RED = f"PLAYER red {SECRETS['red']}\n"


@pytest.fixture
def camp(tmp_path: Path) -> Campaign:
    return dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T1"})


def test_every_rejected_line_is_quoted_with_its_number(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T25\nR-1 M Nowhere Land\n")
    text = body(outbox(run(camp), "alice")[0])
    assert "line 3 (invalid): `R-1 M Nowhere Land`: unknown territory" in text


def test_a_signature_after_the_orders_is_skipped_as_prose_once_not_reported_as_orders(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T24\n\nCheers,\nAlice\n")
    text = body(outbox(run(camp), "alice")[0])
    assert "Not accepted" not in text and "`R-1 M T24`" in text
    assert text.count("2 lines read as prose and skipped: line 4 `Cheers,`, line 5 `Alice`.") == 1


def test_a_greeting_between_orders_is_prose_but_a_line_naming_a_token_is_an_order(camp: Campaign) -> None:
    put(camp, "m1", RED + "Hello there\nR-1 M T24\nR-1 goes home\n")
    text = body(outbox(run(camp), "alice")[0])
    assert "1 line read as prose and skipped: line 2 `Hello there`." in text
    assert "line 4 (invalid): `R-1 goes home`" in text and "Hello there`:" not in text


def test_a_suggestion_names_the_place_and_a_misspelt_second_word_still_matches(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M Northmarh\nR-1 M Cinder Reech\n")
    text = body(outbox(run(camp), "alice")[0])
    assert "did you mean **T25 Northmarch**" in text
    assert "unknown territory \u201cCinder Reech\u201d; did you mean **T27 Cinder Reach**" in text
    assert "'" not in text.split("Not accepted")[1].split("Orders on file")[0]    # no repr quotes


def test_choices_are_offered_ranked_by_similarity_and_only_when_few() -> None:
    index = NameIndex({"T1": ("North Sea",), "T2": ("Northmarch",), "T3": ("North Africa",)})
    with pytest.raises(AmbiguousOrder) as three:
        index.lookup("North")
    assert three.value.suggestion == "T1 North Sea, T2 Northmarch, T3 North Africa"     # the closest first
    many = NameIndex({f"T{i}": (f"Ash {i}",) for i in range(1, 10)})
    with pytest.raises(AmbiguousOrder) as lots:
        many.lookup("Ash")
    assert lots.value.suggestion == "" and "matches 9 names" in lots.value.reason
    with pytest.raises(InvalidOrder) as unknown:
        index.lookup("Sout")
    assert "'" not in unknown.value.reason and "\u201cSout\u201d" in unknown.value.reason


def test_a_faction_whose_every_order_was_rejected_still_gave_invalid_orders(camp: Campaign) -> None:
    put(camp, "m1", RED + "R-1 M T99\n")
    camp = run(camp)
    orders = camp.state["submissions"]["red"]["payload"]["orders"]
    assert orders["explicit"] == ["R-1"] and not orders["orders"]
    text = body(outbox(camp, "alice")[0])
    assert "all rejected" in text and "line 2 (invalid): `R-1 M T99`" in text


def test_a_diplomacy_line_without_a_unit_is_not_an_order() -> None:
    from pbem.rulesets.diplomacy.board import standard_board
    from pbem.rulesets.diplomacy.orders import order_reader

    with pytest.raises(NotAnOrder):
        order_reader(standard_board(), "movement")("Cheers,")


def test_a_name_after_the_list_lines_of_an_html_mail_is_ignored_once(tmp_path: Path) -> None:
    from pbem.rulesets import registry
    from pbem.stages import turns
    from tests.support.engine_helpers import T0

    camp = dr_campaign(tmp_path, {"R-1": "T25", "B-1": "T1"})
    camp.state["game"]["dr"]["phase"] = "lists"
    camp.state["game"]["dr"]["lists"]["R-1"].update(approved=False, status="active")
    turns.open_stage(camp, registry.get("daemon_rift"), T0)
    camp.save()
    put(camp, "m1", f"<html><body><p>PLAYER red {SECRETS['red']}</p><p>LIST R-1 Second Host</p>"
        "<p>Cheers,<br>Alice</p></body></html>", ctype='text/html; charset="utf-8"')
    text = body(outbox(run(camp), "alice")[0])
    assert "not a list line" not in text and text.count("read as prose and skipped") == 1, text
