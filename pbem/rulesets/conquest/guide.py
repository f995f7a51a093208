"""What a new player reads before his first Conquest orders: the capital cities he may pick and
the events by name, with examples drawn from the campaign's own map and players, for the
welcome, HELP and STATUS (COC-SET-8, COC-EVT)."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.rulesets.base import Player
from pbem.rulesets.conquest import setup
from pbem.rulesets.conquest.model import TARGETED_EVENTS, ConquestView
from pbem.rulesets.conquest.rules import event_names


def legal_capitals(view: ConquestView) -> list[str]:
    """The cities a capital may stand on now, as `T9 Greystone`."""
    return [view.map.label(t) for t in setup.legal_cities(view.state, view.map, view.rules)]


def capital_example(view: ConquestView) -> str:
    """`CAPITAL T9, T12` naming two legal cities of this map (one when only one is left)."""
    cities = setup.legal_cities(view.state, view.map, view.rules)[:2]
    return f"CAPITAL {', '.join(cities)}" if cities else "CAPITAL <city tile>, <city tile>"


def capitals_help(view: ConquestView, player: Player) -> str:
    """Window S's HELP: the syntax with this map's cities, and every legal city by id and name."""
    legal = legal_capitals(view)
    listed = "; ".join(legal) if legal else "none is left: send NEWCITY tiles, or the GM places your city"
    return (f"{capital_example(view)} (cities, best first); NEWCITY <tile>, <tile> (tiles for a new city, used only "
            f"if no legal city is left). Legal capital cities now: {listed}.")


def events_list(view: ConquestView) -> list[str]:
    """Every event by name, those that take a target marked so: `Fool's Gold -> player`."""
    return [f"{name} -> <player>" if key in TARGETED_EVENTS else name
            for key, name in event_names(view.rules).items()]


def other_player(view: ConquestView, player: Player) -> str:
    """A rival's name for an example line (`CHALLENGE Ben`): the first other player's."""
    others: Sequence[Player] = [p for p in view.settings.players if p.id != player.id]
    return others[0].name if others else "<player>"


def campaign_help(view: ConquestView, player: Player) -> str:
    """Window 1's HELP: events by name, and the orders with a rival of this campaign as example."""
    rival = other_player(view, player)
    return (f"EVENT <event> [-> player] [: building tile, ...] one per line, best first; CHALLENGE <player> "
            f"[only_if_unchallenged] [no_join] [no_break] one per line, best first (e.g. CHALLENGE {rival}); "
            "STANDING team|individual; SEA CHALLENGE <player> (naval players); ASSAULT <tile> (sieges you run); "
            "CONSENT <players> (who may assault you, when assaults need consent). "
            f"Events: {', '.join(events_list(view))}.")


def no_legal_city(view: ConquestView, tiles: Sequence[str]) -> str:
    """The ack's warning on a CAPITAL list naming no legal city ("" when one is legal)."""
    legal = setup.legal_cities(view.state, view.map, view.rules)
    if any(t in legal for t in tiles):
        return ""
    if not legal:
        return "Your `CAPITAL` list names no legal city, and none is left: send NEWCITY tiles for a new city."
    return (f"Your `CAPITAL` list names no legal city; the legal ones now are {'; '.join(legal_capitals(view))}. "
            f"Send it again with one of them first, e.g. `{capital_example(view)}`.")
