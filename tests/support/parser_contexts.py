"""Every order parser of every rule system, each as a function from numbered lines to the
problems it reports, in a campaign made the ordinary way (pbem new, then the window wanted):
what the parser property tests and the long-line examples run against."""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

from pbem.gm.creation import create
from pbem.kit.orders import OrderProblem
from pbem.kit.tomlio import to_data
from pbem.rulesets import registry
from pbem.rulesets.base import Context
from pbem.rulesets.conquest.model import W_CAMPAIGN, W_CAPITALS, W_CONQUEST, W_RESULTS, W_SETUP
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift.ruleset import RULESET as DAEMON_RIFT
from pbem.rulesets.diplomacy.board import standard_board
from pbem.rulesets.diplomacy.orders import Order
from pbem.stages.turns import context as stage_context
from pbem.state.campaign import Campaign
from tests.conquest.test_trn_engine import at_window
from tests.daemon_rift.helpers_rosters import SC11, roster
from tests.diplomacy import test_campaign as dip
from tests.support import engine_helpers as dr

Lines = Sequence[tuple[int, str]]
Parser = Callable[[Lines], list[OrderProblem]]


def _context(camp: Campaign, system: str) -> Context:
    return stage_context(camp, dr.T0 + timedelta(hours=1))


def _through_ruleset(camp: Campaign, system: str, player: str, ctx: Context | None = None) -> Parser:
    ruleset, who = registry.get(system), camp.settings.player(player)
    assert who is not None
    context = ctx or _context(camp, system)
    return lambda lines: ruleset.parse(context, who, lines).problems


# -- Daemon Rift -------------------------------------------------------------------------

def _with_rosters(camp: Campaign) -> Campaign:
    """Red's and Blue's lists get the catalog army, so sheets, repairs and choices have entries."""
    for token in ("R-1", "B-1"):
        camp.state["game"]["dr"]["lists"][token]["roster"] = to_data(roster(SC11, token))
    camp.save()
    return Campaign(camp.folder)


def _in_phase(ctx: Context, phase: str) -> Context:
    game = copy.deepcopy(dict(ctx.game))
    game["dr"]["phase"] = phase
    return replace(ctx, game=game)


def daemon_rift(root: Path) -> dict[str, Parser]:
    """Orders, lists, the battle window (results and sheets) and retreats, for Red."""
    camp = _with_rosters(dr.dr_campaign(root / "orders", {"R-1": "T25", "R-2": "T24", "B-1": "T27"}))
    ctx = _context(camp, "daemon_rift")
    battle = dr.dr_campaign(root / "battle", {"R-1": "T25", "B-1": "T27"})
    dr.put(battle, "o1", f"PLAYER red {dr.SECRETS['red']}\nR-1 M T26\n")
    dr.put(battle, "o2", f"PLAYER blue {dr.SECRETS['blue']}\nB-1 M T26\n", sender="Bob <bob@test.localhost>")
    battle = _with_rosters(dr.run(battle))
    assert battle.state["game"]["dr"]["phase"] == "battles"
    view = DAEMON_RIFT.view(ctx)
    options = {"R-1": ["T24", "T26"]}

    def retreats(lines: Lines) -> list[OrderProblem]:
        return dr_parse.parse_retreats(view.state.dr, view.map, "R", list(lines), options)[2]

    return {"orders": _through_ruleset(camp, "daemon_rift", "red"),
            "lists": _through_ruleset(camp, "daemon_rift", "red", _in_phase(ctx, "lists")),
            "battles": _through_ruleset(battle, "daemon_rift", "red"),
            "retreats": retreats}


# -- Campaigns of Conquest ---------------------------------------------------------------

def conquest(root: Path) -> dict[str, Parser]:
    """Every window, for Anna, with sieges and the naval module on."""
    rules = {"siege": {"enabled": True, "assault_needs_consent": True},
             "naval": {"enabled": True, "players": ["anna", "cara"]}}
    out: dict[str, Parser] = {}
    for window in (W_CAPITALS, W_CAMPAIGN, W_SETUP, W_RESULTS, W_CONQUEST):
        camp = at_window(root / window, window, rules)
        out[window] = _through_ruleset(camp, "conquest", "anna")
    return out


# -- Diplomacy ---------------------------------------------------------------------------

def diplomacy(root: Path) -> dict[str, Parser]:
    """France's movement orders through the rule system, and the reading of every phase's orders."""
    camp, _ = create(root / "campaigns", "dip", "diplomacy", "", dip.seven(), "gm@test.localhost", dip.T0,
                     transport=dip.TRANSPORT, fixed_secrets=dip.SECRETS)
    board = standard_board()

    def reading(phase: str) -> Parser:
        def read(lines: Lines) -> list[OrderProblem]:
            problems: list[OrderProblem] = []
            for no, line in lines:
                try:
                    Order.parse(line, board, phase)
                except OrderProblem as problem:
                    problems.append(problem.at(no, line))
            return problems
        return read

    return {"movement": _through_ruleset(camp, "diplomacy", "fra"),
            **{f"read {phase}": reading(phase) for phase in ("movement", "retreat", "adjustment")}}


