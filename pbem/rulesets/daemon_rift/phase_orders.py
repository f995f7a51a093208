"""Window 1: orders (DR-ORD). Every faction with tokens owes orders; lists for new or raised
tokens may come with them (DR-LST-8). At the deadline Step A runs, and B and C after it when no
battle or retreat window is needed."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pbem.kit.dice import Dice
from pbem.kit.orders import InvalidOrder, OrderProblem
from pbem.kit.territories import GameMap
from pbem.kit.tomlio import to_data
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.daemon_rift import parse as dr_parse
from pbem.rulesets.daemon_rift import phase_lists, reporting, steps
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView
from pbem.rulesets.phases import Lines, Outcome, Payload, Phase, Submissions


def owing(view: DRView) -> list[str]:
    game = view.state
    return [view.player_of(f) for f in game.live_factions() if game.dr.tokens_of(f)]


def parse(view: DRView, player: Player, numbered: Lines) -> Parsed:
    lines = list(numbered)
    list_lines, order_lines = reporting.split_list_lines(lines)
    parsed = dr_parse.parse_orders(view.state.dr, view.map, view.rules, player.faction, order_lines)
    problems: list[OrderProblem] = list(parsed.problems)
    problems += [InvalidOrder(f"{c.split()[0]} is not used in the orders window", n, c)
                 for n, c in _numbered(order_lines, parsed.commands) if c.split()[0].upper() == "RESULT"]
    # DR-ORD-3: tokens whose every line was rejected were still given (invalid) orders, so
    # the submission is kept even when nothing in it was accepted (no repair for them, DR-REP-1)
    sent = parsed.accepted or parsed.orders.explicit
    payload: dict[str, Any] = {"orders": to_data(parsed.orders)} if sent else {}
    result = Parsed(payload=payload, accepted=list(parsed.accepted), problems=problems)
    if list_lines:
        lists = reporting.parse_list_lines(view, player.faction, list_lines)
        result.payload.update(lists.payload)
        result.accepted += lists.accepted
        result.problems += lists.problems
    return result


def _numbered(lines: list[tuple[int, str]], commands: list[str]) -> list[tuple[int, str]]:
    wanted = set(commands)
    return [(n, l) for n, l in lines if l in wanted]


def combine(view: DRView, previous: Payload, new: Payload) -> dict[str, Any]:
    """DR-ORD-2: orders replace the earlier ones as a whole, unless `orders.resubmission = "per_unit"`."""
    merged = reporting.merge_payloads(previous, new)
    if view.rules["orders.resubmission"] == "per_unit" and "orders" in previous and "orders" in new:
        merged["orders"] = _merge_orders(previous["orders"], new["orders"])
    return merged


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


def missing(view: DRView, player: Player, payload: Payload) -> list[str]:
    given = set(payload.get("orders", {}).get("orders", {}))
    return [t.id for t in view.state.dr.tokens_of(player.faction) if t.id not in given]


def resolve(view: DRView, submissions: Submissions, dice: Dice) -> steps.Turn:
    out, turn = Outcome(view.state), view.state.dr.turn
    phase_lists.store_lists(view, submissions, out)     # lists for new tokens and replacements (DR-LST-8)
    steps.step_a(view, steps.by_faction(view, submissions), dice, out)
    steps.titled(view, turn, "orders")
    return out


ORDERS: Phase[DRGame, GameMap] = Phase(
    title="orders", window="orders", parse=parse, resolve=resolve,
    words=lambda view: ("RETREAT", "ROLLOFF", "PLACE", "REMOVE", "REPAIR", "CHOOSE"),
    owing=owing, missing=missing, combine=combine, help=reporting.help_text)
