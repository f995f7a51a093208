"""Dice rolled at the table (issue 24) in Diplomacy, which rolls no dice: a dice file listing a
roll for a stage is refused whole (the roll is left over), an empty one resolves the stage."""

from __future__ import annotations

from pbem.state.campaign import Campaign
from tests.diplomacy.test_campaign import camp, put, run  # noqa: F401  (camp: the fixture)
from tests.support.typed_dice import files, resolve_with, rolls


def test_a_roll_listed_for_a_dice_less_stage_is_left_over_and_refused(camp: Campaign) -> None:  # noqa: F811
    camp = run(camp)
    before = files(camp.folder)
    code, out, err = resolve_with(camp.folder, "# Spring 1901\n\nstandoff in Bur: 4\n")
    assert code == 1 and out == ""
    assert err.strip() == ("pbem: not resolved, nothing changed: line 3 `standoff in Bur: 4` is left over: the rules "
                           "made 0 roll(s); remove the lines from 3 on, or check that the orders on file are the ones "
                           "the rolls were made for")
    assert files(camp.folder) == before


def test_an_empty_dice_file_resolves_a_dice_less_stage(camp: Campaign) -> None:  # noqa: F811
    camp = run(camp)
    put(camp, "o1", "fra", "A Par - Bur\n")
    camp = run(camp)
    title = camp.state["stage"]["title"]
    code, out, err = resolve_with(camp.folder, "# nothing rolls in Diplomacy\n")
    assert code == 0 and out.startswith(f"{title} resolved with 0 typed roll(s)"), err
    after = Campaign(camp.folder)
    assert after.state["stage"]["title"] == "Fall 1901 movement" and "France: A BUR" in after.state["game"]["units"]
    assert rolls(camp.folder, camp.state["stage"]["turn"]) == []
    assert all("## Dice" not in p.read_text() for p in after.folder.glob("history/*/*.md"))
