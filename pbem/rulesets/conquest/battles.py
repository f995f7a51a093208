"""Step B: settle every battle's size, gold and team shares, then brief or roll it.

Entry point for the ruleset glue, run at the window-2 deadline (or right after
step A when `turn.battle_setup_window = false`, COC-TRN-5):

    step_b(state, setups, rules, dice, gmap) -> (state, briefings, events)

`setups` maps each player id to his window-2 `SetupOrder`s (see
`battle_orders.parse_setup`). A `SetupOrder` whose battle is "*" holds standing
settings for every battle without a line of its own: that is how window-1
standing orders reach this step. Step B, battle by battle in ID order:

1. settles the base size (COC-BAT-2) and, for a team, the shares (COC-BAT-12);
2. cuts each player's gold to 200 per battle and to his treasury, later battles
   first, and takes it out of the treasury (COC-BAT-4, COC-BAT-7, COC-BAT-8);
3. works out every army's points (COC-BAT-3, -5, -6, -9, -10, -13, -14);
4. rolls abstract resolution at once where a player asked for it (COC-ABR-1),
   recording the outcome in `state.round.outcomes`;
5. returns a briefing report for every other battle (COC-BAT-22).

`briefings` are `Report`s of kind "briefing" for the battle's players and the
GM; `events` are plain lines for the public report. The GM may fix a battle's
size during window 2 with `SIZE B1 1500` (`gm_size`); his figure beats the
players' proposals (COC-BAT-2) and is kept under the "gm" key of
`state.round.setup_orders`. With `battle.size_disagreement = "gm"` differing
proposals stop step B with a question (`pbem.rulesets.base.ask`, key
`<battle>-size`); the GM's `DECIDE` answer names the size and the stage is
resolved again with the same dice.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.base import Report, ask
from pbem.rulesets.conquest import abstract, armies, briefing
from pbem.rulesets.conquest.model import (
    SIDES,
    Army,
    Battle,
    BattleOutcome,
    BattleSetup,
    ConquestState,
    SetupOrder,
)

ALL_BATTLES = "*"
GM = "gm"


def order_for(setups: Mapping[str, Sequence[SetupOrder]], player: str, battle: str) -> SetupOrder:
    """The player's line for this battle, else his standing line, else the defaults."""
    lines = setups.get(player, ())
    exact = next((o for o in lines if o.battle == battle), None)
    standing = next((o for o in lines if o.battle == ALL_BATTLES), None)
    return exact or standing or SetupOrder(battle)


def battles_of(state: ConquestState, player: str) -> list[Battle]:
    """A player's battles in listing order: the order gold is cut in (COC-BAT-8)."""
    return [b for b in state.round.battles if player in b.players]


def _gold_spent(state: ConquestState, setups: Mapping[str, Sequence[SetupOrder]], rules: RuleBook,
                events: list[str]) -> dict[tuple[str, str], int]:
    """(player, battle) -> gold spent, after the per-battle cap and the treasury cut."""
    cap = int(rules["battle.gold_max_per_battle"])
    spent: dict[tuple[str, str], int] = {}
    for player, empire in state.empires.items():
        mine = battles_of(state, player)
        if not mine:
            continue
        asked = [order_for(setups, player, b.id).gold for b in mine]
        given = armies.allocate_gold(empire.treasury, asked, cap)
        for battle, want, got in zip(mine, asked, given, strict=True):
            spent[(player, battle.id)] = got
            if got != want:
                events.append(f"{empire.name}: gold for {battle.id} cut from {want} to {got} gp "
                              f"(at most {cap} per battle and no more than the treasury, COC-BAT-8)")
        empire.treasury -= sum(given)
    return spent


