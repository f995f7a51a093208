"""Daemon Rift Step B and the retreat moves: battle results to final positions.

Step B applies the accepted battle results and the roll-offs of Step A
(DR-MOV-7, 8, 23; DR-BAT-9 to 17), settles the dependent contests after every
battle (DR-MOV-27), works out final positions (DR-MOV-21) and every retreat
owed with its allowed territories and tier (DR-RET). `finish_turn_moves` takes
the retreat window's answers, carries out all retreats at once (DR-RET-10) and
puts every token in its final place, returning the `TurnFacts` the end-of-turn
step reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.base import ask
from pbem.rulesets.daemon_rift.model import (
    LIST_ELIMINATED,
    LIST_SHELVED,
    BattleResult,
    DRState,
    Elimination,
    FactionOrders,
    PairBattle,
    TurnFacts,
)
from pbem.rulesets.daemon_rift.movement import (
    DEFENDER,
    ENTRANT,
    ROLLOFF,
    SWAP,
    Battle,
    Dependent,
    Movement,
    Side,
    gm_tie,
    rank_sides,
    rolloff_favour,
    rolloff_now,
    rolloff_winner,
)
from pbem.rulesets.daemon_rift.options import dice_spec

BattleHook = Callable[[Battle, BattleResult, Dice], None]


class AdjudicationError(RuntimeError):
    """Processing must stop and the GM must look (e.g. DR-MOV-18 fails)."""


class SecondWindowNeeded(Exception):
    """A dependent contest needs a tabletop battle in a further window
    (`battle.dependent_contest = "second_window"`): Step B stops here and is run
    again, with the same dice, once that battle's result is in."""

    def __init__(self, territory: str, tops: list[Side]) -> None:
        super().__init__(f"dependent contest at {territory} needs a battle")
        self.territory, self.tops = territory, tops


@dataclass
class BattleOutcome:
    """One battle or roll-off as applied in Step B (DR-TRN-4)."""

    battle: int
    kind: str
    winner: str = ""                   # faction, "" on a draw
    loser: str = ""
    massacred: bool = False
    obliterated: bool = False
    massacre_die: int = 0              # 0 when no die was rolled (DR-BAT-14)
    eliminated: str = ""               # champion token eliminated, "" if none


@dataclass
class DependentOutcome:
    """A dependent contest settled after every battle (DR-MOV-27)."""

    territory: str
    sides: list[Side] = field(default_factory=list)
    outcome: str = ""                  # occupied | held | standoff | rolloff | empty
    winner: str = ""                   # winning token
    favoured: str = ""
    threshold: int = 0
    die: int = 0


@dataclass
class Retreat:
    """A token that must retreat, its tier and allowed territories (DR-RET-12)."""

    token: str
    faction: str
    start: str                         # the territory it retreats from
    tier: int = 0                      # 1 own, 2 other or unclaimed, 0 none allowed
    options: list[str] = field(default_factory=list)
    choice: str = ""                   # decided territory, "" while the owner is asked
    how: str = ""                      # single | preference | open | destroyed | gm
    reason: str = ""
    beaten_by: str = ""                # faction that won the battle or roll-off it lost (G-2)
    beaten_in: str = ""                # battle | rolloff | "" (beaten on strength, standoff ...)


@dataclass
class Aftermath:
    """What Step B settled, stored until the retreat window closes."""

    turn: int
    outcomes: list[BattleOutcome] = field(default_factory=list)
    dependents: list[DependentOutcome] = field(default_factory=list)
    fates: dict[str, str] = field(default_factory=dict)     # token -> entered|stayed|returned|retreat|eliminated
    final: dict[str, str] = field(default_factory=dict)     # token -> final territory (not retreating)
    retreats: list[Retreat] = field(default_factory=list)
    eliminations: list[Elimination] = field(default_factory=list)
    standoffs: list[str] = field(default_factory=list)      # empty after a standoff or draw (DR-RET-3)

    @property
    def open(self) -> list[Retreat]:
        """Retreats asked in window 3."""
        return [r for r in self.retreats if r.how == "open"]


def _credit(rules: RuleBook, source: str) -> bool:
    return source in rules["vp.token_elimination_sources"]


