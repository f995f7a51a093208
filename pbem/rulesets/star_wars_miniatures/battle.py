"""The Battle step (SWM-BAT, SWM-PBC): contested territories settled in the order first entered:
uncontested captures, walk-overs against damaged squads, and tabletop battles with their
minefield saves; then the reported result: one post-battle d20 per killed or fled troop, XP
pending for each kill, removals, damage, control. Retreats wait for the whole slot (retreat.py).
Force spent on mine re-rolls is missing only in the battle it was spent for (SWM-BAT-18): it is
back once that battle, or the uncontested entry that set the mines off (A19), is settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pbem.kit.dice import Dice, dice_spec
from pbem.kit.roster import Entry
from pbem.rulesets.phases import ask
from pbem.rulesets.star_wars_miniatures import troops as tr
from pbem.rulesets.star_wars_miniatures.model import FORCE_SPENT, PENDING, Battle, Squad
from pbem.rulesets.star_wars_miniatures.world import World

ATTACKER, DEFENDER, NONE = "attacker", "defender", "none"
KILLED, FLED = "killed", "fled"
NO_XP_KILLERS = ("reserve", "mine", "none")


@dataclass
class Outcome:
    """What the battle step decided at once, and who must retreat once the slot is settled."""

    battles: list[Battle] = field(default_factory=list)
    retreating: list[tuple[str, str]] = field(default_factory=list)   # (squad, from territory)
    captured: list[str] = field(default_factory=list)


def settle(world: World, side: Sequence[str], entered: Sequence[str], attackers: Mapping[str, Sequence[str]],
           dice: Dice, battle_ids: Sequence[str]) -> Outcome:
    """SWM-BAT-1..6: each contested territory in the order first entered."""
    out = Outcome()
    ids = iter(battle_ids)
    for place in entered:
        enemies = [s for s in world.state.squads_in(place) if s.owner not in side]
        active = [s for s in enemies if not s.damaged]
        if not active or world.book["battle.damaged_codefender"] == "retreat":
            out.retreating += [(s.id, place) for s in enemies if s.damaged]    # SWM-BAT-4/5: lose at once
        if not active:
            _without_battle(world, side, place, attackers[place], bool(enemies), dice)
            out.captured.append(place)
            continue
        battle = Battle(next(ids), place, list(side), list(attackers[place]), [s.id for s in active],
                        world.state.lands[place].fortified, world.state.lands[place].minefield)
        if battle.mined:
            mines(world, battle, dice)
        out.battles.append(battle)
        world.say(f"Battle {battle.id} in {place}: {', '.join(battle.attackers)} against "
                  f"{', '.join(battle.defenders)}.")
        if len(enemies) > len(active) and world.book["battle.damaged_codefender"] == "share_result":
            world.say(f"Battle {battle.id}: the damaged squads beside the defenders stay out of it and share "
                      f"its result (A12): {', '.join(s.id for s in enemies if s.damaged)}.")
    return out


def _without_battle(world: World, side: Sequence[str], place: str, squads: Sequence[str], walk_over: bool,
                    dice: Dice) -> None:
    """SWM-BAT-3/4: an uncontested capture or a walk-over; with `minefield.affects_uncontested`
    (A19) a mined territory's mines go off first. A territory taken on entry (A8) is already the
    side's and only its mines are left to roll."""
    rolled = world.state.lands[place].minefield and bool(world.book["minefield.affects_uncontested"])
    if rolled:
        hits, spent = saves(world, squads, dice)
        force = "".join(f"; {t} spent {n} Force on re-rolls" for t, n in spent.items())
        world.say(f"Minefield in {place}: " + (", ".join(f"{t} takes 10 damage" for t in hits) or "no troop is hit")
                  + f"{force}; no battle follows, so the damage lasts no further and the Force is back (A19).")
        recover_force(world, squads)
    if world.state.lands[place].owner not in side:
        kind = "walk-over against damaged squads" if walk_over else "uncontested capture"
        capture(world, place, squads, f"{kind} (no battle{'' if rolled else ', no dice'})")


def capture(world: World, place: str, squads: Sequence[str], how: str) -> None:
    """SWM-PBC-11, SWM-ALL-16 (A13): control passes to the member whose acting squads there have
    the most points, equal points to the one whose squad entered first; with
    `alliance.capture_owner = "first_entered"` to the one whose squad entered first."""
    present = [world.state.squads[s] for s in squads if s in world.state.squads]
    if not present:
        return
    points: dict[str, int] = {}
    for squad in present:
        points[squad.owner] = points.get(squad.owner, 0) + squad.points
    best = max(points.values())
    winner = next(s.owner for s in present if points[s.owner] == best or
                  world.book["alliance.capture_owner"] == "first_entered")
    hand_over(world, place, winner)
    world.say(f"{place} passes to {winner}: {how}.")


