"""Winter deployment and artefact allocation (MK-DEP-1..6, MK-ART-4/5, MK-PBM-10/11, A16, A32).

Every army goes to a settlement its owner controls, anywhere in the kingdom (MK-DEP-1, MK-DEP-3),
at most `[deployment] limits` armies per settlement: village 1, city 2 (the capital too),
fortress 3 (MK-DEP-2). All kingdoms deploy at once; player order plays no part (MK-DEP-4).

Per kingdom, A32's order: the player's own DEPLOY lines first (a deployment with any illegal line
is refused whole, and the defaults place every army); then each army already in a legal own
settlement with room stays, in army-id order; then the others fill the free places in the order
capital, fortresses, cities, villages, each by tile id, in army-id order (MK-PBM-10). An army
left over stays where it is, or is disbanded with `[deployment] overflow = "disband"` (MK-DEP-5).

Artefacts (MK-ART-4, MK-PBM-11): the player's ALLOT lines first; then every other artefact he
owns keeps its previous unit if that is still legal; then the rest go, in pool order, to the
first unit that may carry them (lowest army id, then list order); an artefact no unit may carry
is held at the capital, or goes back to the pool when the kingdom holds no capital.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.mighty_kingdoms import artefacts
from pbem.rulesets.mighty_kingdoms.chronicle import Section
from pbem.rulesets.mighty_kingdoms.model import CITY, FORTRESS, VILLAGE, Army, Holding, MKState, MKView, unit_key
from pbem.rulesets.phases import Payload, Submissions

STAY, DISBAND = "stay_in_place", "disband"


# -- where armies may go ---------------------------------------------------------------------------
def limit(state: MKState, rules: RuleBook, tile: str) -> int:
    """How many armies may deploy to the tile's settlement (MK-DEP-2); 0 for a tile without one."""
    kind = state.tile(tile).settlement
    return int(rules["deployment.limits"].get(kind, 0)) if kind else 0


def fill_order(state: MKState, player: str) -> list[str]:
    """The player's settlements in the default fill order: capital, fortresses, cities, villages."""
    cap = state.capital_of(player)
    rest = [t for kind in (FORTRESS, CITY, VILLAGE) for t in state.settlements_of(player, kind) if t != cap]
    return ([cap] if cap else []) + rest


def capacity(state: MKState, rules: RuleBook, player: str) -> int:
    return sum(limit(state, rules, t) for t in state.settlements_of(player))


def deploy_problems(state: MKState, rules: RuleBook, player: str, wanted: Sequence[tuple[str, str]]) -> list[str]:
    """One reason per (army, tile) line that breaks MK-DEP-1/2, "" for a legal line, in line order."""
    out, used, seen = [], dict[str, int](), set[str]()
    for army_id, tile in wanted:
        army, room = state.armies.get(army_id), limit(state, rules, tile)
        used[tile] = used.get(tile, 0) + 1
        if army is None or army.owner != player:
            out.append(f"{army_id} is not one of your armies")
        elif army_id in seen:
            out.append(f"{army_id} is deployed twice; one DEPLOY line per army")
        elif state.owner(tile) != player or not room:
            out.append(f"{tile} holds no settlement of yours; armies deploy only to your own settlements (MK-DEP-1)")
        elif used[tile] > room:
            kind = state.tile(tile).settlement
            armies = "1 army" if room == 1 else f"{room} armies"
            out.append(f"{tile} is a {kind}: at most {armies} may deploy there (MK-DEP-2)")
        else:
            out.append("")
        seen.add(army_id)
    return out


# -- placing (MK-DEP-1..5, MK-PBM-10) ----------------------------------------------------------------
@dataclass
class Plan:
    """Where one kingdom's armies go; `left` are the ones no place was found for."""

    places: dict[str, str] = field(default_factory=dict)       # army -> tile
    how: dict[str, str] = field(default_factory=dict)          # army -> why it goes there
    left: list[str] = field(default_factory=list)


def plan(state: MKState, rules: RuleBook, player: str, explicit: Mapping[str, str]) -> Plan:
    """A32's order: explicit lines, then armies staying, then the fill order."""
    out, room = Plan(), {t: limit(state, rules, t) for t in state.settlements_of(player)}
    for army_id, tile in explicit.items():
        out.places[army_id], out.how[army_id] = tile, "as ordered"
        room[tile] -= 1
    waiting = [a for a in state.armies_of(player) if a.id not in out.places]
    for army in list(waiting):
        if room.get(army.tile, 0) > 0:
            out.places[army.id], out.how[army.id] = army.tile, "stays"
            room[army.tile] -= 1
            waiting.remove(army)
    for army in waiting:
        tile = next((t for t in fill_order(state, player) if room[t] > 0), "")
        if tile:
            out.places[army.id], out.how[army.id] = tile, "default"
            room[tile] -= 1
        else:
            out.left.append(army.id)
    return out


def run(view: MKView, submissions: Submissions, sections: list[Section]) -> None:
    """Deploy every kingdom's armies, then allocate every artefact."""
    state, armies, items = view.state, Section("Deployment"), Section("Artefacts")
    for player in state.order:
        _deploy(view, player, submissions.get(player, {}), armies)
    for player in state.order:
        _allot(view, player, submissions.get(player, {}), items)
    sections += [armies, items]


