"""The windows of the calendar as phases: who owes, how lines read, what help says (with the
player's own ids), and how each window resolves and opens the next (turn.py does the rules)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.orders import IllegalOrder, OrderProblem
from pbem.kit.places import natural_key
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.phases import Lines, Outcome, Payload, Phase, Submissions, View
from pbem.rulesets.star_wars_miniatures import late, report, setup, turn, victory
from pbem.rulesets.star_wars_miniatures.acks import warnings
from pbem.rulesets.star_wars_miniatures.catalog import catalog_of
from pbem.rulesets.star_wars_miniatures.model import (
    ACTION,
    BATTLE,
    ECONOMICS,
    FACTIONS,
    INITIATIVE,
    OVER,
    PICK,
    SQUADS,
    SWMState,
)
from pbem.rulesets.star_wars_miniatures.orders import WORDS, Reader, read_lines
from pbem.rulesets.star_wars_miniatures.regions import RegionMap
from pbem.rulesets.star_wars_miniatures.world import World

SWMView = View[SWMState, RegionMap]
ParseHook = Callable[[SWMView, Player, Lines], Parsed]
Resolver = Callable[[SWMView, Submissions, Dice], Outcome[SWMState]]
Step = Callable[[World, Mapping[str, Sequence[str]], Dice, Mapping[str, str]], None]


def world_of(view: SWMView) -> World:
    return World(view.state, view.map, catalog_of(view.rules), view.rules)


def everyone(view: SWMView) -> list[str]:
    return list(view.state.players)


def lines_of(submissions: Submissions) -> dict[str, list[str]]:
    return {p: list(s.get("orders", [])) for p, s in submissions.items()}


def parse_for(window: str) -> ParseHook:
    def parse(view: SWMView, player: Player, lines: Lines) -> Parsed:
        world = world_of(view)
        if player.id not in view.state.players:
            return Parsed({}, problems=[IllegalOrder("you lead no faction in this campaign")])
        kept, accepted, problems = read_lines(Reader(world, player.id, window), lines)
        if window == SQUADS and any(k.startswith("SQUAD ") for k in kept):
            kept = check_start(world, player.id, kept, accepted, problems)
        return Parsed({"orders": kept}, accepted=accepted, problems=problems,
                      notes=warnings(world, player.id, window, kept))
    return parse



def check_start(world: World, player: str, kept: list[str], accepted: list[tuple[int, str]],
                problems: list[OrderProblem]) -> list[str]:
    """Window S2 (SWM-SET-8/9): an illegal squad is refused with its XP and upgrades; XP over the
    army's 100 is refused with the upgrades; each upgrade the troop cannot have or afford is
    refused alone. Nothing refused is stored."""
    where = dict(zip(kept, accepted, strict=True))
    squad = [k for k in kept if k.startswith("SQUAD ")]
    shares = [k for k in kept if k.startswith("XP ")]
    rest = [k for k in kept if not k.startswith(("SQUAD ", "XP ", "UPGRADE "))]
    upgrades = [k for k in kept if k.startswith("UPGRADE ")]
    if why := setup.starting_problems(world, player, squad):
        _refuse(problems, where[squad[-1]], "the starting squad is refused: " + "; ".join(why))
        for line in shares + upgrades:
            _refuse(problems, where[line], "refused with the starting squad it is for; send them again with it")
        return rest
    if why := setup.starting_problems(world, player, squad + shares):
        for line in shares + upgrades:
            _refuse(problems, where[line], "; ".join(why) + "; the XP and upgrades are refused, the squad stands")
        return squad + rest
    bought: list[str] = []
    for line in upgrades:
        if why := setup.starting_problems(world, player, squad + shares + bought + [line]):
            _refuse(problems, where[line], "; ".join(w.split(": ", 1)[-1] for w in why))
        else:
            bought.append(line)
    return squad + shares + bought + rest


def _refuse(problems: list[OrderProblem], at: tuple[int, str], reason: str) -> None:
    problems.append(IllegalOrder(reason).at(*at))


def canonical(view: SWMView, player: Player, payload: Payload) -> list[str]:
    return list(payload.get("orders", [])) or ["no orders"]


def missing_squad(view: SWMView, player: Player, payload: Payload) -> list[str]:
    if any(str(k).startswith("SQUAD ") for k in payload.get("orders", [])):
        return []
    return [f"your starting squad: SQUAD <name>: <card> x<n>, <card>, ... ({late.roster_note(view, player.id)})"]


def outcome(view: SWMView, before: int, title: str, key: str) -> Outcome[SWMState]:
    world, names = world_of(view), report.names_of(view.settings)
    reports = [report.public(world, title, key, {}, names)]
    reports += [report.briefing(world, b, names) for b in view.state.battles] if view.state.window == BATTLE else []
    view.state.log = []
    return Outcome(view.state, reports, turn_finished=view.state.turn != before)


# -- the resolutions ------------------------------------------------------------------------
def resolve_pick(view: SWMView, submissions: Submissions, dice: Dice) -> Outcome[SWMState]:
    world = world_of(view)
    view.state.pick_order = setup.pick_order(world, list(view.state.players), dice)
    world.say("Pick order: " + ", ".join(view.state.pick_order) + ".")
    view.state.window = FACTIONS
    return outcome(view, view.state.turn, "Setup: the pick order", "pick")


def resolve_factions(view: SWMView, submissions: Submissions, dice: Dice) -> Outcome[SWMState]:
    world, orders = world_of(view), lines_of(submissions)
    factions = {p.id: [ln.split()[1] for ln in orders.get(p.id, []) if ln.startswith("PICK ")] or
                [k for k in (f.casefold().replace(" ", "_") for f in (p.faction, p.faction_name))
                 if k in view.rules.section("factions")] for p in view.settings.players}
    regions = {p: [(ln.split()[1], ln.split()[3] if " IF " in ln else "") for ln in lines if ln.startswith("REGION ")]
               for p, lines in orders.items()}
    setup.assign(world, view.state.pick_order, factions, regions, dice)
    view.state.window = SQUADS
    out = outcome(view, view.state.turn, "Setup: factions and start regions", "factions")
    warning = victory.setup_warning(world)
    out.gm_alerts += [warning] if warning else []
    return out


def resolve_squads(view: SWMView, submissions: Submissions, dice: Dice) -> Outcome[SWMState]:
    """Window S2: starting squads placed; turn 1's Initiative once every roster is in (SWM-SET-12)."""
    world, orders, state = world_of(view), lines_of(submissions), view.state
    for player, lines in orders.items():
        if not state.squads_of(player) and any(ln.startswith("SQUAD ") for ln in lines):
            setup.place_start(world, player, lines)
            state.action_orders[player] = [ln for ln in lines if ln.split()[0] in (*turn_words(), "ALLY")]
    waiting = [p for p in state.players if not state.squads_of(p)]
    if waiting:
        alerts = late.extend_rosters(view, waiting)
        out = outcome(view, state.turn, "Setup: starting squads", f"squads-{len(state.squads)}-{len(waiting)}")
        out.gm_alerts += alerts
        return out
    state.late_rosters = {}
    before = state.turn
    initiative_orders = dict(state.action_orders)
    state.action_orders = {}
    turn.initiative_phase(world, initiative_orders, dice, view.decisions)
    return outcome(view, before, "Turn 1: starting squads and initiative", "squads")


