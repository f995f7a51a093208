"""Each rule system's turn picture shows what the stage it reports did: its orders as arrows
between the right places (failed ones dashed, supports and convoys distinct), battles, sieges and
standoffs where they were, dislodged and retreating pieces marked, read back from the SVG of the
stored game each stage leaves (tests/pictures/scenes.py plays the stages)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pbem.pictures.marks import FAILED_DASHES
from tests.pictures import stages
from tests.pictures.readback import SVG, Drawn
from tests.pictures.scenes import conquest_games, diplomacy_games, rift_games


def dashes(got: Drawn, start: str, end: str) -> str:
    """The dash pattern of the arrow from `start` to `end` ("" for a solid line)."""
    group = next(g for g in got.root.iter(f"{SVG}g")
                 if g.get("class", "").startswith("move ") and (g.get("data-from"), g.get("data-to")) == (start, end))
    return group.findall(f"{SVG}path")[-1].get("stroke-dasharray", "")


def dislodged(got: Drawn) -> set[tuple[str, str]]:
    return {(g.get("data-id", ""), g.get("data-place", "")) for g in got.root.iter(f"{SVG}g")
            if g.get("class") == "piece dislodged"}


def title(got: Drawn) -> tuple[str, str]:
    group = next(g for g in got.root.iter(f"{SVG}g") if g.get("id") == "title")
    texts = [t.text or "" for t in group.iter(f"{SVG}text")]
    return texts[0], texts[1] if len(texts) > 1 else ""


def legend(svg_root: ET.Element) -> str:
    return " | ".join(t.text or "" for t in svg_root.iter(f"{SVG}text"))


# -- Daemon Rift ------------------------------------------------------------------------------


def test_rift_orders_window_draws_the_moves_towards_the_battles_they_start() -> None:
    orders, _, camp = rift_games()
    got = stages.drawn(camp, orders)
    assert title(got) == ("rift: Turn 1: orders", "resolved; next: battle results")
    assert got.arrows == [("T10", "T9", "move move succeeded"), ("T25", "T26", "move move succeeded"),
                          ("T9", "T26", "move support failed")]
    assert dashes(got, "T25", "T26") == "" and dashes(got, "T9", "T26") != ""      # B-2's attack cut the support
    assert got.clashes == [("T9", "clash battle"), ("T26", "clash battle")]
    assert {p[0]: p[1] for p in got.pieces} == {"R-1": "T25", "R-2": "T9", "B-1": "T26", "B-2": "T10"}
    assert "B2 at T26, tabletop battle: Red (R-1) against Blue (B-1); result awaited" in legend(got.root)


def test_rift_battle_results_draw_the_winners_in_the_losers_retreating_and_the_failed_moves_dashed() -> None:
    _, results, camp = rift_games()
    got = stages.drawn(camp, results)
    assert title(got) == ("rift: Turn 1: battle results", "resolved; next: orders")
    assert ("T25", "T26", "move move succeeded") in got.arrows
    assert ("T10", "T9", "move move failed") in got.arrows and dashes(got, "T10", "T9") == FAILED_DASHES
    assert ("T26", "T27", "move retreat succeeded") in got.arrows
    assert {p[0]: p[1] for p in got.pieces} == {"R-1": "T26", "R-2": "T9", "B-1": "T27"}
    assert dislodged(got) == {("B-1", "T27")}
    assert ("T26", "clash battle") in got.clashes
    text = legend(got.root)
    assert "B2 at T26, tabletop battle: Red (R-1) against Blue (B-1); won by Red" in text
    assert "B-2 taken off T10 (count)" in text          # the turn's end: Blue holds too little for two tokens


# -- Diplomacy --------------------------------------------------------------------------------


def test_diplomacy_spring_draws_every_order_with_failures_dashed_and_the_standoffs() -> None:
    spring, _, camp = diplomacy_games()
    got = stages.drawn(camp, spring)
    assert title(got) == ("diplomac: Spring 1901 movement", "resolved; next: Fall 1901 movement")
    for arrow in [("PAR", "BUR", "move move succeeded"), ("MAR", "BUR", "move support succeeded"),
                  ("BUD", "TRI", "move support succeeded"), ("VEN", "TRI", "move move failed"),
                  ("VIE", "GAL", "move move failed"), ("WAR", "GAL", "move move failed"),
                  ("SEV", "BLA", "move move failed"), ("ANK", "BLA", "move move failed")]:
        assert arrow in got.arrows
    assert dashes(got, "VIE", "GAL") == FAILED_DASHES and dashes(got, "PAR", "BUR") == ""
    assert sorted(got.clashes) == [("BLA", "clash standoff"), ("GAL", "clash standoff")]
    assert got.piece("A BUR")[:2] == ("BUR", "France")        # the units stand where the moves took them


def test_diplomacy_fall_draws_the_convoy_and_the_dislodged_army() -> None:
    _, fall, camp = diplomacy_games()
    got = stages.drawn(camp, fall)
    assert got.arrows == [("NTH", "NWY", "move convoy succeeded"), ("YOR", "NWY", "move move succeeded"),
                          ("RUH", "BUR", "move move succeeded"), ("MUN", "BUR", "move support succeeded"),
                          ("SEV", "BLA", "move move failed"), ("ANK", "BLA", "move move failed")]
    assert dashes(got, "NTH", "NWY") not in ("", FAILED_DASHES)     # a convoy's own line, not a failure's
    assert dislodged(got) == {("A BUR", "BUR")}
    assert [p[:3] for p in got.pieces if p[1] == "BUR"] == [("A BUR", "BUR", "Germany"), ("A BUR", "BUR", "France")]
    assert ("BLA", "clash standoff") in got.clashes


def test_diplomacy_retreat_is_drawn_and_the_centres_that_changed_hands_listed() -> None:
    _, fall, camp = diplomacy_games()
    retreated = stages.resolve(camp, fall, {"fra": "A BUR R PAR"})
    got = stages.drawn(camp, retreated)
    assert title(got)[0] == "diplomac: Fall 1901 retreats"
    assert got.arrows == [("BUR", "PAR", "move retreat succeeded")]
    assert got.piece("A PAR")[:2] == ("PAR", "France") and not dislodged(got)
    assert "NWY taken by England" in legend(got.root) and "DEN taken by Germany" in legend(got.root)


# -- Campaigns of Conquest ----------------------------------------------------------------------


def test_conquest_draws_the_claims_from_the_empires_tiles_with_those_not_carried_out_dashed() -> None:
    position, after, camp = conquest_games()
    before = stages.drawn(camp, position)
    assert before.arrows == [] and title(before)[0] == "conquest: Round 3"      # nothing resolved yet
    got = stages.drawn(camp, after)
    assert title(got) == ("conquest: Round 3: conquest and building", "resolved; next: events and challenges")
    assert got.arrows == [("T2", "T7", "move move succeeded"), ("T7", "T13", "move move failed"),
                          ("T8", "T14", "move move failed")]
    assert dashes(got, "T7", "T13") == FAILED_DASHES
    assert got.areas["T7"][0] == "anna" and got.areas["T13"][0] == ""
    assert ("T29", "clash siege") in got.clashes
    text = legend(got.root)
    assert "B1 (land battle): Anna against Ben; won by Anna" in text and "Ben: raid T30" in text