def every_parser(root: Path) -> dict[str, Parser]:
    made: dict[str, Mapping[str, Parser]] = {"daemon_rift": daemon_rift(root / "dr"),
                                             "conquest": conquest(root / "coc"),
                                             "diplomacy": diplomacy(root / "dip")}
    return {f"{system} {name}": parser for system, parsers in made.items() for name, parser in parsers.items()}


def words_of(system: str) -> list[str]:
    """Names, ids and keywords a player of `system` types: the stuff generated lines are made of."""
    return list(_WORDS[system])


def places_of(system: str) -> list[str]:
    """Names a line may list many of in a row: places, events, players, entries."""
    return list(_PLACES[system])


_PLACES: dict[str, Any] = {
    "daemon_rift": ("T24", "T25", "T26", "T27", "Frostfen", "U1", "Spearmen", "C1", "R-1"),
    "conquest": ("Land Grab", "T3", "T15", "Ben", "mine T3", "no_join", "castle", "VP 1-2"),
    "diplomacy": ("PAR", "BUR", "Paris", "Mid-Atlantic Ocean", "MAO", "- BUR", "St Petersburg", "-"),
}


def openings_of(system: str) -> list[str]:
    """How the orders of `system` begin, so generated lines reach past the first word."""
    return list(_OPENINGS[system])


_OPENINGS: dict[str, Any] = {
    "daemon_rift": ("R-1 M", "R-1 ->", "R-2 S R-1", "R-2 S R-1 T25", "RETREAT R-1", "PLACE", "REMOVE", "ROLLOFF",
                    "REPAIR R-1", "REPAIR R-1 3 model", "CHOOSE R-1", "R-1 M T26 champion", "U1", "U1 lost 1",
                    "C1 item", "PRIORITY", "SHEET 1", "RESULT 1", "RESULT 1 Red", "LIST R-1", "DECLARE R-1",
                    "U9 infantry 20", "R-1 R", "R-1"),
    "conquest": ("EVENT", "EVENT Land Grab", "EVENT Disaster ->", "EVENT Building Boom:", "CHALLENGE",
                 "SEA CHALLENGE", "STANDING", "ASSAULT", "CONSENT", "BATTLE ALL", "CAPITAL", "NEWCITY", "CLAIM",
                 "CONQUER T3 ELSE", "BUILD castle", "REPLACE", "B1 SIZE 2000", "ALL", "RESULT B1",
                 "RESULT B1 WITHDREW none VP", "ABSTRACT"),
    "diplomacy": ("A PAR -", "A PAR", "F NTH C A LON -", "A MUN S A PAR -", "A MUN S", "F SPA/SC -", "BUILD A",
                  "BUILD F", "A", "F", "Army", "REMOVE F", "A MUN R"),
}


_WORDS: dict[str, Any] = {
    "daemon_rift": ("R-1", "R-2", "R1", "B-1", "R-D1", "H", "HOLD", "M", "MOVE", "S", "SUPPORT", "->", "-", ",",
                    "T5", "T24", "T25", "T26", "T27", "Frostfen", "champion", "CHAMPION", "RETREAT", "ROLLOFF",
                    "Blue", "PLACE", "REMOVE", "REPAIR", "CHOOSE", "model", "wound", "item", "@10", "@", ";",
                    "U1", "U3", "C1", "M1", "Spearmen", "Captain", "Dragon", "I", "WS", "LIST", "DECLARE",
                    "ARTILLERY", "FAST", "infantry", "20", "|", "Sword", "25", "RESULT", "SHEET", "1", "Red",
                    "draw", "massacred", "obliterated", "lost", "killed", "fled", "half", "left", "start",
                    "[WS]", "[", "]", "PRIORITY", "DISBAND", "R", "army", "=", '"x"', "[[entries]]", "yes", "no"),
    "conquest": ("CAPITAL", "NEWCITY", "T3", "T15", "T35", "T9", "EVENT", "Land", "Grab", "Land Grab", "Disaster",
                 "->", "Ben", "Cara", "Anna", "Building", "Boom", ":", "mine", "castle", ",", "CHALLENGE",
                 "no_break", "no_join", "only_if_unchallenged", "STANDING", "team", "individual", "SEA",
                 "ASSAULT", "CONSENT", "BATTLE", "ALL", "SIZE", "2000", "GOLD", "50", "SHARE", "ABSTRACT",
                 "STANDIN", "B1", "B2", "RESULT", "WITHDREW", "none", "attacker", "defender", "VP", "620-310",
                 "BP", "8-9", "LOST", "2-4", "SURRENDER", "GENERAL", "YES", "NO", "WINNER", "DRAW", "CLAIM",
                 "CONQUER", "SIEGE", "BUILD", "REPLACE", "RAID", "PLUNDER", "ELSE", "WITH", "port", "12", "-"),
    "diplomacy": ("A", "F", "Army", "Fleet", "PAR", "BUR", "MAR", "Paris", "Burgundy", "Mid-Atlantic", "Ocean",
                  "MAO", "SPA", "SPA/SC", "(sc)", "south", "coast", "/", "(", ")", "-", "->", "H", "S", "C",
                  "supports", "convoys", "VIA", "CONVOY", "R", "D", "B", "BUILD", "WAIVE", "REMOVE", "DISBAND",
                  "North", "Sea", "NTH", "LON", "BEL", "Kiel", "KIE", "holds", "retreat", "St", "Petersburg",
                  "STP/NC", "–"),
}