def resolve_battle(view: SWMView, submissions: Submissions, dice: Dice) -> Outcome[SWMState]:
    """Window B: the reports kept through the GM's grace and those just sent (a new mail replacing a
    player's kept one); a single report at the deadline waits out the grace (late.py)."""
    state = view.state
    orders = {**state.battle_reports, **lines_of(submissions)}
    alerts = late.hold_battles(view, orders)
    if alerts is not None:
        title = f"Turn {state.turn}: battle results awaited"
        key = f"battle-{state.turn}-{state.slot + 1}-grace"
        grace = Outcome(state, [report.public(world_of(view), title, key, {}, report.names_of(view.settings))],
                        gm_alerts=alerts)
        state.log = []
        return grace
    state.battle_grace, state.battle_reports = "", {}
    return resolve_with(turn.battle_phase, "battle results", "battle")(
        view, {p: {"orders": lines} for p, lines in orders.items()}, dice)


def turn_words() -> tuple[str, ...]:
    return ("STANCE", "PREFER", "BREAKUP", "OVERSTACK")


def resolve_with(step: Step, title: str, key: str) -> Resolver:
    def resolve(view: SWMView, submissions: Submissions, dice: Dice) -> Outcome[SWMState]:
        before, slot = view.state.turn, f"-{view.state.slot + 1}" if key == "battle" else ""   # one per slot
        step(world_of(view), lines_of(submissions), dice, view.decisions)
        return outcome(view, before, f"Turn {view.state.turn}: {title}", f"{key}-{view.state.turn}{slot}")
    return resolve