def hand_over(world: World, place: str, owner: str) -> None:
    """A territory changes hands. SWM-ADV-15 (A17): its fortification and minefield stay and serve
    the new holder; a row with `on_capture = "removed"` loses them instead."""
    land = world.state.lands[place]
    land.owner = owner
    for key, attr in (("fortify", "fortified"), ("minefield", "minefield")):
        if getattr(land, attr) and world.book[f"advantages.{key}.on_capture"] == "removed":
            setattr(land, attr, False)
            world.say(f"The {'fortification' if key == 'fortify' else 'minefield'} of {place} is removed "
                      "as it changes hands (A17).")
    world.grant()


def mines(world: World, battle: Battle, dice: Dice) -> None:
    """SWM-BAT-16/18: the attacking force's mine saves; 1-10 starts the battle with 10 damage."""
    battle.mine_hits, spent = saves(world, battle.attackers, dice)
    battle.force_spent.update(spent)


def saves(world: World, squads: Sequence[str], dice: Dice) -> tuple[list[str], dict[str, int]]:
    """SWM-BAT-16/18: a d20 per troop of `squads` in roster order; a standing MINE-REROLL spends
    Force for a re-roll right after the failed save (A37). Returns the troops hit and the Force
    each re-rolling troop has spent."""
    count, sides = dice_spec(world.book["minefield.save_die"])
    target = int(world.book["minefield.save_target"])
    hits: list[str] = []
    spent: dict[str, int] = {}
    for squad_id in squads:
        squad = world.state.squads[squad_id]
        for troop in squad.troops:
            die = dice.roll(f"mine save: {troop.id} {troop.name}", count, sides).total
            tries = _rerolls(world, squad.owner, troop)
            while die < target and tries > 0 and tr.force(troop, world.catalog) > troop.counters.get(FORCE_SPENT, 0):
                tries -= 1
                troop.counters[FORCE_SPENT] = troop.counters.get(FORCE_SPENT, 0) + int(
                    world.book["minefield.reroll_force_cost"])
                spent[troop.id] = troop.counters[FORCE_SPENT]
                die = dice.roll(f"mine re-roll: {troop.id} {troop.name}", count, sides).total
            if die < target:
                hits.append(troop.id)
    return hits, spent


def recover_force(world: World, squads: Sequence[str]) -> None:
    """SWM-BAT-18: the Force a troop spent on mine re-rolls is unavailable only in the battle that
    follows; once it is settled the troop has its full Force again for the next minefield."""
    for ident in squads:
        for troop in world.state.squads[ident].troops if ident in world.state.squads else ():
            troop.counters.pop(FORCE_SPENT, None)


def _rerolls(world: World, owner: str, troop: Entry) -> int:
    """SWM-BAT-18, SWM-PBM-13: the standing MINE-REROLL for this troop (by id or card), else none."""
    orders = world.state.players[owner].mine_rerolls
    mini = world.catalog.minis[troop.name]
    for key, most in orders.items():
        if key.casefold() in (troop.id.casefold(), troop.name.casefold(), mini.person.casefold()):
            return most
    return 0


@dataclass(frozen=True)
class Event:
    kind: str                 # KILLED or FLED
    troop: str                # a troop id, or "reserve:<card>" for a reserve victim
    killer: str = ""          # a troop id, "reserve", "mine" or "none"


@dataclass
class Result:
    winner: str
    events: list[Event] = field(default_factory=list)
    retreats: dict[str, str] = field(default_factory=dict)     # squad -> territory (SWM-PBC-15)


def apply(world: World, battle: Battle, result: Result, dice: Dice,
          decisions: Mapping[str, str] | None = None) -> list[tuple[str, str]]:
    """SWM-PBC-1..14: XP, the chart, removals, damage and control; returns who must retreat.
    SWM-XP-13 (A21): a kill earns its XP even when the chart restores the victim; with
    `xp.award_if_victim_restored = false` only a victim the chart eliminates (or a reserve) pays.
    `decisions` holds the GM's answers (A11's `no_winner_control = "gm"` asks one)."""
    earned = kills(world, result.events)
    chart(world, result.events, dice)
    for killer, victim, cost in earned:
        if world.book["xp.award_if_victim_restored"] or world.state.troop(victim) is None:
            killer.counters[PENDING] = tr.pending(killer) + cost
    for squad_id in battle.attackers + battle.defenders:
        if squad_id in world.state.squads:
            world.recheck(world.state.squads[squad_id])
    losers = {ATTACKER: battle.defenders + codefenders(world, battle), DEFENDER: battle.attackers,
              NONE: battle.attackers + battle.defenders + codefenders(world, battle)}[result.winner]
    if result.winner == ATTACKER:
        capture(world, battle.place, battle.attackers, f"won battle {battle.id}")
    world.say(no_winner(world, battle, decisions or {}) if result.winner == NONE
              else f"Battle {battle.id}: the {result.winner} wins.")
    recover_force(world, battle.attackers)
    return [(s, battle.place) for s in losers if s in world.state.squads]


