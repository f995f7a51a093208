"""What a player reads: players by their names (campaign.toml's `name`) in reports, briefings and
the standings, while the rules' log and the dice purposes keep the ids; a briefing's verb agrees
with its attackers; the Territories table keeps to the territories in play; and the capitals a
campaign needs to win checked against what its players can hold, told at `pbem new`."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from pbem.kit.rulebook import RuleBook
from pbem.kit.texts import render
from pbem.rulesets.star_wars_miniatures import report, victory
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from pbem.rulesets.star_wars_miniatures.model import Battle
from pbem.rulesets.star_wars_miniatures.regions import load_map
from pbem.rulesets.star_wars_miniatures.ruleset import RULESET
from pbem.rulesets.star_wars_miniatures.world import World
from pbem.state.campaign import Player
from tests.star_wars_miniatures import flow, helpers
from tests.star_wars_miniatures.test_flow import to_battle

NAMES = {"alice": "Alice Smith", "bob": "Bob", "cara": "Cara", "al": "Al"}


def world(cat: Catalog, book: RuleBook) -> World:
    return World(helpers.state(), helpers.test_map(), cat, book)


def test_ids_standing_as_words_become_names_and_a_squads_own_name_is_left_alone() -> None:
    lines = ["Pick order: alice, cara, bob.", "alice's starting squad A1 “bob's bane” (150 points) stands in A1.",
             "Initiative bob: d20 8 = 8", "alicea and al-b and T-al stay", "al gives 40 to cara."]
    assert report.named(NAMES, lines) == [
        "Pick order: Alice Smith, Cara, Bob.",
        "Alice Smith's starting squad A1 “bob's bane” (150 points) stands in A1.",
        "Initiative Bob: d20 8 = 8", "alicea and al-b and T-al stay", "Al gives 40 to Cara."]


def test_the_board_shows_players_by_name_and_the_players_table_adds_an_id_orders_need(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    helpers.squad(w.state, cat, "A1", "alice", "A1", ["Stormtrooper x16"])
    w.state.sides, w.state.alliances = [["alice"], ["bob", "cara"]], [["bob", "cara"]]
    board = report.board(w, NAMES)
    assert [p["name"] for p in board["players"]] == ["Alice Smith (alice)", "Bob", "Cara"]
    assert (board["order"], board["alliances"]) == (["Alice Smith", "Bob + Cara"], ["Bob + Cara"])
    assert board["lands"][0]["owner"] == "Alice Smith" and board["squads"][0]["owner"] == "Alice Smith"
    assert w.state.lands["A1"].owner == "alice" and w.state.squads["A1"].owner == "alice"    # the state keeps ids


def test_a_briefing_says_an_alliance_attacks_in_the_plural_and_a_player_in_the_singular(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    helpers.squad(w.state, cat, "A1", "alice", "A1", ["Stormtrooper x16"])
    helpers.squad(w.state, cat, "B2", "bob", "A1", ["Rebel Trooper x16"])
    helpers.squad(w.state, cat, "C3", "cara", "A1", ["Mandalorian Soldier x8"])
    settings = flow.settings()
    due = flow.NOW + timedelta(days=7)
    for side, attackers, says in ((["bob", "cara"], ["B2", "C3"], "**Bob + Cara** attack **Alice Smith**"),
                                  (["bob"], ["B2"], "**Bob** attacks **Alice Smith**")):
        brief = report.briefing(w, Battle("B1-1-1", "A1", side, attackers, ["A1"]), NAMES)
        text = render("star_wars_miniatures", "briefing", {"campaign": settings, "schedule": settings.schedule,
                                                           "next_deadline": due, **brief.context})
        assert says in text and "### A1 (Alice Smith): 80 points" in text
        assert text.rstrip().endswith(f"The report deadline is **{settings.schedule.show(due)}**.")
        assert brief.audience == (*side, "alice")                     # mailed by id


def test_the_territories_table_keeps_what_is_controlled_or_holds_a_squad_and_counts_the_inactive(
        cat: Catalog, book: RuleBook) -> None:
    w = world(cat, book)
    for place in ("A2", "C2"):
        w.state.lands[place].active, w.state.lands[place].owner = False, ""
    w.state.lands["B4"].owner = ""                      # a GM took its controller away; a squad stands there
    helpers.squad(w.state, cat, "B9", "bob", "B4", ["Rebel Trooper x16"])
    shown = report.territories(w, NAMES)
    assert [t["id"] for t in shown["lands"]] == ["A1", "A3", "B1", "B2", "B3", "B4", "C1"]
    assert shown["lands"][-2]["owner"] == "-" and shown["inactive"] == 2


def test_the_standings_name_players_and_victors_by_name() -> None:
    game = flow.Game()
    alice = Player("alice", "Alice Smith", ("alice@pbem.test",), "")
    game.settings = replace(game.settings, players=(alice, *game.settings.players[1:]))
    assert RULESET.standings(game.ctx())[0] == "Alice Smith: 0 squads, treasury 0"
    state = game.state
    state.winners = ["alice", "bob"]
    game.game = RULESET.dump_state(state)
    assert RULESET.standings(game.ctx()) == ["Victors: Alice Smith, Bob"]


def test_pbem_new_is_told_when_so_few_players_can_never_hold_the_capitals_to_win() -> None:
    places = load_map(helpers.TEN_FACTIONS)
    assert [victory.most_capitals(places, n) for n in (3, 6, 10)] == [3, 6, 10]
    warning = victory.creation_warning(places, helpers.chosen("victory", "capitals_needed", 6), 3)
    assert warning.startswith("victory: 3 players can hold at most 3 active capitals and victory needs 6 "
                              "(SWM-WIN-6): add `[rules.victory] capitals_needed = 3` to campaign.toml")
    assert victory.creation_warning(places, helpers.chosen("victory", "capitals_needed", 3), 3) == ""
    assert victory.creation_warning(places, helpers.chosen("victory", "capitals_needed", 6), 6) == ""


def test_the_map_pictures_legend_gives_the_turn_order_by_name() -> None:
    game = to_battle()
    scene = RULESET.scene(RULESET.view(game.ctx()))
    assert scene is not None and "Turn order: Alice, Bob + Cara" in scene.notes
