"""How a campaign turn runs between windows (the catalog's Calendar): each window's orders, as
canonical lines, carried out in the rules' order, the next window opened. Every step writes
its report lines through `World.say` (SWM-PBM-14)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.kit.dice import Dice
from pbem.kit.scene import BATTLE as CLASH
from pbem.kit.scene import MOVE, RETREAT, Clash, Move, Resolved
from pbem.rulesets.phases import ask
from pbem.rulesets.star_wars_miniatures import battle as bt
from pbem.rulesets.star_wars_miniatures import cleanup, economics, initiative, victory
from pbem.rulesets.star_wars_miniatures import movement as mv
from pbem.rulesets.star_wars_miniatures import retreat as rt
from pbem.rulesets.star_wars_miniatures.cleanup import Purchase
from pbem.rulesets.star_wars_miniatures.economics import Item, Line
from pbem.rulesets.star_wars_miniatures.initiative import Preference
from pbem.rulesets.star_wars_miniatures.model import ACTION, BATTLE, ECONOMICS, INITIATIVE, OVER, Battle
from pbem.rulesets.star_wars_miniatures.orders import card_list
from pbem.rulesets.star_wars_miniatures.retreat import Strategic
from pbem.rulesets.star_wars_miniatures.world import World, check_stacking

Orders = Mapping[str, Sequence[str]]      # player -> canonical lines


def standing(world: World, player: str, lines: Sequence[str]) -> None:
    """Standing preferences replace their own kind only (SWM-PBM-1)."""
    me = world.state.players[player]
    for line in lines:
        verb, _, rest = line.partition(" ")
        words = rest.split()
        if verb == "STANCE":
            me.stance, me.prefer = words[0], []
        elif verb == "PREFER":
            me.prefer, me.stance = words, ""
        elif verb == "TRAIN":
            me.train = words[0]
        elif verb == "OVERSTACK":
            me.overstack[words[0]] = words[2:]
        elif verb in ("RETREAT", "BREAKUP"):
            me.retreats[("BREAKUP:" if verb == "BREAKUP" else "") + words[0]] = words[2:]
        elif verb == "MINE-REROLL":
            me.mine_rerolls[words[0]] = int(words[2])


def end(world: World, winners: Sequence[str]) -> bool:
    if winners:
        world.state.window = OVER
    return bool(winners)


def initiative_phase(world: World, orders: Orders, dice: Dice, decisions: Mapping[str, str]) -> None:
    """Window CI (and S2 for turn 1): Cleanup of the turn before, then this turn's Initiative."""
    state = world.state
    if state.turn >= 1 and _cleanup(world, orders, decisions):
        return
    state.turn += 1
    _new_turn(world)
    for player, lines in orders.items():
        standing(world, player, lines)
    sent = {p: [w for ln in lines if ln.startswith("ALLY ") for w in ln.split()[1:]] for p, lines in orders.items()}
    silent = [p for p in state.players if p not in orders]
    declared = initiative.declarations({p: v for p, v in sent.items() if v}, silent, state.alliances,
                                       bool(world.book["alliance.nmr_renews"]))
    order = [p for p in ([p for side in state.sides for p in side] or list(state.players)) if in_game(world, p)]
    state.alliances = initiative.form_alliances(declared, order, int(world.book["alliance.max_members"]))
    for group in state.alliances:
        world.say(f"Alliance this turn: {' and '.join(group)}.")
    rankings = {k.split(":", 1)[1]: v for p in state.players.values() for k, v in p.retreats.items()
                if k.startswith("BREAKUP:")}
    initiative.breakup_retreats(world, rankings)
    _slots(world, order, dice)
    check_stacking(world, "initiative")
    if not end(world, victory.check_capitals(world, decisions)):
        state.window = ECONOMICS


