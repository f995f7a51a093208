"""The GM's commands of Star Wars Miniatures (SWM-PBM-15), by mail (`GM RESULT ...`) and on the
command line (`pbem gm CAMPAIGN RESULT ...`): a battle's result, a squad's roster, a squad's place
and a territory's controller. Each is logged in the next public report. (Extending a deadline,
pausing, replacing a player and rolling back a turn are the engine's own commands.)"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.rulesets.phases import GMVerb, View
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.catalog import catalog_of
from pbem.rulesets.star_wars_miniatures.model import SWMState
from pbem.rulesets.star_wars_miniatures.regions import RegionMap
from pbem.rulesets.star_wars_miniatures.world import World

SWMView = View[SWMState, RegionMap]
WINNERS = ("attacker", "defender", "none")


def _world(view: SWMView) -> World:
    return World(view.state, view.map, catalog_of(view.rules), view.rules)


def result(view: SWMView, words: Sequence[str]) -> str:
    """RESULT <battle> attacker|defender|none: the GM's winner stands; the reports' kills and
    flights of that winner's side are kept when they agree with it."""
    battles = {b.id.casefold(): b.id for b in view.state.battles}
    if len(words) != 2 or words[0].casefold() not in battles or words[1].lower() not in WINNERS:
        raise ValueError(f"write RESULT <battle> attacker|defender|none; open battles: "
                         f"{', '.join(battles.values()) or 'none'}")
    ident = battles[words[0].casefold()]
    view.state.gm_results[ident] = words[1].lower()
    view.state.log.append(f"GM: the result of battle {ident} is set: the {words[1].lower()} wins.")
    return f"battle {ident}: the {words[1].lower()} wins; it stands when the window closes"


def place(view: SWMView, words: Sequence[str]) -> str:
    """PLACE <squad> <territory>: the GM moves a squad (a mistake put right)."""
    squad = view.state.squads.get(words[0]) if len(words) == 2 else None
    if squad is None or words[1] not in view.state.lands:
        raise ValueError("write PLACE <squad> <territory>")
    world = _world(view)
    world.state.arrive(squad, words[1])
    world.say(f"GM: {squad.id} is placed in {words[1]}.")
    return f"{squad.id} now stands in {words[1]}"


def control(view: SWMView, words: Sequence[str]) -> str:
    """CONTROL <territory> <player>: the GM sets who controls a territory."""
    if len(words) != 2 or words[0] not in view.state.lands or words[1] not in view.state.players:
        raise ValueError("write CONTROL <territory> <player>")
    view.state.lands[words[0]].owner = words[1]
    view.state.log.append(f"GM: {words[0]} is now controlled by {words[1]}.")
    return f"{words[0]} is now controlled by {words[1]}"


def roster(view: SWMView, words: Sequence[str]) -> str:
    """ROSTER <squad> REMOVE <troop> | ROSTER <squad> ADD <card>: the GM corrects a roster."""
    squad = view.state.squads.get(words[0]) if len(words) >= 3 else None
    if squad is None or words[1].upper() not in ("ADD", "REMOVE"):
        raise ValueError("write ROSTER <squad> REMOVE <troop> or ROSTER <squad> ADD <card>")
    world = _world(view)
    if words[1].upper() == "REMOVE":
        if all(t.id != words[2] for t in squad.troops):
            raise ValueError(f"{words[2]} is not a troop of {squad.id}")
        world.remove_troop(squad, words[2])
    else:
        mini = world.catalog.lookup(" ".join(words[2:]))
        squad.roster.entries.append(tr.new_troop(f"t{view.state.next_troop}", mini, mini.labels[0], view.state.turn))
        view.state.next_troop += 1
    if squad.id in view.state.squads:
        world.recheck(squad)
    world.say(f"GM: the roster of {squad.id} is corrected ({' '.join(words[1:])}).")
    return f"{squad.id}: {' '.join(words[1:])} done"


VERBS: tuple[GMVerb[SWMState, RegionMap], ...] = (
    GMVerb("RESULT", "RESULT <battle> attacker|defender|none", "set a battle's winner (reports disagree or none came)",
           result),
    GMVerb("PLACE", "PLACE <squad> <territory>", "move a squad to put a mistake right", place),
    GMVerb("CONTROL", "CONTROL <territory> <player>", "set who controls a territory", control),
    GMVerb("ROSTER", "ROSTER <squad> REMOVE <troop> | ADD <card>", "correct a squad's roster", roster),
)
