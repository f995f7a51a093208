"""Window W1: purchases, tithes and wizard's quests, once per winter.

Every kingdom may send an ordered purchase list (`purchase_parse` reads it), quests and
standing preferences; with nothing sent it buys nothing and sends no quest (MK-PBM-8). The
window closes by resolving: standing preferences first, then the purchase cycles
(`spending`), then the quests in player order (`quests.run`, MK-QST-18), and window W2
(deployment) opens.
"""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.texts import counted
from pbem.rulesets.base import Player
from pbem.rulesets.mighty_kingdoms import armylist, chronicle, purchase_parse, quests, spending, standing, winter_call
from pbem.rulesets.mighty_kingdoms.chronicle import Section, when
from pbem.rulesets.mighty_kingdoms.model import DEPLOYMENT, FORTRESS, PURCHASES, MKState, MKView
from pbem.rulesets.mighty_kingdoms.purchase import lines
from pbem.rulesets.mighty_kingdoms.steps import outcome
from pbem.rulesets.phases import Outcome, Payload, Phase, Submissions


def owing(view: MKView) -> list[str]:
    """Every kingdom may buy; the window closes early once all have sent."""
    return list(view.state.order)


def resolve(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    state, sections = view.state, list[Section]()
    turn_before = state.calendar.turn
    for player in state.order:
        if player in submissions:
            standing.apply(state, player, submissions[player])
    lists = {p: list(submissions.get(p, {}).get("purchases", [])) for p in state.order}
    spending.run(view, lists, sections)
    quests.run(view, submissions, dice, sections)
    state.calendar.window = DEPLOYMENT
    out = outcome(view, turn_before, f"{when(view)}: purchases and quests", sections, f"winter-{state.calendar.year}")
    out.gm_alerts += [confirm(view, ident) for ident in state.winter.recruits if ident in state.armies]
    return out


def confirm(view: MKView, ident: str) -> str:
    """MK-PBM-13: the processor checks points and forbidden categories; the GM confirms the rest."""
    army = view.state.armies[ident]
    return (f"{view.state.kingdoms[army.owner].name} recruited {ident} at {view.map.label(army.tile)} "
            f"({army.roster.points} points, {counted(len(army.roster.entries), 'unit')}): pbem checked its points and "
            "forbidden units; check the rest of its Kings of War composition and settle "
            "any problem with the player (the army stands as recruited)")


def canonical(view: MKView, player: Player, payload: Payload) -> list[str]:
    """The purchases on file as the player would send them again, then his quest and standing lines."""
    out = [text for item in payload.get("purchases", []) for text in lines(item)]
    return out + list(payload.get("echo", [])) or ["no purchases and no quests"]


def help_text(view: MKView, player: Player) -> str:
    state, gmap, me = view.state, view.map, player.id
    kingdom = state.kingdoms.get(me)
    if kingdom is None:
        return "You rule no kingdom in this campaign."
    call = winter_call.context(view)
    tiles = ", ".join(state.kingdom_tiles(me)) or "none"
    forts = ", ".join(state.settlements_of(me, FORTRESS)) or "none yet (BUILD fortress first)"
    others = ", ".join(f"{p} ({k.name})" for p, k in state.kingdoms.items() if p != me) or "none"
    armies = ", ".join(a.id for a in state.armies_of(me)) or "none"
    towers = ", ".join(gmap.label(t) for t in winter_call.eligible_towers(state, gmap, me)) or "none"
    return f"""Winter purchases. You have {kingdom.gold} gold and {kingdom.food} food. One purchase per line,
in the order you want them; each cycle buys the first one you can pay for, and the others wait:

    BUILD village|city|fortress <tile>     your tiles: {tiles}
    RECRUIT <fortress> [DISBAND <army>]    your fortresses: {forts}; costs {call["recruit"]}
    LIST <army name>                       then the new army's list, one unit per line:
    {armylist.EXAMPLE}
    END LIST
    TITHE <player> 1g 0f [message]         to: {others}; once per player per winter

Building costs: {"; ".join(call["costs"])}. Up to {call["points"]} points a list;
DISBAND one of your armies only when you have {call["max_armies"]}. Your armies: {armies}.
Wizard's towers you may quest at: {towers}. QUEST lines and standing preferences may come
in the same mail. A new mail replaces your whole earlier one for this window. Sending
nothing buys nothing."""


PHASE = Phase[MKState, HexMap](title="purchases", window=PURCHASES, parse=purchase_parse.parse, resolve=resolve,
                               owing=owing, canonical=canonical, help=help_text,
                               words=lambda view: (*purchase_parse.WORDS, *standing.VERBS))
chronicle.CALLS[PURCHASES] = winter_call.context