def in_game(world: World, player: str) -> bool:
    """SWM-INI-20 (A28): a player stays in the game, rolling and holding a slot, while he controls a
    territory (or, with `player.eliminated_when = "no_squads_and_no_capital"`, a squad or his capital)."""
    state = world.state
    if world.book["player.eliminated_when"] == "no_territories":
        return any(land.owner == player and land.active for land in state.lands.values())
    capital = state.players[player].capital
    return bool(state.squads_of(player)) or bool(capital and state.owner(capital) == player)


def _cleanup(world: World, orders: Orders, decisions: Mapping[str, str]) -> bool:
    """SWM-XP-7; True when a victory ended the campaign."""
    plans = {}
    for player, lines in orders.items():
        train = next((ln.split()[1] for ln in lines if ln.startswith("TRAIN ")), "")
        buys = [_purchase(ln) for ln in lines if ln.startswith("UPGRADE ")]
        plans[player] = (train, buys)
    world.say(f"Cleanup of turn {world.state.turn}:")
    cleanup.run(world, plans)
    check_stacking(world, "cleanup")
    return end(world, victory.check_capitals(world, decisions))


def _purchase(line: str) -> Purchase:
    body, _, detail = line.partition(": ")
    _, troop, name = body.split(" ", 2)
    return Purchase(troop, name, detail)


def _new_turn(world: World) -> None:
    state = world.state
    state.log.append(f"Turn {state.turn}: Initiative.")
    state.last = Resolved()
    for land in state.lands.values():
        land.disrupted = False
    for squad in state.squads.values():
        squad.disrupted = False
    for me in state.players.values():
        me.built_this_turn = 0


def _slots(world: World, order: Sequence[str], dice: Dice) -> None:
    state, book = world.state, world.book
    totals = initiative.roll_totals(world, order, dice)
    state.totals = dict(totals)
    prefs = {p: Preference(me.stance, tuple(me.prefer)) for p, me in state.players.items()}
    sides = initiative.make_sides(order, state.alliances, totals, prefs, book["alliance.initiative_pick"])
    choosers = initiative.choosing_order(sides, dice, book["initiative.rolloff_die"],
                                         book["initiative.choose_order"] == "highest_first", world)
    slots = initiative.assign_slots(choosers, book["initiative.default_stance"])
    state.sides = [sorted(s.members, key=lambda p: -totals[p]) for s in slots]
    world.say("Turn order: " + ", ".join(f"{n}. {' + '.join(s)}" for n, s in enumerate(state.sides, 1)) + ".")


def economics_phase(world: World, orders: Orders, dice: Dice, decisions: Mapping[str, str]) -> None:
    """Window E: each side's lists in turn order, then stacking and both victory checks."""
    state = world.state
    world.say(f"Turn {state.turn}: Economics.")
    lists = {p: [_line(ln) for ln in lines] for p, lines in orders.items()}
    for side in state.sides:
        economics.run_side(world, side, lists, dice)
    for me in state.players.values():
        me.built_this_turn = 0          # counted within the step (SWM-ECO-10)
    check_stacking(world, "economics")
    if end(world, victory.check_capitals(world, decisions)) or end(world, victory.check_last_active(world)):
        return
    state.window, state.action_orders = ACTION, {}


def _line(text: str) -> Line:
    out = Line()
    for part in text.split(" ELSE "):
        head, colon, rest = part.partition(": ")
        words = head.split()
        out.choices.append(Item(words[0], tuple(words[1:]), tuple(card_list(rest)) if colon else ()))
    return out


def action_phase(world: World, orders: Orders, dice: Dice, decisions: Mapping[str, str]) -> None:
    """Window A: every side's orders kept; the slots played until one opens a battle window."""
    state = world.state
    world.say(f"Turn {state.turn}: Action.")
    for player, lines in orders.items():
        standing(world, player, lines)
        state.action_orders[player] = [ln for ln in lines if ln.startswith(("MOVE ", "STRATEGIC "))]
    state.slot = 0
    run_slots(world, dice, decisions)