def settle_battle(state: ConquestState, battle: Battle, setups: Mapping[str, Sequence[SetupOrder]],
                  gold: Mapping[tuple[str, str], int], rules: RuleBook, gm_points: int = 0,
                  decisions: Mapping[str, str] | None = None) -> BattleSetup:
    """Size, shares and army points of one battle."""
    orders = {p: order_for(setups, p, battle.id) for p in battle.players}
    default = int(rules["battle.default_points"])
    size = armies.settle_size([o.points for o in orders.values()], default, rules["battle.size_disagreement"],
                              gm_points)
    if size.how == armies.GM_NEEDED:
        offered = sorted({o.points for o in orders.values() if o.points > 0})
        names = {p: e.name for p, e in state.empires.items()}
        said = ", ".join(f"{names[p]} {o.points}" for p, o in orders.items() if o.points > 0)
        choice = ask(decisions or {}, f"{battle.id}-size",
                     f"{battle.id}: the proposed base sizes differ ({said}; battle.size_disagreement = gm). "
                     "Which size is played?", sorted({*map(str, offered), str(default)}, key=int))
        size = armies.SizeDecision(int(choice), armies.GM_RULING)
    setup = BattleSetup(battle.id, size.points, note=size.how,
                        abstract=any(o.abstract for o in orders.values()))
    for side in SIDES:
        members = battle.members(side)
        shares, used = armies.settle_shares(size.points, members, {p: orders[p].share for p in members})
        if len(members) > 1:
            setup.note += f"; {side} shares {'as stated' if used else 'split equally'}"
        for player in members:
            points = armies.army_points(
                shares[player], player == state.round.largest, gold.get((player, battle.id), 0),
                divisor=int(rules["battle.largest_empire_bonus_divisor"]),
                gold_max=int(rules["battle.gold_max_per_battle"]),
                full_divisor=int(rules["battle.gold_full_bonus_divisor"]),
                rounding=rules["battle.bonus_rounding"])
            setup.armies.append(Army(player, side, points.share, points.largest_bonus, points.gold,
                                     points.gold_bonus, points.total, orders[player].stand_in))
    return setup


def strategies(state: ConquestState, setup: BattleSetup, battle: Battle, side: str) -> list[abstract.Strategy]:
    """What each member of a side brings to an abstract roll (COC-ABR-3)."""
    out = []
    for player in battle.members(side):
        army = setup.army(player)
        out.append(abstract.Strategy(player, state.round.holds(player, "elite_army"),
                                     state.round.holds(player, "scouts"), player == state.round.largest,
                                     army.gold if army else 0))
    return out


def roll_abstract(state: ConquestState, battle: Battle, setup: BattleSetup, rules: RuleBook, dice: Dice,
                  why: str) -> BattleOutcome:
    """Settle a battle by the abstract table and record it (COC-ABR-5..7, COC-ABR-10, COC-ABR-11)."""
    verdict = abstract.resolve(battle.id, strategies(state, setup, battle, "attacker"),
                               strategies(state, setup, battle, "defender"), rules, dice)
    outcome = BattleOutcome(battle.id, verdict.outcome.categories["attacker"],
                            verdict.outcome.categories["defender"], how="abstract",
                            abstract_faces=list(verdict.roll.faces), abstract_bonus=verdict.net,
                            abstract_total=verdict.total, note=f"{why}; {verdict.outcome.reason}")
    state.round.outcomes = [o for o in state.round.outcomes if o.battle != battle.id] + [outcome]
    return outcome


def step_b(state: ConquestState, setups: Mapping[str, Sequence[SetupOrder]], rules: RuleBook, dice: Dice,
           gmap: HexMap, gm_points: Mapping[str, int] | None = None, decisions: Mapping[str, str] | None = None
           ) -> tuple[ConquestState, list[Report], list[str]]:
    """Settle every battle of the round; brief the ones to be fought, roll the abstract ones."""
    events: list[str] = []
    ruled = state.round.setup_orders.get(GM, [])
    gm_points = {**{o.battle: o.points for o in ruled}, **(gm_points or {})}
    state.round.setup_orders = {p: list(lines) for p, lines in setups.items() if lines and p != GM}
    if ruled:
        state.round.setup_orders[GM] = ruled
    gold = _gold_spent(state, setups, rules, events)
    state.round.setups = []
    reports: list[Report] = []
    for battle in state.round.battles:
        setup = settle_battle(state, battle, setups, gold, rules, gm_points.get(battle.id, 0), decisions)
        state.round.setups.append(setup)
        if setup.abstract:
            outcome = roll_abstract(state, battle, setup, rules, dice,
                                    "abstract resolution requested in the battle setup")
            events.append(f"{battle.id}: {outcome.note}")
            continue
        reports.append(briefing.report(state, battle, setup, rules, gmap))
    return state, reports, events


def gm_size(state: ConquestState, words: Sequence[str]) -> str:
    """`SIZE B1 1500`: the GM's base size for a battle, used by step B (COC-BAT-2)."""
    if len(words) != 2 or not words[1].isdigit() or int(words[1]) <= 0:
        raise ValueError("use SIZE <battle> <points>, e.g. SIZE B1 1500")
    ident = "B" + words[0].upper().lstrip("#").removeprefix("B")
    if state.round.battle(ident) is None:
        raise ValueError(f"there is no battle {words[0]} this round")
    if state.round.setups:
        raise ValueError(f"{ident} is already briefed; the size can only be set before the battle setup closes")
    ruled = [o for o in state.round.setup_orders.get(GM, []) if o.battle != ident]
    state.round.setup_orders[GM] = [*ruled, SetupOrder(ident, int(words[1]))]
    return f"{ident}: base size set to {words[1]} points"
