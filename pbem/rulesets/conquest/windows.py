"""The windows of Campaigns of Conquest, each with what it needs side by side (COC-TRN-1).

Window S (capital picks) opens the campaign as turn 0; then every round runs
windows 1 to 4 (campaign orders, battle setup, battle results, conquest and build),
and `over` is where a won or capped campaign rests. Each window says who owes mail,
how their lines read, when it may close without waiting, what the GM may do in it,
and how it closes (`steps`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import InvalidOrder
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.conquest import battle_orders, battles, guide, reporting, results, setup, steps
from pbem.rulesets.conquest import parse as cparse
from pbem.rulesets.conquest.model import (
    W_CAMPAIGN,
    W_CAPITALS,
    W_CONQUEST,
    W_OVER,
    W_RESULTS,
    W_SETUP,
    ConquestState,
    ConquestView,
)
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Payload, Phase, Submissions

ConquestPhase = Phase[ConquestState, HexMap]
ConquestVerb = GMVerb[ConquestState, HexMap]


def reader(view: ConquestView, player: str) -> cparse.Reader:
    return cparse.Reader(view.state, view.map, view.rules, player)


def in_order(view: ConquestView) -> list[str]:
    """Windows 1 and 4: every empire still in the game, in the round's order."""
    state = view.state
    return [p for p in state.round.order if p in state.active()]


def helping(text: str) -> Callable[[ConquestView, Player], str]:
    """A window's HELP text: the same for every player."""
    return lambda view, player: text


# -- window S: capital picks ---------------------------------------------------------------
def without_capital(view: ConquestView) -> list[str]:
    return [p for p, e in view.state.empires.items() if not e.capital]


def gm_capital(view: ConquestView, words: Sequence[str]) -> str:
    """COC-SET-8: the GM places a city for a player left without a legal capital."""
    if len(words) != 2:
        raise ValueError("CAPITAL <player> <tile>")
    state, names = view.state, reader(view, "")
    player, tile = names.who(words[0]), names.tile(words[1])
    if state.tiles[tile].owner:
        raise ValueError(f"{tile} is already held")
    if state.empires[player].capital:
        held = view.map.label(state.empires[player].capital)
        raise ValueError(f"{state.empires[player].name} already has a capital, {held}; an empire has one")
    setup.found(state, player, tile)
    return f"{state.empires[player].name}'s capital is {view.map.label(tile)}"


def parse_capitals(view: ConquestView, player: Player, lines: Lines) -> Parsed:
    """Window S's lines; a CAPITAL list naming no legal city is kept, with a warning in the ack."""
    parsed = cparse.parse_capitals(reader(view, player.id), lines)
    cities = parsed.payload.get("capital", {}).get("cities", [])
    warning = guide.no_legal_city(view, cities) if cities else ""
    parsed.notes += [warning] if warning else []
    return parsed


def capitals_missing(view: ConquestView, player: Player, payload: Payload) -> list[str]:
    """A CAPITAL list naming no legal city, with no NEWCITY tiles to fall back on, picks nothing:
    the stage waits for a better list (or READY) rather than closing early on it."""
    cities = payload.get("capital", {}).get("cities", [])
    if not cities or payload.get("capital", {}).get("new_city") or not guide.no_legal_city(view, cities):
        return []
    return ["a CAPITAL list with a legal city"]


CAPITALS = ConquestPhase(
    title="capital picks (window S)", window=W_CAPITALS,
    owing=without_capital,
    parse=lambda view, player, lines: parse_capitals(view, player, lines),
    words=lambda view: ("CAPITAL", "NEWCITY"),
    ready=lambda view: setup.all_placed(view.state),
    waiting_for_gm=lambda view: not without_capital(view),
    missing=capitals_missing,
    resolve=steps.capitals,
    help=guide.capitals_help,
    gm_verbs=(ConquestVerb("CAPITAL", "CAPITAL <player> <tile>",
                           "place the capital of a player left without a legal city (window S)", gm_capital),),
)


# -- window 1: campaign orders ---------------------------------------------------------------
CAMPAIGN = ConquestPhase(
    title="campaign orders (window 1)", window=W_CAMPAIGN,
    owing=in_order,
    parse=lambda view, player, lines: cparse.parse_campaign(reader(view, player.id), lines,
                                                            bool(view.rules["turn.battle_setup_window"])),
    words=lambda view: cparse.WINDOW1_WORDS,
    resolve=steps.closing(W_CAMPAIGN),
    help=guide.campaign_help,
)


# -- window 2: battle setup -------------------------------------------------------------------
def setting_up(view: ConquestView) -> list[str]:
    """Everyone in a battle not settled yet, in the round's order."""
    rnd = view.state.round
    return [p for p in rnd.order if any(p in b.players for b in rnd.battles if not rnd.outcome(b.id))]