class StepB:
    def __init__(self, state: DRState, gmap: GameMap, rules: RuleBook, movement: Movement,
                 results: dict[int, BattleResult], dice: Dice, submitted: dict[str, FactionOrders],
                 hook: BattleHook | None, decisions: Mapping[str, str]) -> None:
        self.state, self.gmap, self.rules, self.mv = state, gmap, rules, movement
        self.results, self.dice, self.submitted, self.hook = results, dice, submitted, hook
        self.decisions = decisions
        self.am = Aftermath(turn=state.turn)
        self.fates = dict(movement.fates)
        self.victors = dict(movement.victors)
        self.reasons = dict(movement.reasons)
        self.beaten: dict[str, tuple[str, str]] = {}       # token -> (winning faction, battle|rolloff)
        self.swap_result: dict[str, str] = {}              # swap token -> won | lost | draw
        self.eliminated: set[str] = set()
        self.standoffs = list(movement.standoffs)

    def run(self) -> Aftermath:
        for battle in sorted(self.mv.battles, key=lambda b: b.number):
            if not battle.follows:
                self._battle(battle)
        self._dependents()
        self._positions()
        self.am.standoffs = self.gmap.sorted(set(self.standoffs) - set(self.am.final.values()))
        self._retreats()
        return self.am

    # -- battles ---------------------------------------------------------------------
    def _battle(self, battle: Battle) -> None:
        outcome = self._fight(battle)
        (self._swap_battle if battle.swap else self._contest_battle)(battle, outcome)

    def _fight(self, battle: Battle) -> BattleOutcome:
        """The result of one battle or roll-off, its massacre die and records (DR-BAT-9 to 15)."""
        result = self._result(battle)
        outcome = BattleOutcome(battle.number, battle.kind, result.winner)
        self.am.outcomes.append(outcome)
        if result.winner:
            outcome.loser = next(s.faction for s in battle.sides if s.faction != result.winner)
        if battle.kind != ROLLOFF:
            self._massacre(battle, result, outcome)
            self._records(battle, outcome)
            if self.hook is not None:
                self.hook(battle, result, self.dice)
        elif outcome.loser:
            _add(self.state.factions[outcome.winner].defeated_by_rolloff, outcome.loser)
        return outcome

    def _result(self, battle: Battle) -> BattleResult:
        if battle.kind == ROLLOFF:
            return BattleResult(battle.number, battle.winner, source="rolloff")
        if battle.number in self.results:
            return self.results[battle.number]
        if self.rules["battle.unreported"] == "rolloff":
            rolloff_now(self.state, self.rules, battle, self.dice, "no result reported (DR-ROL-9)")
            return BattleResult(battle.number, battle.winner, source="rolloff")
        raise AdjudicationError(f"battle {battle.number} at {battle.territory} has no result; the GM must enter one")

    def _massacre(self, battle: Battle, result: BattleResult, outcome: BattleOutcome) -> None:
        """DR-BAT-10, DR-BAT-11, DR-BAT-14."""
        if not result.winner or not (result.massacred or result.obliterated):
            return
        outcome.massacred, outcome.obliterated = True, result.obliterated
        champion = battle.side_of(outcome.loser).champion
        cause = "obliteration"
        if not (result.obliterated and self.rules["massacre.obliterated_auto_eliminate"]):
            count, sides = dice_spec(self.rules["massacre.die"])
            outcome.massacre_die = self.dice.roll(f"massacre, battle {battle.number}: {champion}", count, sides).total
            if outcome.massacre_die not in self.rules["massacre.eliminate_on"]:
                return
            cause = "massacre"
        outcome.eliminated = champion
        self._eliminate(champion, cause, outcome.winner if _credit(self.rules, cause) else "")

    def _eliminate(self, token: str, cause: str, credited: str) -> None:
        """Off the map at once, list eliminated, the winner credited (DR-BAT-12, DR-MOV-20)."""
        tok = self.state.tokens.pop(token, None)
        if tok is None:
            return
        self.eliminated.add(token)
        lst = self.state.list_of(tok)
        if lst is not None:
            lst.status = LIST_ELIMINATED
        if credited:
            self.state.factions[credited].tokens_eliminated += 1
        self.am.eliminations.append(Elimination(token, tok.faction, cause, credited, tok.territory))

    def _records(self, battle: Battle, outcome: BattleOutcome) -> None:
        """Pair count, list battle counts, defeats (DR-BAT-15)."""
        factions = sorted(s.faction for s in battle.sides)
        self.state.battles_fought.append(PairBattle(self.state.turn, factions))
        for side in battle.sides:
            lst = self.state.lists.get(side.champion)
            if lst is not None:
                lst.battles += 1
        if outcome.winner:
            _add(self.state.factions[outcome.winner].defeated, outcome.loser)

    def _contest_battle(self, battle: Battle, outcome: BattleOutcome) -> None:
        """DR-MOV-6, 7, 8; DR-BAT-9, DR-BAT-13."""
        contest = next(c for c in self.mv.contests if c.battle == battle.number)
        win = next((s.token for s in battle.sides if s.faction == outcome.winner), "")
        kind = "rolloff" if battle.kind == ROLLOFF else "battle"
        if not win:
            self.standoffs.append(battle.territory)
        for side in contest.sides:
            principal = side in [s for s in contest.sides if s.token in {b.token for b in battle.sides}]
            self._after(side, win, principal, outcome, kind)

    def _after(self, side: Side, win: str, principal: bool, outcome: BattleOutcome, kind: str) -> None:
        tok = side.token
        if not principal:
            if side.role == DEFENDER:
                winner_is_entrant = bool(win) and self.mv.fates.get(win) == "battle" and win in self.mv.destinations
                self._set(tok, "dislodged" if winner_is_entrant else "stays", "dislodged: a tied entrant won", win)
            return
        if tok == win:
            self._set(tok, "stays" if side.role == DEFENDER else "entered")
            return
        if not win:
            self._set(tok, "stays" if side.role == DEFENDER else "failed", "drawn battle" if kind == "battle" else "")
            return
        self.beaten[tok] = (outcome.winner, kind)
        what = "lost the roll-off" if kind == "rolloff" else "lost the battle"
        self._set(tok, "dislodged" if side.role == DEFENDER else "failed", what, win)

    def _set(self, token: str, fate: str, reason: str = "", victor: str = "") -> None:
        self.fates[token] = fate
        if reason:
            self.reasons[token] = reason
        if victor and fate in ("failed", "dislodged"):
            self.victors[token] = victor

    def _swap_battle(self, battle: Battle, outcome: BattleOutcome) -> None:
        """DR-MOV-22, DR-MOV-23, DR-MOV-25."""
        kind = "rolloff" if battle.kind == ROLLOFF else "battle"
        for side in battle.sides:
            tok = side.token
            if not outcome.winner:
                self.swap_result[tok] = "draw"
                self._set(tok, "stays", "enemy swap drawn")
            elif side.faction == outcome.winner:
                self.swap_result[tok] = "won"
                if not self._has_dependent(side.destination):
                    self._set(tok, "entered")
            else:
                self.swap_result[tok] = "lost"
                self.beaten[tok] = (outcome.winner, kind)
                other = next(s.token for s in battle.sides if s is not side)
                self._set(tok, "dislodged", "lost an enemy swap", other)

    def _has_dependent(self, territory: str) -> bool:
        return any(d.territory == territory for d in self.mv.dependents)

    # -- dependent contests (DR-MOV-25, 27, 28) -------------------------------------------
    def _dependents(self) -> None:
        waiting = sorted(self.mv.dependents, key=lambda d: (d.waits_on, self.gmap.order(d.territory)))
        while waiting:
            ready = next((d for d in waiting if self._ready(d)), waiting[0])
            waiting.remove(ready)
            self._settle_dependent(ready)

    def _ready(self, dep: Dependent) -> bool:
        return dep.mode == "swap" or self.fates.get(dep.occupant) not in ("battle", "dependent", "unless-draw")

    def _dependent_sides(self, dep: Dependent) -> tuple[list[Side], list[str]]:
        """The sides once the awaited result is known, and entrants failing at once."""
        occ = dep.occupant
        sides = [Side(s.faction, s.token, s.role, s.strength, s.origin, list(s.supporters)) for s in dep.others]
        defender: Side | None = None
        if dep.mode == "swap":
            swap = next(c for c in self.mv.contests if c.kind == SWAP and dep.territory in c.territories)
            partner = next(s for s in swap.sides if s.token != occ)
            result = self.swap_result.get(occ, "")
            if result == "lost" and partner.token not in self.eliminated:
                sides.append(Side(partner.faction, partner.token, ENTRANT, partner.strength, partner.origin))
            elif result == "draw":
                defender = Side(self.mv.factions[occ], occ, DEFENDER, 1, dep.territory)
        elif self.fates.get(occ) == "failed" and occ not in self.eliminated:
            defender = Side(self.mv.factions[occ], occ, DEFENDER, 1, dep.territory)
        if defender is None:
            return sides, []
        own = [s.token for s in sides if s.faction == defender.faction]
        return [defender] + [s for s in sides if s.token not in own], own

    def _settle_dependent(self, dep: Dependent) -> None:
        sides, own = self._dependent_sides(dep)
        for tok in own:
            self._set(tok, "failed", "own defender (DR-MOV-3)")
        result = DependentOutcome(dep.territory, sides)
        outcome, tops = rank_sides(sides, str(self.rules["movement.multiway_tie"]))
        if outcome == "gm":
            outcome, tops = gm_tie(self.decisions, f"follow-up-{dep.territory}", self.gmap, dep.territory, tops)
        mode = self.rules["battle.dependent_contest"]
        if outcome == "battle" and mode == "standoff":
            outcome = "standoff"
        result.outcome = outcome
        if outcome == "battle" and mode == "second_window":
            self._dependent_battle(dep, tops, result)
        elif outcome == "battle":
            self._dependent_rolloff(dep, sides, tops, result)
        elif outcome in ("occupied", "held"):
            result.winner = tops[0].token
        self._apply_dependent(result, sides)
        self.am.dependents.append(result)

    def _dependent_rolloff(self, dep: Dependent, sides: list[Side], tops: list[Side],
                           result: DependentOutcome) -> None:
        """DR-MOV-27, DR-ROL-7: an automatic roll-off after all battles."""
        defender = next((s.faction for s in tops if s.role == DEFENDER), "")
        controller = self.state.control.get(dep.territory, "")
        aims = [(s.faction, dep.territory) for s in tops]
        result.favoured, result.threshold = rolloff_favour(self.state, self.rules, aims, False, defender, controller)
        result.die = self.dice.d6(f"dependent roll-off at {dep.territory}")
        winner = rolloff_winner(result.favoured, result.threshold, result.die, [f for f, _ in aims])
        result.outcome = "rolloff"
        result.winner = next(s.token for s in tops if s.faction == winner)
        loser = next(s for s in tops if s.faction != winner)
        self.beaten[loser.token] = (winner, "rolloff")
        _add(self.state.factions[winner].defeated_by_rolloff, loser.faction)

    def _dependent_battle(self, dep: Dependent, tops: list[Side], result: DependentOutcome) -> None:
        """`battle.dependent_contest = "second_window"`: a tabletop battle in a further window
        (or the roll-off its setup calls for, e.g. a token that already fought, DR-MOV-26)."""
        battle = next((b for b in self.mv.battles if b.follows == dep.territory), None)
        if battle is None:
            raise SecondWindowNeeded(dep.territory, tops)
        outcome = self._fight(battle)
        kind = "rolloff" if battle.kind == ROLLOFF else "battle"
        result.outcome = kind if outcome.winner else "standoff"
        if not outcome.winner:
            return
        result.winner = next(s.token for s in tops if s.faction == outcome.winner)
        loser = next(s for s in tops if s.faction != outcome.winner)
        self.beaten[loser.token] = (outcome.winner, kind)

    def _apply_dependent(self, result: DependentOutcome, sides: list[Side]) -> None:
        win = result.winner
        if not win:
            self.standoffs.append(result.territory)
        for side in sides:
            if side.role == DEFENDER:
                beaten = bool(win) and win != side.token
                self._set(side.token, "dislodged" if beaten else "stays", "dislodged in a dependent contest", win)
            elif side.token == win:
                self._set(side.token, "entered")
            else:
                self._set(side.token, "failed", "standoff" if not win else "beaten in a dependent contest", win)

    # -- final positions (DR-MOV-12, 13, 20, 21) ----------------------------------------
    def _positions(self) -> None:
        entered: dict[str, str] = {}
        for tok in self._tokens():
            fate = self.fates.get(tok, "stays")
            if fate == "entered":
                dest = self.mv.destinations[tok]
                if dest in entered:
                    raise AdjudicationError(f"{tok} and {entered[dest]} both entered {dest}")
                entered[dest] = tok
        self.entered_by = entered
        self.bounced = self._bounces()
        for tok in self._tokens():
            self._final(tok, self.fates.get(tok, "stays"))

    def _bounces(self) -> dict[str, str]:
        """`movement.bounce_to = "previous_step"` (DR-SPD-10): a failed multi-space mover stops on
        the last territory before its destination if nothing else ends there; else "whence it
        came" is its start, as by default."""
        if self.rules["movement.bounce_to"] != "previous_step":
            return {}
        leaving = {self.mv.starts[t] for t in self._tokens() if self.fates.get(t) == "entered"}
        starts = set(self.mv.starts.values())
        out: dict[str, str] = {}
        for tok in self._tokens():
            path = self.mv.paths.get(tok, [])
            if self.fates.get(tok) != "failed" or tok in self.eliminated or len(path) < 2:
                continue
            step = path[-2]
            free = step not in self.entered_by and (step not in starts or step in leaving)
            if free and step not in out.values():
                out[tok] = step
        return out

    def _tokens(self) -> list[str]:
        return list(self.mv.starts)

    def _final(self, tok: str, fate: str) -> None:
        start = self.mv.starts[tok]
        if tok in self.eliminated:
            self.am.fates[tok] = "eliminated"
        elif fate == "entered":
            self.am.fates[tok], self.am.final[tok] = "entered", self.mv.destinations[tok]
        elif fate == "stays":
            self.am.fates[tok], self.am.final[tok] = "stayed", start
        elif fate == "failed" and tok in self.bounced:
            self.am.fates[tok], self.am.final[tok] = "returned", self.bounced[tok]
        elif fate == "failed" and start not in self.entered_by:
            self.am.fates[tok], self.am.final[tok] = "returned", start
        elif fate in ("failed", "dislodged"):
            self.am.fates[tok] = "retreat"
        else:
            raise AdjudicationError(f"{tok}: no final position ({fate})")

    # -- retreats (DR-RET-1 to 9, 12) ----------------------------------------------------
    def _retreats(self) -> None:
        occupied = set(self.am.final.values())
        for tok in self._tokens():
            if self.am.fates.get(tok) == "retreat":
                self.am.retreats.append(self._retreat(tok, occupied))

    def _retreat(self, tok: str, occupied: set[str]) -> Retreat:
        faction = self.mv.factions[tok]
        origin = self._origin(tok)
        allowed = [n for n in self.gmap.sorted(self.gmap.neighbours(origin))
                   if n not in occupied and n not in self._forbidden(tok, origin)]
        won_by, kind = self.beaten.get(tok, ("", ""))
        r = Retreat(tok, faction, origin, reason=self.reasons.get(tok, ""), beaten_by=won_by, beaten_in=kind)
        own = [n for n in allowed if self.state.control.get(n) == faction]
        r.tier, r.options = (1, own) if own else ((2, allowed) if allowed else (0, []))
        self._choose(r)
        return r

    def _origin(self, tok: str) -> str:
        """DR-RET-2 (`retreat.from`)."""
        if self.rules["retreat.from"] == "battle_territory" and self.fates.get(tok) == "failed":
            return self.mv.destinations.get(tok, self.mv.starts[tok])
        return self.mv.starts[tok]

    def _forbidden(self, tok: str, origin: str) -> set[str]:
        """DR-RET-3's exclusions."""
        out: set[str] = set()
        victor = self.victors.get(tok, "")
        if victor and self.rules["retreat.forbid_victor_start"]:
            out.add(self.mv.starts[victor])
        displacer = self.entered_by.get(self.mv.starts[tok], "")
        foreign = bool(displacer) and self.mv.factions[displacer] != self.mv.factions[tok]
        if foreign and self.rules["retreat.forbid_displacer_start"]:
            out.add(self.mv.starts[displacer])
        if self.rules["retreat.forbid_standoff_territory"]:
            out |= set(self.standoffs)
        if tok.rsplit("-", 1)[-1].startswith("D") and self.rules["retreat.defensive_own_only"]:
            faction = self.mv.factions[tok]
            out |= {n for n in self.gmap.neighbours(origin) if self.state.control.get(n) != faction}
        return out

    def _choose(self, r: Retreat) -> None:
        """DR-RET-6, DR-RET-9, G-9, DR-ROL-11."""
        if not r.options:
            gm = r.beaten_in == "rolloff" and self.rules["rolloff.loser_without_retreat"] == "gm_places"
            r.how = "gm" if gm else "destroyed"
            return
        if len(r.options) == 1:
            r.choice, r.how = r.options[0], "single"
            return
        ranked = self.submitted.get(r.faction, FactionOrders()).retreats.get(r.token, [])
        pick = next((t for t in ranked if t in r.options), "")
        r.choice, r.how = (pick, "preference") if pick else ("", "open")