def no_winner(world: World, battle: Battle, decisions: Mapping[str, str]) -> str:
    """SWM-PBC-14 (A11): after "both lose" the controller keeps the empty territory; with
    `battle.no_winner_control = "gm"` the GM says who controls it, the stage waiting for his
    DECIDE: the controller, a player of either side. Returns the report line."""
    holder = world.state.owner(battle.place)
    if world.book["battle.no_winner_control"] != "gm":
        return f"Battle {battle.id}: both sides were wiped out together; nobody wins and control stays."
    fought = [world.state.squads[s].owner for s in battle.defenders if s in world.state.squads]
    options = list(dict.fromkeys([holder, *fought, *battle.side]))
    chosen = ask(decisions, f"control_{battle.id}", f"both sides of battle {battle.id} in {battle.place} were "
                 f"wiped out together and the territory is left empty: who controls it now ({holder} did)?", options)
    if chosen != holder:
        hand_over(world, battle.place, chosen)
    return (f"Battle {battle.id}: both sides were wiped out together; nobody wins, and the GM gives "
            f"{battle.place} to {chosen} (A11).")


def codefenders(world: World, battle: Battle) -> list[str]:
    """A12 with `battle.damaged_codefender = "share_result"`: the damaged squads that stood beside
    the active defenders share their result (they retreat only when the defenders lose); with
    "retreat" they already lost at the Battle step (SWM-BAT-5) and none are left here."""
    if world.book["battle.damaged_codefender"] != "share_result":
        return []
    fought = set(battle.attackers + battle.defenders)
    return [s.id for s in world.state.squads_in(battle.place) if s.owner not in battle.side and s.id not in fought]


def award_xp(world: World, events: Sequence[Event]) -> None:
    """SWM-XP-1, SWM-XP-11..13: the killer earns the victim's catalog cost, pending."""
    for killer, _, cost in kills(world, events):
        killer.counters[PENDING] = tr.pending(killer) + cost


def kills(world: World, events: Sequence[Event]) -> list[tuple[Entry, str, int]]:
    """(killer, victim, the victim's catalog cost) for each kill that earns XP: none for
    reserves, mines, no killer or a friendly kill (SWM-XP-11/12)."""
    out = []
    for event in events:
        if event.kind != KILLED or event.killer.casefold() in NO_XP_KILLERS:
            continue
        killer = world.state.troop(event.killer)
        victim = _victim(world, event.troop)
        if killer is None or victim is None or victim[0] in world.state.allies(killer[0].owner):
            continue
        out.append((killer[1], event.troop, victim[1]))
    return out


def _victim(world: World, ident: str) -> tuple[str, int] | None:
    """(owner, cost) of a killed troop; a reserve is named by its card and has no owner here."""
    if ident.casefold().startswith("reserve:"):
        mini = world.catalog.get(ident.split(":", 1)[1].strip())
        return ("", mini.cost) if mini else None
    found = world.state.troop(ident)
    return (found[0].owner, found[1].points) if found else None


def chart(world: World, events: Sequence[Event], dice: Dice) -> None:
    """SWM-PBC-1..9: in report order, one die per killed or fled troop (reserves make none)."""
    count, sides = dice_spec(world.book["post_battle.die"])
    killed = {e.troop.casefold() for e in events if e.kind == KILLED}
    done: set[str] = set()
    for event in events:
        found = world.state.troop(event.troop)
        if found is None or event.troop.casefold() in done:
            continue
        done.add(event.troop.casefold())
        squad, troop = found
        die = dice.roll(f"post-battle chart: {troop.id} {troop.name}", count, sides).total
        bonus = _bonus(world, squad, troop, fled_only=event.troop.casefold() not in killed)
        total = die + sum(v for _, v in bonus)
        fate = "survives" if total >= int(world.book["post_battle.survive_on"]) else "is eliminated"
        parts = "".join(f" +{v} ({why})" for why, v in bonus)
        world.say(f"Post-battle chart {troop.id} {troop.name}: d20 {die}{parts} = {total}, {fate}.")
        if fate == "is eliminated":
            world.remove_troop(squad, troop.id)


def _bonus(world: World, squad: Squad, troop: Entry, fled_only: bool) -> list[tuple[str, int]]:
    mods = world.book.section("post_battle")["modifiers"]
    out = []
    if fled_only:
        out.append(("fled", int(mods["fled_not_killed"])))
    if tr.label(troop) == "Yuuzhan Vong" and not world.catalog.minis[troop.name].unique:
        out.append(("Yuuzhan Vong", int(mods["non_unique_yuuzhan_vong"])))
    medic = world.state.held(squad.owner, "medical_officer")
    if medic and (world.book["advantages.medical_officer.scope"] == "all_chart_rolls" or not fled_only):
        out.append(("Medical Officer", int(mods["medical_officer"])))
    cap, total = int(world.book["post_battle.max_bonus"]), 0
    kept = []
    for why, value in out:
        value = min(value, cap - total)
        total += value
        kept.append((why, value))
    return kept
