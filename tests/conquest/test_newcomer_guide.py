"""A new Conquest player does not have to guess: the welcome, HELP and STATUS list the capital
cities he may pick (id and name) and the events by name, the examples use tiles of the
campaign's own map, and a CAPITAL list with no legal city is warned in the ack."""

from __future__ import annotations

from pathlib import Path

from pbem.gm.creation import create
from pbem.rulesets.conquest import setup
from pbem.rulesets.conquest.ruleset import RULESET
from pbem.stages.turns import context
from pbem.state.campaign import Campaign

from .engine_helpers import PLAYERS, SECRETS, T0, mail, replies, run


def campaign(root: Path) -> Campaign:
    """Anna, Ben and Cara on three_crowns, their welcomes owed to the first tick as `pbem new` leaves them."""
    transport = {"inbox": {"type": "eml", "path": "../../inbox"}, "outbox": {"type": "maildir", "path": "../../outbox"}}
    camp, _ = create(root / "campaigns", "coc", "conquest", "three_crowns", PLAYERS, "gm@coc.localhost", T0,
                     transport=transport, fixed_secrets=SECRETS, welcome=True)
    return camp


def legal(camp: Campaign) -> list[str]:
    view = RULESET.view(context(camp, T0))
    return setup.legal_cities(view.state, view.map, view.rules)


def labels(camp: Campaign) -> list[str]:
    view = RULESET.view(context(camp, T0))
    return [view.map.label(t) for t in legal(camp)]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_the_welcome_lists_the_legal_capitals_and_events_with_an_example_of_this_map(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    welcome = flat(next(t for t in replies(camp, "anna@") if "capital picks" in t))
    first, second = legal(camp)[:2]
    assert f"`CAPITAL {first}, {second}`" in welcome and "T9, T3" not in welcome
    assert all(label in welcome for label in labels(camp))
    assert "Fool's Gold -> <player>" in welcome and "Land Grab" in welcome


def test_help_and_status_list_the_legal_capitals_by_id_and_name(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    mail(camp, "h1", "anna", "HELP\nSTATUS")
    [ack] = replies(run(camp), "anna@", "h1")
    text = flat(ack)
    first, second = legal(camp)[:2]
    assert f"CAPITAL {first}, {second} (cities, best first)" in text
    assert f"Legal capital cities now: {'; '.join(labels(camp))}." in text
    assert "Events: Fool's Gold -> <player>" in text


def test_a_capital_list_naming_no_legal_city_is_kept_and_warned(tmp_path: Path) -> None:
    camp = run(campaign(tmp_path))
    cities = set(legal(camp))
    view = RULESET.view(context(camp, T0))
    not_cities = [t for t in view.map.sorted(view.state.tiles) if t not in cities][:2]
    mail(camp, "c1", "anna", f"CAPITAL {', '.join(not_cities)}")
    [ack] = replies(run(camp), "anna@", "c1")
    text = flat(ack)
    assert "Your `CAPITAL` list names no legal city; the legal ones now are" in text
    assert labels(camp)[0] in text and f"line 2: `CAPITAL {view.map.label(not_cities[0])}" in text
    mail(camp, "c2", "anna", f"CAPITAL {not_cities[0]}, {legal(camp)[0]}")
    [ack] = replies(run(camp), "anna@", "c2")
    assert "names no legal city" not in ack