def battle_players(view: SWMView) -> list[str]:
    out = {p for b in view.state.battles for p in b.side}
    out |= {view.state.owner(b.place) for b in view.state.battles}
    out |= {view.state.squads[s].owner for b in view.state.battles for s in b.defenders if s in view.state.squads}
    return sorted(out, key=natural_key)


def battle_sides(view: SWMView) -> list[tuple[str, ...]]:
    """One report from each side of the slot's battles closes the window early (SWM-BAT-24); in the
    GM's grace, a side whose report is kept owes nothing more."""
    acting = tuple(view.state.sides[view.state.slot]) if view.state.slot < len(view.state.sides) else ()
    others = tuple(p for p in battle_players(view) if p not in acting)
    kept = late.reported(view)
    return [group for group in (acting, others) if group and not kept & set(group)]


def battle_owing(view: SWMView) -> list[str]:
    kept = late.reported(view)
    groups = battle_sides(view)
    return [p for p in battle_players(view) if p not in kept and any(p in g for g in groups)]


# -- help ---------------------------------------------------------------------------------
def help_text(view: SWMView, player: Player) -> str:
    state = view.state
    me = state.players.get(player.id)
    if me is None:
        return "You lead no faction in this campaign."
    squads = ", ".join(f"{s.id} in {s.place}" for s in state.squads_of(player.id)) or "none"
    troops = ", ".join(t.id for s in state.squads_of(player.id) for t in s.troops[:3]) or "none"
    mine = [t for t, land in state.lands.items() if land.owner == player.id]
    place = mine[0] if mine else "T01"
    transfer = "    TRANSFER <troop> TO <squad>   (same territory)\n" if view.rules["squad.allow_transfers"] else ""
    texts = {
        FACTIONS: f"Rank the factions and start regions, best first, one per line:\n\n    PICK Imperial\n"
                  f"    PICK Rebel\n    REGION {next(iter(view.map.regions))}\n    REGION R2 IF Sith\n\n"
                  f"Regions: {', '.join(f'{r} {g.name}' for r, g in view.map.regions.items())}.",
        SQUADS: "Your starting squad (more than 75, at most 150 points, legal for your faction), the army's "
                f"{view.rules['setup.starting_army_xp']} starting XP by troop number, upgrades, and turn 1's "
                "initiative orders:\n\n    SQUAD Vanguard: Elite Trooper x5, Imperial Officer, Stormtrooper x14\n"
                "    XP 1 50\n    UPGRADE 1 Attack\n    STANCE early\n    ALLY <player> <player>",
        INITIATIVE: f"Cleanup and initiative. Your squads: {squads}. Troops (see the rosters): {troops}.\n\n"
                    "    UPGRADE <troop> <upgrade> [: <unique>]\n    TRAIN <troop>\n    ALLY <player> <player> ...\n"
                    f"    STANCE early|late   or   PREFER F1 B1 F2 ...\n    BREAKUP <squad> TO {place} ...\n"
                    f"    OVERSTACK {place} ELIMINATE <squad>",
        ECONOMICS: f"Your ordered economics list (treasury {me.treasury}); each line may add ELSE <another>:\n\n"
                   f"    BUILD Vanguard: <card> x<n>, <card>\n    REINFORCE <squad>: <card> x<n>\n"
                   f"    BUY intelligence_officer|logistics_officer|training_officer|medical_officer\n"
                   f"    BUY fortify {place}   /   BUY minefield {place}\n    SHUTTLE <squad> TO {place}\n"
                   "    OPERATIVE DISRUPT <territory>   /   OPERATIVE ASSASSINATE <player> <advantage> [territory]\n"
                   f"    GIVE <ally> <amount>\n    ELIMINATE <troop>\n{transfer}\nYour squads: {squads}.",
        ACTION: f"Action orders. Your squads: {squads}.\n\n    MOVE <squad> <territory> <territory> ...\n"
                f"    STRATEGIC <squad> TO {place} [ELSE <squad> TO <territory>]\n"
                f"    RETREAT <squad>|ALL TO {place} ...\n"
                "    MINE-REROLL <troop> MAX <n>",
        BATTLE: "Battle results, per open battle (" + ", ".join(b.id for b in state.battles) + "):\n\n"
                "    WINNER <battle> attacker|defender|none\n    KILLED <troop> BY <troop>|reserve|mine|none\n"
                "    FLED <troop>\n    RETREAT <squad> TO <territory>",
    }
    return texts.get(state.window, "Nothing to send now.") + \
        "\n\nA new mail replaces your whole earlier one for this window; CLEAR withdraws it."


