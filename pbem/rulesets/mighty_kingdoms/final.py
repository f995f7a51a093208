"""The end of the campaign: the OVER phase and the final standings (MK-END-1..3, A32).

The catalog gives no victory rule: the campaign runs `campaign.years` years (0 = until the GM
ends it with FINISH) and the game master declares the outcome (`campaign.victory = "gm"`). The
final report lists every kingdom, its armies with their medals and scars, and its artefacts.
"""

from __future__ import annotations

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder
from pbem.kit.texts import counted
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.mighty_kingdoms import armylist
from pbem.rulesets.mighty_kingdoms.model import MEDAL, SCAR, SETTLEMENTS, Army, MKState, MKView
from pbem.rulesets.phases import Lines, Outcome, Phase, Submissions

PLURAL = {"village": "villages", "city": "cities", "fortress": "fortresses"}


def kingdom_line(state: MKState, player: str) -> str:
    """`Red Realm: 9 tiles (capital held; 2 villages, 2 cities, 1 fortress), 2 armies, 5 gold, 1 food`."""
    k = state.kingdoms[player]
    counts = {kind: len(state.settlements_of(player, kind)) for kind in SETTLEMENTS}
    held = ", ".join(f"{n} {kind if n == 1 else PLURAL[kind]}" for kind, n in counts.items() if n)
    capital = "capital held" if state.capital_of(player) else "no capital"
    armies = len(state.armies_of(player))
    return (f"{k.name}: {len(state.kingdom_tiles(player))} tiles ({capital}{'; ' + held if held else ''}), "
            f"{armies} arm{'y' if armies == 1 else 'ies'}, {k.gold} gold, {k.food} food")


def army_lines(army: Army) -> list[str]:
    """The army, then each unit that bears a medal, a scar or a change since its list was written."""
    out = [f"{army.id} in {army.tile}: {army.roster.points} points, {counted(len(army.roster.entries), 'unit')}"]
    for entry in army.roster.entries:
        marks = [f"{entry.total(kind)} {kind}{'s' if entry.total(kind) != 1 else ''}"
                 for kind in (MEDAL, SCAR) if entry.total(kind)]
        story = [c.text for c in army.roster.history if c.entry == entry.id]
        if marks or story:
            out.append(f"  {entry.id} {entry.name} ({armylist.stat_line(entry)}): " + "; ".join(marks + story))
    return out


def standings(state: MKState) -> list[str]:
    """Every kingdom in player order, most tiles first among the rest, with armies and artefacts."""
    out: list[str] = []
    for player in state.order or sorted(state.kingdoms):
        out.append(kingdom_line(state, player))
        for army in state.armies_of(player):
            out += ["  " + line for line in army_lines(army)]
        owned = sorted(name for name, h in state.artefacts.items() if h.owner == player)
        for name in owned:
            holding = state.artefacts[name]
            where = f"on {holding.army}.{holding.unit}" if holding.army else "held at the capital"
            out.append(f"  artefact {name}, {where}")
    return out


def parse_nothing(view: MKView, player: Player, lines: Lines) -> Parsed:
    return Parsed(payload={}, problems=[IllegalOrder("the campaign is over; no orders are read").at(no, line)
                                        for no, line in lines])


def rest(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    return Outcome(view.state)


PHASE = Phase[MKState, HexMap](title="campaign over", window="orders", parse=parse_nothing, resolve=rest,
                               help=lambda view, player: "The campaign is over; the game master declares the "
                                                         "outcome (MK-END-1).", over=True)