def run_slots(world: World, dice: Dice, decisions: Mapping[str, str]) -> None:
    state = world.state
    while state.slot < len(state.sides):
        side = state.sides[state.slot]
        done = mv.SlotMoves()
        for player in side:
            for line in state.action_orders.get(player, []):
                if line.startswith("MOVE "):
                    words = line.split()
                    world.say(f"{player}: " + mv.move(world, side, words[1], words[2:], done))
                    if won_now(world, decisions):          # a capital taken on entry (A8)
                        return
        _draw_moves(world, done)
        ids = [f"B{state.turn}-{state.slot + 1}-{n}" for n in range(1, 3)]
        out = bt.settle(world, side, done.entered, done.attackers, dice, ids)
        state.retreating = list(out.retreating)
        if won_now(world, decisions):
            return
        if out.battles:
            state.battles, state.window = out.battles, BATTLE
            return
        finish_slot(world, {})
    _end_of_action(world, decisions)


def won_now(world: World, decisions: Mapping[str, str]) -> bool:
    """SWM-WIN-4 (A29): with `victory.capitals_check = "immediate"` capitals are counted each time
    a territory may have changed hands in the Action Phase, and a win ends the campaign at once."""
    if world.book["victory.capitals_check"] != "immediate":
        return False
    if end(world, victory.check_capitals(world, decisions)):
        world.state.battles = []
        return True
    return False


def _draw_moves(world: World, done: mv.SlotMoves) -> None:
    last = world.state.last
    moves = tuple(Move(a, b, MOVE, piece=s) for s, a, b in done.paths if a != b)
    world.state.last = Resolved(last.stage, last.moves + moves, last.clashes, last.dislodged, last.notes)


def finish_slot(world: World, reported: Mapping[str, str]) -> None:
    """SWM-PBC-16 then SWM-STR: the slot's retreats, then its one strategic move."""
    state = world.state
    side = state.sides[state.slot]
    moved = rt.carry_out(world, state.retreating, reported)
    last = state.last
    state.last = Resolved(last.stage, last.moves + tuple(Move(a, b, RETREAT, piece=s) for s, a, b in moved),
                          last.clashes, last.dislodged, last.notes)
    orders = [[Strategic(*opt.split(" TO ")) for opt in ln[len("STRATEGIC "):].split(" ELSE ")]
              for p in side for ln in state.action_orders.get(p, []) if ln.startswith("STRATEGIC ")]
    rt.strategic(world, side, orders)
    state.retreating, state.battles = [], []
    state.slot += 1


def _end_of_action(world: World, decisions: Mapping[str, str]) -> None:
    world.state.slot, world.state.action_orders = 0, {}
    check_stacking(world, "action")
    if not end(world, victory.check_capitals(world, decisions)):
        world.state.window = INITIATIVE


def battle_phase(world: World, orders: Orders, dice: Dice, decisions: Mapping[str, str]) -> None:
    """Window B: each open battle's result (both reports agreeing, one report, or the GM's word),
    then the slot's retreats and strategic move, then the next slots (SWM-PBM-10, SWM-PBM-11)."""
    state = world.state
    reported: dict[str, str] = {}
    for battle in list(state.battles):
        result = settle_reports(world, battle, orders, decisions)
        last = state.last
        state.last = Resolved(last.stage, last.moves, last.clashes + (Clash(battle.place, CLASH, battle.id),),
                              last.dislodged, last.notes)
        state.retreating += bt.apply(world, battle, result, dice, decisions)
        reported.update(result.retreats)
        if won_now(world, decisions):
            return
    _revisions(world, orders)
    finish_slot(world, reported)
    state.window = ACTION
    run_slots(world, dice, decisions)