def words_for(window: str) -> Callable[[SWMView], Sequence[str]]:
    return lambda view: WORDS.get(window, ())


def _phase(title: str, window: str, resolve: Resolver, **kw: Any) -> Phase[SWMState, RegionMap]:
    return Phase[SWMState, RegionMap](title=title, window=window, parse=parse_for(window), resolve=resolve,
                                      canonical=canonical, help=help_text, words=words_for(window), **kw)


def _nothing(view: SWMView, player: Player, lines: Lines) -> Parsed:
    return Parsed({}, problems=[IllegalOrder("nothing is sent now: the processor rolls the pick order")])


PHASES: dict[str, Phase[SWMState, RegionMap]] = {
    PICK: Phase[SWMState, RegionMap](title="pick order", window=FACTIONS, parse=_nothing, resolve=resolve_pick,
                                     ready=lambda view: True),
    FACTIONS: _phase("factions and start regions", FACTIONS, resolve_factions, owing=everyone),
    SQUADS: _phase("starting squads", SQUADS, resolve_squads, missing=missing_squad, deadline=late.roster_deadline,
                   owing=lambda view: [p for p in view.state.players if not view.state.squads_of(p)]),
    INITIATIVE: _phase("cleanup and initiative", INITIATIVE,
                       resolve_with(turn.initiative_phase, "cleanup and initiative", "initiative"), owing=everyone),
    ECONOMICS: _phase("economics", ECONOMICS, resolve_with(turn.economics_phase, "economics", "economics"),
                      owing=everyone),
    ACTION: _phase("action", ACTION, resolve_with(turn.action_phase, "action", "action"), owing=everyone),
    BATTLE: _phase("battle results", BATTLE, resolve_battle, owing=battle_owing, owing_any=battle_sides,
                   deadline=late.grace_deadline, ready=late.all_ruled),
    OVER: Phase[SWMState, RegionMap](title="campaign over", window=ACTION, parse=_nothing,
                                     resolve=lambda view, s, d: Outcome(view.state), over=True),
}


def phase_names() -> Sequence[str]:
    return list(PHASES)