def setups_missing(view: ConquestView, player: Player, payload: Payload) -> list[str]:
    given = set(payload.get("setup", {}))
    return [b.id for b in view.state.round.battles if player.id in b.players and b.id not in given
            and battle_orders.ALL_BATTLES not in given]


SETUP = ConquestPhase(
    title="battle setup (window 2)", window=W_SETUP,
    owing=setting_up,
    parse=lambda view, player, lines: battle_orders.parse_setup(view.state, player.id, lines, view.rules),
    words=lambda view: ("ALL", *battle_orders.SETUP_WORDS),
    missing=setups_missing,
    resolve=steps.closing(W_SETUP),
    help=helping("<battle> SIZE <points> GOLD <0-200> SHARE <points> [ABSTRACT] [STANDIN <name>], one line per "
                 "battle (ALL for every battle)."),
    gm_verbs=(ConquestVerb("SIZE", "SIZE <battle> <points>", "set a battle's base size (window 2)",
                           lambda view, words: battles.gm_size(view.state, list(words))),),
)


# -- window 3: battle results -------------------------------------------------------------------
def parse_results(view: ConquestView, player: Player, lines: Lines) -> Parsed:
    return battle_orders.parse_results(view.state, player.id, lines, results.describe(view.state, view.rules))


def results_missing(view: ConquestView, player: Player, payload: Payload) -> list[str]:
    given = set(payload.get("results", {}))
    return [b.id for b in results.awaiting_reports(view.state) if player.id in b.players and b.id not in given]


def ruling(verb: str) -> ConquestVerb:
    """RESULT and ABSTRACT from the GM: a final ruling on a battle (COC-RES-20, COC-TRN-6)."""
    usage = "RESULT <battle> <facts as a player reports them>" if verb == "RESULT" else "ABSTRACT <battle>"
    what = "rule a battle's result" if verb == "RESULT" else "settle a battle by abstract resolution"
    return ConquestVerb(verb, usage, f"{what} (window 3)",
                        lambda view, words: results.gm_result(view.state, [verb, *words]))


RESULTS = ConquestPhase(
    title="battle results (window 3)", window=W_RESULTS,
    owing=lambda view: reporting.results_owing(view.state),
    owing_any=lambda view: reporting.results_sides(view.state),
    parse=parse_results,
    words=lambda view: ("RESULT", "ABSTRACT"),
    missing=results_missing,
    ready=lambda view: not results.awaiting_reports(view.state),
    waiting_for_gm=lambda view: bool(view.state.round.disputed),
    resolve=steps.closing(W_RESULTS),
    help=helping("RESULT <battle> WITHDREW none|attacker|defender VP a-d BP a-d LOST a-d [SURRENDER side] "
                 "[GENERAL side] [STANDIN]; siege: RESULT <battle> YES|NO; sea: RESULT <battle> WINNER side|DRAW; "
                 "ABSTRACT <battle>."),
    gm_verbs=(ruling("RESULT"), ruling("ABSTRACT")),
)


# -- window 4: conquest and build ---------------------------------------------------------------
def parse_conquest(view: ConquestView, player: Player, lines: Lines) -> Parsed:
    """Window-4 actions, each acknowledged with what it would do right now (COC-TRN-3)."""
    parsed = cparse.parse_conquest(reader(view, player.id), lines)
    parsed.accepted = reporting.preview(view.state, view.map, view.rules, player.id, parsed)
    return parsed


CONQUEST = ConquestPhase(
    title="conquest and build (window 4)", window=W_CONQUEST,
    owing=in_order,
    parse=parse_conquest,
    words=lambda view: (*cparse.WINDOW4_WORDS, "ELSE"),
    resolve=steps.closing(W_CONQUEST),
    help=helping("CLAIM / CONQUER / SIEGE / RAID / PLUNDER <tile>, BUILD <building> <tile>, REPLACE <building> "
                 "<tile>, one action per line in order, alternates after ELSE; CONSENT <players> (sieges)."),
)


# -- over -----------------------------------------------------------------------------------------
def parse_nothing(view: ConquestView, player: Player, lines: Lines) -> Parsed:
    return Parsed(payload={}, problems=[InvalidOrder("the campaign is over; no orders are read", n, line)
                                        for n, line in lines])


def rest(view: ConquestView, subs: Submissions, dice: Dice) -> Outcome[ConquestState]:
    return Outcome(view.state)


OVER = ConquestPhase(
    title="campaign over", window=W_OVER, over=True,
    parse=parse_nothing, resolve=rest, help=helping("The campaign is over."),
)

PHASES: dict[str, ConquestPhase] = {p.window: p for p in (CAPITALS, CAMPAIGN, SETUP, RESULTS, CONQUEST, OVER)}