def _add(items: list[str], value: str) -> None:
    if value not in items:
        items.append(value)


def step_b(state: DRState, gmap: GameMap, rules: RuleBook, movement: Movement, results: dict[int, BattleResult],
           dice: Dice, submitted: dict[str, FactionOrders], battle_hook: BattleHook | None = None,
           decisions: Mapping[str, str] | None = None) -> Aftermath:
    """Step B (DR-GEN-2 step 4). `battle_hook(battle, result, dice)` runs after each tabletop
    battle's massacre die, so combat-loss and experience dice fall in DR-GEN-4 order.
    Raises SecondWindowNeeded when a dependent contest must be fought in a further window."""
    return StepB(state, gmap, rules, movement, results, dice, submitted, battle_hook, decisions or {}).run()


# --- window 3 and the moves (Step C step 1) ----------------------------------------------

class RetreatMoves:
    def __init__(self, state: DRState, gmap: GameMap, rules: RuleBook, movement: Movement,
                 aftermath: Aftermath, choices: dict[str, str], decisions: Mapping[str, str]) -> None:
        self.state, self.gmap, self.rules, self.mv, self.am = state, gmap, rules, movement, aftermath
        self.choices, self.decisions = choices, decisions
        self.facts = TurnFacts(eliminated=list(aftermath.eliminations))

    def run(self) -> TurnFacts:
        targets = {r.token: self._target(r) for r in self.am.retreats if r.how != "gm"}
        targets |= {r.token: self._placed(r, targets) for r in self.am.retreats if r.how == "gm"}
        self._collisions(targets)
        self._move(targets)
        self._check()
        self.facts.held = [t for t in self.mv.held if t in self.state.tokens]
        self.facts.default_held = [t for t in self.mv.default_held if t in self.state.tokens]
        self.facts.attacked = list(self.mv.attacked)
        return self.facts

    def _target(self, r: Retreat) -> str:
        """A territory, or "" when the token is destroyed or disbanded."""
        if r.how == "destroyed":
            self._remove(r, "no-retreat")
            return ""
        if r.choice:
            return r.choice
        answer = self.choices.get(r.token, "")
        if answer.lower() == "disband" and self.rules["retreat.allow_disband"]:
            self._remove(r, "disbanded")
            return ""
        if answer in r.options:
            return answer
        if self.rules["retreat.no_order"] == "disband":
            self._remove(r, "disbanded")
            return ""
        return self._auto_pick(r)

    def _placed(self, r: Retreat, targets: dict[str, str]) -> str:
        """`rolloff.loser_without_retreat = "gm_places"` (DR-ROL-11): the GM names an empty
        territory for a roll-off loser with no allowed retreat, or has it destroyed."""
        taken = set(self.am.final.values()) | set(targets.values())
        free = [t for t in self.gmap.sorted(self.gmap.territories) if t not in taken]
        where = ask(self.decisions, f"place-{r.token}",
                    f"{r.token} ({self.state.factions[r.faction].name}) lost a roll-off at {self.gmap.label(r.start)} "
                    "and has no allowed retreat. Name an empty territory to place it in, or destroy.",
                    free + ["destroy"])
        if where == "destroy":
            self._remove(r, "no-retreat")
            return ""
        return where

    def _auto_pick(self, r: Retreat) -> str:
        """Fewest steps to the stronghold, ties to the lowest id (DR-RET-9, G-8)."""
        stronghold = self.state.factions[r.faction].stronghold
        far = self.gmap.distances(stronghold) if stronghold in self.gmap.territories else {}
        return min(r.options, key=lambda t: (far.get(t, 10**6), self.gmap.order(t)))

    def _remove(self, r: Retreat, cause: str, credit_ok: bool = True) -> None:
        """DR-RET-6, 8, 11; DR-ROL-11; credit per DR-VP-6 and G-2."""
        source = {"battle": "destroyed_after_lost_battle",
                  "rolloff": "destroyed_after_lost_rolloff"}.get(r.beaten_in, "")
        if cause == "disbanded":
            source = "disbanded_after_loss" if r.beaten_in else ""
        credited = r.beaten_by if credit_ok and source and _credit(self.rules, source) else ""
        tok = self.state.tokens.pop(r.token, None)
        if tok is None:
            return
        lst = self.state.list_of(tok)
        if lst is not None:
            lst.status = LIST_ELIMINATED if self.rules["retreat.destroyed_list"] == "eliminated" else LIST_SHELVED
        if credited:
            self.state.factions[credited].tokens_eliminated += 1
        self.facts.eliminated.append(Elimination(r.token, r.faction, cause, credited, r.start))

    def _collisions(self, targets: dict[str, str]) -> None:
        """DR-RET-10: two or more retreats into one territory destroy them all."""
        by_place: dict[str, list[str]] = {}
        for tok, place in targets.items():
            if place:
                by_place.setdefault(place, []).append(tok)
        for place, toks in by_place.items():
            if len(toks) < 2:
                continue
            if self.rules["retreat.collision"] == "gm":
                keep = ask(self.decisions, f"collision-{place}",
                           f"Retreats collide at {self.gmap.label(place)}: {', '.join(toks)}. Name the token that "
                           "retreats there (the others are destroyed, DR-RET-10), or none to destroy them all.",
                           toks + ["none"])
                toks = [t for t in toks if t != keep]
            for tok in toks:
                r = next(x for x in self.am.retreats if x.token == tok)
                self._remove(r, "collision", credit_ok=False)
                targets[tok] = ""

    def _move(self, targets: dict[str, str]) -> None:
        for tok, fate in self.am.fates.items():
            token = self.state.tokens.get(tok)
            if token is None:
                continue
            if fate == "entered":
                token.territory = self.facts.entered[tok] = self.am.final[tok]
            elif fate in ("stayed", "returned"):
                token.territory = self.am.final[tok]
                self.facts.stayed.append(tok)
            elif fate == "retreat" and targets.get(tok):
                token.territory = self.facts.retreated[tok] = targets[tok]

    def _check(self) -> None:
        """DR-MOV-18: one token per territory after retreats."""
        seen: dict[str, str] = {}
        for tok in self.state.tokens.values():
            if tok.territory in seen:
                raise AdjudicationError(f"DR-MOV-18: {seen[tok.territory]} and {tok.id} both stand in {tok.territory}")
            seen[tok.territory] = tok.id


def finish_turn_moves(state: DRState, gmap: GameMap, rules: RuleBook, movement: Movement, aftermath: Aftermath,
                      choices: dict[str, str], decisions: Mapping[str, str] | None = None) -> TurnFacts:
    """Window 3 answers (a territory or "disband"), then every move and retreat at once;
    `decisions` are the GM's answers where `retreat.collision` or DR-ROL-11's option ask for them."""
    return RetreatMoves(state, gmap, rules, movement, aftermath, choices, decisions or {}).run()