def _deploy(view: MKView, player: str, payload: Payload, section: Section) -> None:
    state, rules, name = view.state, view.rules, view.state.kingdoms[player].name
    explicit = dict(payload.get("deploy", {}))
    reasons = [r for r in deploy_problems(state, rules, player, list(explicit.items())) if r]
    if reasons:
        section.add(f"{name}'s deployment is refused as a whole ({'; '.join(reasons)}); the defaults apply")
        explicit = {}
    placed = plan(state, rules, player, explicit)
    for army_id, tile in placed.places.items():
        army = state.armies[army_id]
        moved = "stays in" if tile == army.tile else "deploys to"
        army.tile, army.upright, army.defend = tile, True, False
        section.add(f"{army_id} {moved} {view.map.label(tile)} ({state.tile(tile).settlement}"
                    f"{', capital' if tile == state.capital_of(player) else ''}; {placed.how[army_id]})")
    for army_id in placed.left:
        _overflow(view, state.armies[army_id], section)


def _overflow(view: MKView, army: Army, section: Section) -> None:
    """MK-DEP-5 (A16): no room left in the kingdom's settlements."""
    state = view.state
    if view.rules["deployment.overflow"] == DISBAND:
        section.add(f"{army.id} finds no room in {state.kingdoms[army.owner].name}'s settlements and is disbanded "
                    f"(MK-DEP-5)")
        artefacts.release(state, army.id, "", section)
        del state.armies[army.id]
        return
    army.upright, army.defend = True, False
    section.add(f"{army.id} finds no room in {state.kingdoms[army.owner].name}'s settlements and stays in "
                f"{view.map.label(army.tile)} (MK-DEP-5)")


# -- artefacts (MK-ART-4/5, MK-PBM-11) ----------------------------------------------------------------
def allot_problem(state: MKState, rules: RuleBook, player: str, name: str, key: str,
                  taken: Mapping[str, int]) -> str:
    """Why an ALLOT of `name` to unit `key` is illegal ("" when legal); `taken` counts the units
    already given an artefact by earlier lines."""
    army_id, _, unit = key.partition(".")
    army = state.armies.get(army_id)
    entry = army.roster.get(unit) if army else None
    if army is None or army.owner != player or entry is None:
        return f"{key} is not a unit of your armies"
    item = artefacts.find(rules, name)
    reason = artefacts.unsuited(item, army, entry) if item else f"{name} is not in the rules' artefact pool"
    if reason:
        return f"{reason} (MK-ART-11)"
    if taken.get(key, 0) >= rules["artefacts.max_per_unit"]:
        return f"{key} already gets an artefact; a unit carries at most {rules['artefacts.max_per_unit']} (MK-ART-14)"
    return ""


def _allot(view: MKView, player: str, payload: Payload, section: Section) -> None:
    state, rules = view.state, view.rules
    owned = [a.name for a in artefacts.pool(rules) if a.name in artefacts.owned_by(state, player)]
    owned += [n for n in artefacts.owned_by(state, player) if n not in owned]      # dropped from the pool data
    before = {n: state.artefacts[n] for n in owned}
    for n in owned:
        state.artefacts[n] = Holding(player)
    taken: dict[str, int] = {}
    for n, key in dict(payload.get("allot", {})).items():
        reason = allot_problem(state, rules, player, n, key, taken) if n in before else f"{n} is not yours"
        if reason:
            section.add(f"ALLOT {n} {key} is refused now: {reason}")
            continue
        _put(state, n, player, key, "as allotted", section)
        taken[key] = taken.get(key, 0) + 1
    rest = [n for n in owned if not state.artefacts[n].army]
    for n in rest:
        old = before[n]
        if old.army and _still_legal(state, rules, player, n, old):
            _put(state, n, player, unit_key(old.army, old.unit), "kept", section)
    for n in rest:
        if not state.artefacts[n].army:
            _default(view, player, n, section)


def _still_legal(state: MKState, rules: RuleBook, player: str, name: str, old: Holding) -> bool:
    army = state.armies.get(old.army)
    entry = army.roster.get(old.unit) if army else None
    return army is not None and army.owner == player and entry is not None and \
        not artefacts.why_not(state, rules, name, army, entry)


def _default(view: MKView, player: str, name: str, section: Section) -> None:
    state = view.state
    army, unit = artefacts.first_unit(state, view.rules, name, state.armies_of(player))
    if army:
        _put(state, name, player, unit_key(army, unit), "first unit that may carry it", section)
    else:
        section.add(f"{name} suits no unit of {state.kingdoms[player].name}")
        artefacts.hold_or_pool(state, name, player, section)


def _put(state: MKState, name: str, player: str, key: str, how: str, section: Section) -> None:
    army, _, unit = key.partition(".")
    artefacts.allocate(state, name, player, army, unit)
    section.add(f"{name} goes to {key} {state.armies[army].roster.entry(unit).name} ({how})")
