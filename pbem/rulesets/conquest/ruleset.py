"""Campaigns of Conquest plugged into the engine: windows S, 1, 2, 3, 4 and steps 0, A, B, C, D.

The stage is the window the round waits in (COC-TRN-1). The capital picks
(window S) are turn 0, so `pbem rollback` from round 1 goes back to them; round
N is turn N. When a window closes,
its step runs (A after window 1, B after 2, C after 3, D after 4), and the
round moves through `CYCLE` to the next window that needs players; a window
nobody needs (no battles, no battle-setup window, every battle already settled)
still runs its step with the defaults (COC-TRN-4, COC-TRN-5). Passing window 4
ends the round: the turn is finished, step 0 opens the next round.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from pbem.campaign import Player, Settings
from pbem.dice import Dice
from pbem.hexmap import HexMap
from pbem.orders import InvalidOrder
from pbem.rulebook import RuleBook
from pbem.rulesets.base import Context, Parsed, Resolution, Ruleset, Stage
from pbem.rulesets.conquest import (
    battle_orders,
    battles,
    challenges,
    events,
    order,
    reporting,
    results,
    revenue,
    setup,
    spending,
)
from pbem.rulesets.conquest import parse as cparse
from pbem.rulesets.conquest import rules as rulesmod
from pbem.rulesets.conquest.model import (
    W_CAMPAIGN,
    W_CAPITALS,
    W_CONQUEST,
    W_OVER,
    W_RESULTS,
    W_SETUP,
    ConquestState,
    RoundState,
)
from pbem.rulesets.conquest.tiles import campaign_map
from pbem.sequential import Cycle
from pbem.tomlio import from_data, to_data

CYCLE = Cycle((W_CAMPAIGN, W_SETUP, W_RESULTS, W_CONQUEST))
TITLES = {W_CAPITALS: "capital picks (window S)", W_CAMPAIGN: "campaign orders (window 1)",
          W_SETUP: "battle setup (window 2)", W_RESULTS: "battle results (window 3)",
          W_CONQUEST: "conquest and build (window 4)", W_OVER: "campaign over"}


class Game:
    """The stored game dict as typed objects, and back."""

    def __init__(self, data: Mapping[str, Any], settings: Settings, decisions: Mapping[str, str] | None = None) -> None:
        self.data = copy.deepcopy(dict(data))
        self.settings = settings
        self.decisions: Mapping[str, str] = decisions or {}      # the GM's answers for this stage
        self.state = from_data(ConquestState, self.data["conquest"])
        self.rules: RuleBook = rulesmod.load(settings.rules)
        self.gmap: HexMap = campaign_map(settings.map, self.rules)

    def dump(self) -> dict[str, Any]:
        self.data["conquest"] = to_data(self.state)
        return self.data

    @property
    def window(self) -> str:
        return self.state.round.window

    def reader(self, player: str) -> cparse.Reader:
        return cparse.Reader(self.state, self.gmap, self.rules, player)


class Conquest(Ruleset):
    name = "conquest"
    title = "Campaigns of Conquest"
    aliases = ("coc", "campaigns_of_conquest", "mighty_empires")
    templates = "conquest"
    default_map = "four_marches"
    windows: Mapping[str, str] = {"capitals": "3d", "campaign": "4d", "setup": "3d", "results": "10d", "conquest": "4d"}
    per_entry = frozenset({"setup", "results"})    # set-ups and results are given battle by battle

    # -- setup -----------------------------------------------------------------------
    def create(self, settings: Settings) -> dict[str, Any]:
        rules = rulesmod.load(settings.rules)
        players = [(p.id, p.name, p.faction_name or p.name) for p in settings.players]
        state = setup.new_state(campaign_map(settings.map, rules), rules, players)
        state.round.number, state.round.window = 0, W_CAPITALS            # setup is turn 0
        return {"conquest": to_data(state)}

    # -- what we wait for --------------------------------------------------------------
    def stage(self, ctx: Context) -> Stage:
        game = Game(ctx.game, ctx.settings)
        window, number = game.window, game.state.round.number
        owing = tuple(self._owing(game))
        waiting = window == W_CAPITALS and not owing
        waiting = waiting or (window == W_RESULTS and bool(game.state.round.disputed))
        ready = window == W_RESULTS and not results.awaiting_reports(game.state)
        ready = ready or (window == W_CAPITALS and setup.all_placed(game.state))
        title = f"Setup: {TITLES[window]}" if window == W_CAPITALS else f"Round {number}: {TITLES[window]}"
        sides = tuple(reporting.results_sides(game.state)) if window == W_RESULTS else ()
        return Stage(window, title, number, owing, window, waiting_for_gm=waiting, ready=ready,
                     over=window == W_OVER, owing_any=sides)

    def _owing(self, game: Game) -> list[str]:
        state = game.state
        if game.window == W_CAPITALS:
            return [p for p, e in state.empires.items() if not e.capital]
        if game.window in (W_CAMPAIGN, W_CONQUEST):
            return [p for p in state.round.order if p in state.active()]
        if game.window == W_SETUP:
            return [p for p in state.round.order if any(p in b.players for b in state.round.battles
                                                        if not state.round.outcome(b.id))]
        if game.window == W_RESULTS:
            return reporting.results_owing(state)
        return []

    # -- reading mail -------------------------------------------------------------------
    def parse(self, ctx: Context, player: Player, lines: Sequence[tuple[int, str]]) -> Parsed:
        game = Game(ctx.game, ctx.settings)
        reader = game.reader(player.id)
        window = game.window
        if window == W_CAPITALS:
            return cparse.parse_capitals(reader, lines)
        if window == W_CAMPAIGN:
            return cparse.parse_campaign(reader, lines, bool(game.rules["turn.battle_setup_window"]))
        if window == W_SETUP:
            return battle_orders.parse_setup(game.state, player.id, lines, game.rules)
        if window == W_RESULTS:
            return battle_orders.parse_results(game.state, player.id, lines, results.describe(game.state, game.rules))
        if window == W_CONQUEST:
            parsed = cparse.parse_conquest(reader, lines)
            parsed.accepted = reporting.preview(game.state, game.gmap, game.rules, player.id, parsed)
            return parsed
        return Parsed(payload={}, problems=[InvalidOrder("the campaign is over; no orders are read", n, l)
                                            for n, l in lines])

    def canonical(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        game = Game(ctx.game, ctx.settings)
        return reporting.canonical(game.state, game.gmap, game.rules, player.id, payload)

    def gm_pending(self, ctx: Context) -> list[str]:
        state = Game(ctx.game, ctx.settings).state
        return [f"your ruling on {ident}: RESULT {ident} ... or ABSTRACT {ident}" for ident in state.round.disputed]

    def missing(self, ctx: Context, player: Player, payload: Mapping[str, Any]) -> list[str]:
        game = Game(ctx.game, ctx.settings)
        if game.window == W_SETUP:
            given = set(payload.get("setup", {}))
            return [b.id for b in game.state.round.battles if player.id in b.players and b.id not in given
                    and battle_orders.ALL_BATTLES not in given]
        if game.window == W_RESULTS:
            given = set(payload.get("results", {}))
            return [b.id for b in results.awaiting_reports(game.state) if player.id in b.players and b.id not in given]
        return []

    def help_text(self, ctx: Context, player: Player) -> str:
        return reporting.help_text(Game(ctx.game, ctx.settings).window)

    def welcome(self, ctx: Context, player: Player) -> dict[str, Any]:
        """The campaign opens with the capital picks: no player holds a tile before them."""
        if Game(ctx.game, ctx.settings).window != W_CAPITALS:
            return {}
        return {"first_step": "The campaign opens with the capital picks: send a `CAPITAL` line naming the "
                              "cities you would take as your capital, best first (and a `NEWCITY` line with "
                              "tiles for a new city, used only if none of them is left). The picks are made "
                              "in an order the dice draw, and the report that follows names every capital."}

    def status(self, ctx: Context, player: Player) -> dict[str, Any]:
        """STATUS replies: the shared ack lists `control`; there are no tokens in this system."""
        game = Game(ctx.game, ctx.settings)
        mine = reporting.private_context(game.state, game.gmap, game.rules, player.id)
        return {**mine, "tokens": [], "control": mine["holdings"] or ["nothing"]}

    # -- resolving ----------------------------------------------------------------------
    def resolve(self, ctx: Context, submissions: Mapping[str, Mapping[str, Any]], dice: Dice) -> Resolution:
        game = Game(ctx.game, ctx.settings, ctx.decisions)
        out = Resolution(game={})
        window = game.window
        if window == W_CAPITALS:
            self._capitals(game, submissions, dice, out)
        elif window in CYCLE.windows:
            self._close(game, window, submissions, dice, out)
        out.game = game.dump()
        return out

    def _capitals(self, game: Game, subs: Mapping[str, Mapping[str, Any]], dice: Dice, out: Resolution) -> None:
        state = game.state
        wishes = {p: setup.CapitalWish(**s["capital"]) for p, s in subs.items() if "capital" in s}
        if not state.capital_order:
            state.capital_order = setup.pick_order(state, game.rules, dice)
        lines = setup.assign_capitals(state, game.gmap, game.rules,
                                      [p for p in state.capital_order if not state.empires[p].capital], wishes, dice)
        state.round.log += lines
        if not setup.all_placed(state):
            out.gm_alerts.append("Some players have no legal capital: place one with `CAPITAL <player> <tile>`.")
            out.reports.append(reporting.public(game, "capitals", "Capital picks", dice))
            return
        setup_log = state.round.log
        self._open_round(game, 1, dice)
        state.round.log = setup_log + state.round.log          # the capitals report shows how they were picked
        out.reports.append(reporting.public(game, "capitals", "Capitals and the order of play", dice))
        out.turn_finished = True                 # setup (turn 0) is over: round 1 is a turn of its own

    def _open_round(self, game: Game, number: int, dice: Dice) -> None:
        """Step 0 (COC-ORD-2): sizes, tie-breaks, ascending order; window 1 opens."""
        game.state.round = RoundState(number=number, window=W_CAMPAIGN)
        game.data["log_shown"] = 0
        order.open_round(game.state, game.rules, dice, number)

    def _close(self, game: Game, window: str, subs: Mapping[str, Mapping[str, Any]], dice: Dice,
               out: Resolution) -> None:
        """Run the step of the window that closed, then of every window nobody needs."""
        current, payloads = window, subs
        while True:
            if not self._step(game, current, payloads, dice, out):
                return                                   # stays open: the GM must rule
            if game.state.winner:
                game.state.round.window = W_OVER
                out.reports.append(reporting.public(game, "final", "The campaign is won", dice))
                out.turn_finished = True
                return
            following, new_round = CYCLE.after(current, lambda w: True)
            if new_round:
                self._finish_round(game, dice, out)
                return
            game.state.round.window = following
            if self._needed(game, following):
                return
            current, payloads = following, {}

    def _needed(self, game: Game, window: str) -> bool:
        state = game.state
        if window == W_SETUP:
            return bool(state.round.battles) and bool(game.rules["turn.battle_setup_window"])
        if window == W_RESULTS:
            return bool(results.open_battles(state))
        return True

    def _step(self, game: Game, window: str, subs: Mapping[str, Mapping[str, Any]], dice: Dice,
              out: Resolution) -> bool:
        if window == W_CAMPAIGN:
            self._step_a(game, subs, dice, out)
        elif window == W_SETUP:
            self._step_b(game, subs, dice, out)
        elif window == W_RESULTS:
            return self._step_c(game, subs, dice, out)
        elif window == W_CONQUEST:
            self._step_d(game, subs, dice, out)
        return True

    def _step_a(self, game: Game, subs: Mapping[str, Mapping[str, Any]], dice: Dice, out: Resolution) -> None:
        """Events, revenue, challenges and the battle list (COC-TRN step A)."""
        state = game.state
        game.data["standing"] = {p: s["setup"] for p, s in subs.items() if "setup" in s}
        events.run_events(state, game.gmap, game.rules, cparse.event_lists(subs), dice)
        if state.winner:
            return
        revenue.collect(state, game.gmap, game.rules, dice)
        choices = {p: s["standing"] for p, s in subs.items() if "standing" in s}
        assaults = {p: s["assaults"] for p, s in subs.items() if "assaults" in s}
        sea = cparse.challenge_lists(subs, "sea") if challenges.naval_on(state, game.rules) else {}
        consent = {p: s["assault_consent"] for p, s in subs.items() if "assault_consent" in s}
        challenges.run_challenges(state, game.rules, cparse.challenge_lists(subs), sea, assaults, choices, dice,
                                  consent)
        out.reports.append(reporting.public(game, "campaign", "Events, revenue and the battle list", dice))
        out.reports += reporting.privates(game, "campaign")

    def _step_b(self, game: Game, subs: Mapping[str, Mapping[str, Any]], dice: Dice, out: Resolution) -> None:
        """Battle size, gold, shares, briefings; abstract resolution where asked (COC-TRN step B)."""
        source = subs if game.rules["turn.battle_setup_window"] else game.data.get("standing", {})
        setups = {p: battle_orders.setup_orders(s if "setup" in s else {"setup": s}) for p, s in source.items()
                  if s}
        if not game.state.round.battles:
            return
        _, briefings, lines = battles.step_b(game.state, setups, game.rules, dice, game.gmap,
                                             decisions=game.decisions)
        game.state.round.log += lines
        out.reports += briefings
        out.reports.append(reporting.public(game, "setup", "Battle setup", dice))

    def _step_c(self, game: Game, subs: Mapping[str, Mapping[str, Any]], dice: Dice, out: Resolution) -> bool:
        """Results, EP, beaten opponents, sieges and Naval Advantage (COC-TRN step C)."""
        state = game.state
        new = [r for s in subs.values() for r in battle_orders.result_reports(s)]
        fresh = {(r.battle, r.reporter) for r in new}
        kept = [r for r in state.round.reports if r.reporter in state.empires and (r.battle, r.reporter) not in fresh]
        reports = kept + new      # reports from before a GM ruling still count
        _, lines = results.step_c(state, reports, game.rules, dice, final=True, decisions=game.decisions)
        state.round.log += lines
        if results.open_battles(state):
            out.gm_alerts += results.gm_alerts(state)
            return False
        out.reports.append(reporting.public(game, "results", "Battle results and Empire Points", dice))
        out.reports += reporting.privates(game, "results")
        return True

    def _step_d(self, game: Game, subs: Mapping[str, Mapping[str, Any]], dice: Dice, out: Resolution) -> None:
        """Spending in ascending order with the victory checks (COC-TRN step D)."""
        state = game.state
        state.round.siege_consent = {p: list(s["consent"]) for p, s in subs.items() if "consent" in s}
        spending.run_spending(state, game.gmap, game.rules, cparse.action_lists(subs), dice)

    def _finish_round(self, game: Game, dice: Dice, out: Resolution) -> None:
        """The round report, then step 0 of the next round (COC-TRN-7)."""
        state = game.state
        finished = state.round
        out.reports.append(reporting.public(game, "round", f"Round {finished.number} report", dice))
        out.reports += reporting.privates(game, "round")
        state.history.append(reporting.history_line(game))
        if self._round_cap(game, finished.number, dice, out):
            return
        self._open_round(game, finished.number + 1, dice)
        out.reports.append(reporting.public(game, "order", f"Round {finished.number + 1}: the order of play", dice))
        out.turn_finished = True

    def _round_cap(self, game: Game, number: int, dice: Dice, out: Resolution) -> bool:
        """`victory.round_cap` (0: none): the campaign ends after that round; the largest empire
        wins, and a shared lead leaves nobody the winner. True when it ended."""
        from pbem.rulesets.conquest.empire import declare_winner, size_of

        cap, state = int(game.rules["victory.round_cap"]), game.state
        if not cap or number < cap:
            return False
        sizes = {p: size_of(state, p, game.rules) for p in state.active()}
        top = max(sizes.values(), default=0)
        leaders = [p for p, size in sizes.items() if size == top]
        if len(leaders) == 1:
            declare_winner(state, leaders[0], f"the largest empire (size {top:g}) after round {number}, "
                                              "the last one (victory.round_cap)")
        else:
            state.round.log.append(f"Round {number} was the last one (victory.round_cap): "
                                   f"{', '.join(state.empires[p].name for p in leaders)} share the lead "
                                   f"at size {top:g}; nobody wins")
        state.round.window = W_OVER
        out.reports.append(reporting.public(game, "final", "The campaign is over", dice))
        out.turn_finished = True
        return True

    # -- the game master ----------------------------------------------------------------
    def standings(self, ctx: Context) -> list[str]:
        """For the final report of a campaign the GM ended: empire sizes, largest first (COC-WIN)."""
        from pbem.rulesets.conquest.empire import size_of

        state, rules = Game(ctx.game, ctx.settings).state, rulesmod.load(ctx.settings.rules)
        sizes = {p: size_of(state, p, rules) for p in state.empires}
        return [f"{state.empires[p].name}: empire size {sizes[p]:g}" + (" (eliminated)" if state.empires[p].eliminated
                                                                       else "")
                for p in sorted(sizes, key=lambda p: (-sizes[p], p))]

    def gm_command(self, ctx: Context, words: Sequence[str]) -> tuple[dict[str, Any], str]:
        game = Game(ctx.game, ctx.settings)
        verb = words[0].upper()
        if verb in ("RESULT", "ABSTRACT") and game.window == W_RESULTS:
            text = results.gm_result(game.state, list(words))
        elif verb == "SIZE" and game.window == W_SETUP:
            text = battles.gm_size(game.state, list(words[1:]))
        elif verb == "CAPITAL" and game.window == W_CAPITALS:
            text = self._gm_capital(game, list(words[1:]))
        else:
            raise ValueError(f"unknown command {verb} now; GM commands: RESOLVE, EXTEND, PAUSE, RESUME, "
                             "SIZE (window 2), RESULT/ABSTRACT (window 3), CAPITAL (window S)")
        return game.dump(), text

    def _gm_capital(self, game: Game, words: list[str]) -> str:
        """COC-SET-8: the GM places a city for a player left without a legal capital."""
        if len(words) != 2:
            raise ValueError("CAPITAL <player> <tile>")
        reader = game.reader("")
        player, tile = reader.who(words[0]), reader.tile(words[1])
        if game.state.tiles[tile].owner:
            raise ValueError(f"{tile} is already held")
        if game.state.empires[player].capital:
            held = game.gmap.label(game.state.empires[player].capital)
            raise ValueError(f"{game.state.empires[player].name} already has a capital, {held}; an empire has one")
        setup.found(game.state, player, tile)
        return f"{game.state.empires[player].name}'s capital is {game.gmap.label(tile)}"


RULESET = Conquest()