def _revisions(world: World, orders: Orders) -> None:
    """SWM-PBM-11: a side whose slot has not started may replace its action orders here (not with
    `action.revise_until_slot = false`: they are fixed when window A closes); the acting side
    may replace its STRATEGIC order with its report (window B)."""
    state = world.state
    later = {p for side in state.sides[state.slot + 1:] for p in side} if world.book["action.revise_until_slot"] \
        else set()
    for player, lines in orders.items():
        moves = [ln for ln in lines if ln.startswith(("MOVE ", "STRATEGIC "))]
        if player in later and moves:
            state.action_orders[player] = moves
        elif player in state.sides[state.slot] and (strategic := [ln for ln in moves if ln.startswith("STRATEGIC ")]):
            state.action_orders[player] = [ln for ln in state.action_orders.get(player, [])
                                           if not ln.startswith("STRATEGIC ")] + strategic
        standing(world, player, [ln for ln in lines if ln.startswith("MINE-REROLL ")])


def settle_reports(world: World, battle: Battle, orders: Orders, decisions: Mapping[str, str]) -> bt.Result:
    fighters = {t.id for s in battle.attackers + battle.defenders if s in world.state.squads
                for t in world.state.squads[s].troops}
    reports: dict[str, bt.Result] = {}
    for player, lines in orders.items():
        found = report_of(battle, lines, fighters)
        if found is not None:
            reports[player] = found
    attackers = {p for p in reports if p in battle.side}
    defenders = set(reports) - attackers
    mine = [reports[p] for p in sorted(attackers)][:1]
    theirs = [reports[p] for p in sorted(defenders)][:1]
    retreats = {k: v for r in reports.values() for k, v in r.retreats.items()}   # each side names its own
    if battle.id in world.state.gm_results:
        winner = world.state.gm_results.pop(battle.id)
        agreeing = [r for r in (*mine, *theirs) if r.winner == winner]
        return bt.Result(winner, agreeing[0].events if agreeing else [], retreats)
    if mine and theirs and (mine[0].winner, mine[0].events) != (theirs[0].winner, theirs[0].events):
        pick = ask(decisions, f"battle_{battle.id}", f"the two reports of battle {battle.id} disagree on the "
                   "winner, the kills or the fled troops: which side's report stands?", ["attacker", "defender"])
        chosen = mine[0] if pick == "attacker" else theirs[0]
        return bt.Result(chosen.winner, chosen.events, retreats)
    if mine or theirs:
        return _single(world, battle, mine or theirs, "attacker" if mine else "defender", retreats, decisions)
    winner = ask(decisions, f"battle_{battle.id}", f"nobody reported battle {battle.id}: who won?",
                 ["attacker", "defender", "none"])
    return bt.Result(winner)


def _single(world: World, battle: Battle, only: Sequence[bt.Result], who: str, retreats: dict[str, str],
            decisions: Mapping[str, str]) -> bt.Result:
    """SWM-PBM-10: one side's report stands at the deadline; with `battle.single_report = "gm"`
    the GM names the winner (the stage waits for him), the report's kills and flights kept when
    he agrees with its winner."""
    winner = only[0].winner
    if world.book["battle.single_report"] == "gm":
        winner = ask(decisions, f"battle_{battle.id}", f"only the {who} reported battle {battle.id} (the "
                     f"{winner} wins, by that report): who won?", ["attacker", "defender", "none"])
    return bt.Result(winner, only[0].events if winner == only[0].winner else [], retreats)


def report_of(battle: Battle, lines: Sequence[str], fighters: set[str]) -> bt.Result | None:
    """One player's report of one battle, or None when he reported none for it."""
    winner = next((ln.split()[2] for ln in lines if ln.startswith(f"WINNER {battle.id} ")), "")
    if not winner:
        return None
    events = []
    for line in lines:
        words = line.split()
        if words[0] == "KILLED" and (words[1] in fighters or words[1].startswith("reserve:")):
            events.append(bt.Event(bt.KILLED, words[1], words[3]))
        elif words[0] == "FLED" and words[1] in fighters:
            events.append(bt.Event(bt.FLED, words[1]))
    retreats = {ln.split()[1]: ln.split()[3] for ln in lines if ln.startswith("RETREAT ") and len(ln.split()) >= 4}
    return bt.Result(winner, events, retreats)
