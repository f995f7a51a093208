"""Window W0, setup (once): each player's nation, army name and ranked towns; at the deadline the
seating, the deployment rolls, the starting stacks and the opening of strategic round 1."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice
from pbem.kit.orders import IllegalOrder, NotAnOrder, OrderProblem
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Payload, Phase, Submissions
from pbem.rulesets.wandering_tribes import rules as rulesmod
from pbem.rulesets.wandering_tribes import setup, strategic
from pbem.rulesets.wandering_tribes.game import ORDERS, SETUP, WTGame, WTView
from pbem.rulesets.wandering_tribes.squares import SquareMap, dead_ends
from pbem.rulesets.wandering_tribes.texts import report, rules_of

WORDS = ("NATION", "ARMY", "TOWNS")


def parse(view: WTView, player: Player, lines: Lines) -> Parsed:
    parsed = Parsed(payload={})
    for no, line in lines:
        try:
            _line(view, parsed.payload, line)
            parsed.accepted.append((no, line))
        except OrderProblem as problem:
            parsed.problems.append(problem.at(no, line))
    return parsed


def _line(view: WTView, payload: dict[str, object], line: str) -> None:
    word, _, rest = line.strip().partition(" ")
    verb, rest = word.upper(), rest.strip()
    nations = rules_of(view).nations
    if verb == "NATION":
        key = next((k for k, n in nations.items() if rest.casefold() in (k.casefold(), n.name.casefold())), "")
        if not key:
            raise IllegalOrder(f"{rest} has no nation table; choose one of {', '.join(nations)} (WT-SET-1)")
        payload["nation"] = key
    elif verb == "ARMY":
        payload["army"] = rest
    elif verb == "TOWNS":
        towns = [view.map.lookup(t.strip()) for t in rest.split(",") if t.strip()]
        bad = [t for t in towns if view.map.terrain(t) != "towns"]
        if bad:
            raise IllegalOrder(f"{', '.join(bad)} {'is not a town' if len(bad) == 1 else 'are not towns'}; "
                               f"the towns are {', '.join(view.map.towns())}")
        payload["towns"] = towns
    else:
        raise NotAnOrder(f"{word} is not a setup order; send NATION, ARMY and TOWNS")


def canonical(view: WTView, player: Player, payload: Payload) -> list[str]:
    out = [f"NATION {payload['nation']}"] if payload.get("nation") else []
    out += [f"ARMY {payload['army']}"] if payload.get("army") else []
    return out + ([f"TOWNS {', '.join(payload['towns'])}"] if payload.get("towns") else [])


def missing(view: WTView, player: Player, payload: Payload) -> list[str]:
    out = [] if payload.get("nation") else ["your nation: NATION <name> (without it the GM assigns one)"]
    return out + ([] if payload.get("towns") else ["your ranked towns: TOWNS T1, T5 (else a random empty town)"])


def help_text(view: WTView, player: Player) -> str:
    nations = ", ".join(f"{k} ({n.name})" for k, n in rules_of(view).nations.items())
    towns = view.map.towns()
    return (f"Setup: send your nation, an optional army name and your towns, best first:\n"
            f"NATION empire\nARMY The Reikland Wanderers\nTOWNS {', '.join(towns[:3])}\n"
            f"Nations: {nations}.\nTowns on this map: {', '.join(towns)}. Your stack is placed in the first "
            "town of your list still empty when your turn to deploy comes (2D6, highest first).")


def resolve(view: WTView, submissions: Submissions, dice: Dice) -> Outcome[WTGame]:
    """Setup waits while a player has no nation (`setup.missing_nation = "gm"`): the GM is told and
    assigns one with NATION <player> <nation>."""
    game, rules = view.state, rules_of(view)
    choices = {}
    for player in view.settings.players:
        sent = submissions.get(player.id, {})
        nation = str(sent.get("nation", "")) or game.assigned.get(player.id, "")
        choices[player.id] = setup.Choice(nation, str(sent.get("army", "")), list(sent.get("towns", [])))
    lacking = [p for p, c in choices.items() if not c.nation]
    game.lacking = lacking
    if lacking:
        return Outcome(game, gm_alerts=[f"Setup waits: {', '.join(lacking)} sent no nation; assign one with "
                                        f"NATION {lacking[0]} <{'|'.join(rules.nations)}> or extend the deadline"])
    game.state, log = setup.deploy(rules, view.map, choices, dice)
    game.state, opening = strategic.open_round(game.state, rules, dice)
    game.phase, game.turn, game.sequence, game.opening = ORDERS, game.turn + 1, opening.sequence, opening.log
    game.resolved = "Setup"
    warnings = dead_ends(view.map) + rulesmod.warnings(rules)          # Step 0: the GM may keep them
    return Outcome(game, [report(view, "Setup and deployment", [("Setup", log)], "setup")],
                   gm_alerts=warnings, turn_finished=True)


def owing(view: WTView) -> list[str]:
    return [p.id for p in view.settings.players]


def assign(view: WTView, words: Sequence[str]) -> str:
    """GM NATION <player> <nation>: the nation of a player who sent none (W0)."""
    if len(words) < 2 or words[0] not in [p.id for p in view.settings.players]:
        raise ValueError("write NATION <player id> <nation>")
    nations = rules_of(view).nations
    key = next((k for k, n in nations.items() if " ".join(words[1:]).casefold() in (k, n.name.casefold())), "")
    if not key:
        raise ValueError(f"{' '.join(words[1:])} has no nation table; choose one of {', '.join(nations)}")
    view.state.assigned[words[0]] = key
    view.state.lacking = [p for p in view.state.lacking if p != words[0]]
    return f"{words[0]} leads {nations[key].name} unless he sends NATION himself before setup resolves"


PHASE = Phase[WTGame, SquareMap](title="setup", window=SETUP, parse=parse, resolve=resolve, owing=owing,
                                 missing=missing, canonical=canonical, help=help_text, words=lambda view: WORDS,
                                 gm_verbs=(GMVerb("NATION", "NATION <player> <nation>",
                                                  "assign a nation to a player who sent none (setup)", assign),))
