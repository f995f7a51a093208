"""Daemon Rift plugged into the engine: windows, payloads, resolution and reports.

Windows (DR-GEN-2, DR-TRN-1): `lists` (window 0, until the GM approves every
list 1), `orders` (window 1), `battles` (window 2, only with tabletop battles
pending) and `retreats` (window 3, only with an open retreat choice). Steps A,
B and C run at the deadlines and chain on at once when a window is not needed.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pbem.campaign import Player, Settings
from pbem.dice import Dice, ReplayDice, Roll
from pbem.mapdata import GameMap, load_map
from pbem.orders import InvalidOrder, OrderProblem
from pbem.rulebook import RULES_DIR, RuleBook
from pbem.rulesets.base import Context, Parsed, Report, Resolution, Ruleset, Stage
from pbem.rulesets.daemon_rift import aftermath as step_b_mod
from pbem.rulesets.daemon_rift import (
    battle_window,
    endturn,
    experience,
    movement,
    options,
    postbattle,
    reporting,
    rosters,
    setup,
    validate,
)
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift.model import DRState, Effective, FactionOrders
from pbem.tomlio import from_data, to_data

TURN_BATTLE_KEYS = ("battle_reports", "gm_results", "accepted_results", "sheets", "gm_sheets")
"""Turn scratch of the battle window, keyed by battle number: emptied when a turn's movement is
resolved and when the turn ends, so a later battle under the same number starts afresh."""
WINDOWS = {"lists": "lists", "orders": "orders", "battles": "battles", "retreats": "retreats", "over": "orders"}


@lru_cache(maxsize=16)
def campaign_map(name: str) -> GameMap:
    path = Path(name) if name.endswith(".toml") else RULES_DIR / "maps" / f"{name}.toml"
    return load_map(path)


def rulebook(settings: Settings) -> RuleBook:
    return options.load(settings.rules)


class Game:
    """The stored game dict as typed objects, and back."""

    def __init__(self, data: Mapping[str, Any], settings: Settings, copied: bool = True) -> None:
        self.data = copy.deepcopy(dict(data)) if copied else dict(data)
        self.settings = settings
        self.state = from_data(DRState, self.data["dr"])
        self.gmap = campaign_map(settings.map)
        self.rules = rulebook(settings)
        self.decisions: Mapping[str, str] = {}      # the GM's answers for the stage being resolved

    @classmethod
    def view(cls, ctx: Context) -> Game:
        """The game for hooks that only read it (stage, parse, acks): no deep copy, which
        was most of the cost of reading one message."""
        return cls(ctx.game, ctx.settings, copied=False)

    def dump(self) -> dict[str, Any]:
        self.data["dr"] = to_data(self.state)
        return self.data

    def faction_of(self, player: Player) -> str:
        return player.faction

    def player_of(self, faction: str) -> str:
        return next((p.id for p in self.settings.players if p.faction == faction), "")

    def live_factions(self) -> list[str]:
        return [f for f in self.state.ordered_factions() if not self.state.factions[f].eliminated]


class DaemonRift(Ruleset):
    name = "daemon_rift"
    title = "Daemon Rift"
    aliases = ("dr", "daemonrift", "daemon_rift")
    templates = "daemon_rift"
    default_map = "rift_valley"
    windows: Mapping[str, str] = {"lists": "7d", "orders": "7d", "battles": "7d", "retreats": "2d"}

    # -- setup -----------------------------------------------------------------
    def create(self, settings: Settings) -> dict[str, Any]:
        specs = [(p.faction, p.faction_name or p.name, p.id, p.home) for p in settings.players]
        state = setup.new_state(campaign_map(settings.map), rulebook(settings), specs)
        return {"dr": to_data(state), "orders": {}, "movement": {}, "aftermath": {}, "battle_reports": {},
                "gm_results": {}, "pending_lists": {}}

    # -- what we wait for --------------------------------------------------------
    def stage(self, ctx: Context) -> Stage:
        game = Game.view(ctx)
        phase, turn = game.state.phase, game.state.turn
        title = {"lists": "army lists", "orders": "orders", "battles": "battle results",
                 "retreats": "retreats", "over": "campaign over"}[phase]
        owing = tuple(self._owing(game, phase))
        ready = phase == "lists" and not setup.ready_to_start(game.state)
        ready = ready or (phase == "battles" and battle_window.all_results_in(game))
        waiting = phase == "lists" and not owing and not ready
        waiting = waiting or (phase == "battles" and battle_window.needs_gm(game))
        return Stage(phase, f"Turn {turn}: {title}", turn, owing, WINDOWS[phase],
                     waiting_for_gm=waiting, ready=ready, over=phase == "over")

    def _owing(self, game: Game, phase: str) -> list[str]:
        if phase == "lists":
            pending = game.data.get("pending_lists", {})
            return [game.player_of(f) for f in setup.ready_to_start(game.state) if f"{f}-1" not in pending]
        if phase == "orders":
            return [game.player_of(f) for f in game.live_factions() if game.state.tokens_of(f)]
        if phase == "battles":
            return [game.player_of(f) for f in battle_window.factions_owing(game)]
        if phase == "retreats":
            return [game.player_of(f) for f in open_retreat_factions(game)]
        return []

    # -- reading mail -------------------------------------------------------------
    def parse(self, ctx: Context, player: Player, lines: Sequence[tuple[int, str]]) -> Parsed:
        game = Game.view(ctx)
        faction = game.faction_of(player)
        phase = game.state.phase
        if phase == "lists":
            return reporting.parse_list_lines(game, faction, list(lines))
        if phase == "orders":
            return self._parse_orders(game, faction, list(lines))
        if phase == "battles":
            return battle_window.parse_results(game, faction, list(lines))
        if phase == "retreats":
            return self._parse_retreats(game, faction, list(lines))
        return Parsed(payload={}, problems=[InvalidOrder("the campaign is over; no orders are read", n, l)
                                            for n, l in lines])

    def _parse_orders(self, game: Game, faction: str, lines: list[tuple[int, str]]) -> Parsed:
        list_lines, order_lines = reporting.split_list_lines(lines)
        parsed = dr_parse.parse_orders(game.state, game.gmap, game.rules, faction, order_lines)
        problems: list[OrderProblem] = list(parsed.problems)
        problems += [InvalidOrder(f"{c.split()[0]} is not used in the orders window", n, c)
                     for n, c in _numbered(order_lines, parsed.commands) if c.split()[0].upper() == "RESULT"]
        # DR-ORD-3: tokens whose every line was rejected were still given (invalid) orders, so
        # the submission is kept even when nothing in it was accepted (no repair for them, DR-REP-1)
        sent = parsed.accepted or parsed.orders.explicit
        payload: dict[str, Any] = {"orders": to_data(parsed.orders)} if sent else {}
        result = Parsed(payload=payload, accepted=list(parsed.accepted), problems=problems)
        if list_lines:
            lists = reporting.parse_list_lines(game, faction, list_lines)
            result.payload.update(lists.payload)
            result.accepted += lists.accepted
            result.problems += lists.problems
        return result

    def _parse_retreats(self, game: Game, faction: str, lines: list[tuple[int, str]]) -> Parsed:
        options = retreat_options(game, faction)
        choices, accepted, problems = dr_parse.parse_retreats(game.state, game.gmap, faction, lines, options)
        return Parsed(payload={"retreats": choices} if choices else {}, accepted=accepted, problems=problems)

    def combine(self, ctx: Context, previous: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
        """DR-ORD-2: orders replace the earlier ones as a whole, unless `orders.resubmission = "per_unit"`;
        battle results, list registrations and retreat answers replace per battle, list or token."""
        game = Game.view(ctx)
        merged = copy.deepcopy(dict(previous))
        for key, value in new.items():
            if key == "orders" and game.rules["orders.resubmission"] == "per_unit" and "orders" in merged:
                merged["orders"] = _merge_orders(merged["orders"], value)
            elif isinstance(value, dict) and key != "orders":
                merged[key] = {**merged.get(key, {}), **value}
            else:
                merged[key] = value
        return merged

    def canonical(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        return reporting.canonical_lines(payload)

    def missing(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        game = Game.view(ctx)
        if game.state.phase != "orders":
            return []
        given = set(payload.get("orders", {}).get("orders", {}))
        return [t.id for t in game.state.tokens_of(game.faction_of(player)) if t.id not in given]

    def help_text(self, ctx: Context, player: Player) -> str:
        return reporting.help_text(Game.view(ctx), player)

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        from pbem.rulesets.daemon_rift.welcome import welcome

        return welcome(Game.view(ctx), player)

    def gm_pending(self, ctx: Context) -> list[str]:
        game = Game.view(ctx)
        lists = [f"approve the list of {token}: APPROVE {token}" for token in sorted(rosters.pending(game))]
        battles = [f"the result of battle {b.number}: RESULT {b.number} <winner|draw>"
                   for b in battle_window.tabletop_battles(game)
                   if game.state.phase == "battles" and str(b.number) not in battle_window.accepted(game)
                   and battle_window.needs_gm(game)]
        return lists + battles

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        return reporting.status(Game.view(ctx), player)

    # -- resolving -----------------------------------------------------------------
    def resolve(self, ctx: Context, submissions: Mapping[str, Mapping[str, Any]], dice: Dice) -> Resolution:
        game = Game(ctx.game, ctx.settings)
        game.decisions = ctx.decisions
        by_faction = {p.faction: submissions[p.id] for p in ctx.settings.players if p.id in submissions}
        reports: list[Report] = []
        alerts: list[str] = []
        phase, opened = game.state.phase, False
        if phase == "lists":
            reporting.store_lists(game, by_faction)
            alerts += reporting.lists_alerts(game)
            opened = setup.open_turn_one(game.state)
            if opened:
                reports.append(reporting.turn_one_report(game))
        elif phase == "orders":
            reporting.store_lists(game, by_faction)
            alerts += reporting.lists_alerts(game)       # lists for new tokens and replacements (DR-LST-8)
            self._step_a(game, by_faction, dice, reports)
        elif phase == "battles":
            alerts += battle_window.collect(game, by_faction, dice, final=True)
            if not battle_window.needs_gm(game):
                self._step_b(game, dice, reports)
                alerts += game.data.get("postbattle", {}).get("alerts", [])
        elif phase == "retreats":
            choices = {t: c for sub in by_faction.values() for t, c in sub.get("retreats", {}).items()}
            self._step_c(game, choices, reports)
        finished = bool(game.data.pop("turn_closed", False))
        return Resolution(game.dump(), reports, turn_finished=finished, gm_alerts=alerts,
                          turn_opened=opened)

    def _step_a(self, game: Game, by_faction: dict[str, Mapping[str, Any]], dice: Dice, reports: list[Report]) -> None:
        submitted = {f: from_data(FactionOrders, s["orders"]) for f, s in by_faction.items() if "orders" in s}
        game.data["orders"] = {f: to_data(o) for f, o in submitted.items()}
        game.data["nmr"] = [f for f in game.live_factions() if f not in submitted and game.state.tokens_of(f)]
        game.data["choices"] = experience.settle_choices(game.state, game.rules, submitted)
        eff = validate.effective_orders(game.state, game.gmap, game.rules, submitted, dice)
        moved = movement.step_a(game.state, game.gmap, game.rules, eff, submitted, dice, game.decisions)
        game.data["movement"] = to_data(moved)
        game.data["effective"] = to_data(eff)
        for key in (*TURN_BATTLE_KEYS, "postbattle"):     # a battle number names a battle of this turn only
            game.data[key] = {}
        game.data["gm_needed"] = False
        reports += reporting.movement_reports(game, dice)
        if battle_window.tabletop_battles(game):
            game.state.phase = "battles"
            return
        self._step_b(game, dice, reports)

    def _step_b(self, game: Game, dice: Dice, reports: list[Report]) -> None:
        """Step B; it runs again after each further battle window, replaying its earlier dice."""
        results = battle_window.accepted_results(game)
        submitted = {f: from_data(FactionOrders, o) for f, o in game.data.get("orders", {}).items()}
        while True:
            moved = from_data(movement.Movement, game.data["movement"])
            start = copy.deepcopy(game.state)
            earlier = [Roll(r["n"], r["purpose"], r["sides"], tuple(r["faces"])) for r in game.data.get("replay", [])]
            replay = ReplayDice(earlier, dice)
            post = postbattle.PostBattle(game.state, game.rules, game.data.get("sheets", {}))
            try:
                after = step_b_mod.step_b(game.state, game.gmap, game.rules, moved, results, replay, submitted,
                                          battle_hook=post, decisions=game.decisions)
                break
            except step_b_mod.SecondWindowNeeded as need:
                game.state = start
                eff = from_data(Effective, game.data["effective"])
                battle = movement.dependent_battle(game.state, game.gmap, game.rules, eff, submitted, moved,
                                                   need.territory, need.tops, replay)
                game.data["movement"] = to_data(moved)
                game.data["replay"] = [to_data(r) for r in replay.log]
                if battle.kind == movement.TABLETOP:
                    reports += reporting.second_window_reports(game, battle)
                    game.state.phase = "battles"
                    return
        game.data.pop("replay", None)
        game.data["postbattle"] = {"ledgers": to_data(post.ledgers), "alerts": post.alerts}
        game.data["aftermath"] = to_data(after)
        game.data["movement"] = to_data(moved)
        reports += reporting.battle_reports(game, dice)
        if open_retreat_factions(game):
            game.state.phase = "retreats"
            return
        self._step_c(game, {}, reports)

    def _step_c(self, game: Game, choices: dict[str, str], reports: list[Report]) -> None:
        submitted = {f: from_data(FactionOrders, o) for f, o in game.data.get("orders", {}).items()}
        moved = from_data(movement.Movement, game.data["movement"])
        after = from_data(step_b_mod.Aftermath, game.data["aftermath"])
        facts = step_b_mod.finish_turn_moves(game.state, game.gmap, game.rules, moved, after, choices,
                                             game.decisions)
        eot = endturn.end_turn(game.state, game.gmap, game.rules, facts, submitted)
        reports += reporting.end_of_turn_reports(game, facts, eot)
        for key in ("orders", "movement", "aftermath", "effective", "choices", *TURN_BATTLE_KEYS):
            game.data[key] = {}
        game.data["gm_needed"] = False
        game.data["turn_closed"] = True

    # -- the game master -----------------------------------------------------------
    def standings(self, ctx: Context) -> list[str]:
        """For the final report of a campaign the GM ended: the score as if it ended now (DR-VP)."""
        from pbem.rulesets.daemon_rift import scoring

        game = Game.view(ctx)
        return [f"{row.rank or '-'}. {row.name}: {row.total} points" + (" (eliminated)" if row.eliminated else "")
                for row in scoring.scores(game.state, game.gmap, game.rules)]

    def gm_command(self, ctx: Context, words: Sequence[str]) -> tuple[dict[str, Any], str]:
        game = Game(ctx.game, ctx.settings)
        verb = words[0].upper()
        if verb == "RESULT":
            text = battle_window.gm_result(game, list(words[1:]))
        elif verb == "SHEET":
            text = battle_window.gm_sheet(game, list(words[1:]))
        elif verb == "APPROVE":
            text = reporting.approve(game, list(words[1:]))
        else:
            raise ValueError(f"unknown command {verb}; GM commands: RESOLVE, EXTEND, PAUSE, RESUME, DECIDE, RESULT, "
                             "SHEET, APPROVE")
        return game.dump(), text


def open_retreats(game: Game) -> list[step_b_mod.Retreat]:
    """Retreats whose owner must choose in window 3 (DR-RET-9)."""
    if not game.data.get("aftermath"):
        return []
    after = from_data(step_b_mod.Aftermath, game.data["aftermath"])
    return [r for r in after.retreats if not r.choice and len(r.options) > 1]


def open_retreat_factions(game: Game) -> list[str]:
    factions = {r.faction for r in open_retreats(game)}
    return [f for f in game.state.ordered_factions() if f in factions]


def retreat_options(game: Game, faction: str) -> dict[str, list[str]]:
    return {r.token: list(r.options) for r in open_retreats(game) if r.faction == faction}


def _numbered(lines: list[tuple[int, str]], commands: list[str]) -> list[tuple[int, str]]:
    wanted = set(commands)
    return [(n, l) for n, l in lines if l in wanted]


def _merge_orders(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    merged = copy.deepcopy(dict(old))
    merged["orders"] = {**old.get("orders", {}), **new.get("orders", {})}
    for key in ("retreats", "repairs", "choices"):
        merged[key] = {**old.get(key, {}), **new.get(key, {})}
    for key in ("rolloff_against", "placement", "removal"):
        if new.get(key):
            merged[key] = new[key]
    merged["explicit"] = sorted(set(old.get("explicit", [])) | set(new.get("explicit", [])))
    return merged


RULESET = DaemonRift()
