"""Diplomacy report contexts: the public phase report, each power's private report,
the help text and STATUS.

The public report shows every order with its result (succeeds, fails, void,
invalid, each with the reason), units that had no order, dislodgements and
where they may retreat, retreats, builds and removals (civil disorder marked),
the supply-centre table with counts, ownership changes, eliminations, and the
end of the game. Templates in `templates/diplomacy/` turn these into Markdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.rulesets.base import Player, Report, render
from pbem.rulesets.diplomacy import cycle
from pbem.rulesets.diplomacy.cycle import ADJUSTMENT, MOVEMENT, RETREAT, GameState, Step
from pbem.rulesets.diplomacy.orders import Order
from pbem.rulesets.diplomacy.results import OrderResult, PhaseResult, Submitted
from pbem.rulesets.diplomacy.state import DipView, edition, victory
from pbem.rulesets.diplomacy.units import Unit


@dataclass
class PowerOrders:
    power: str
    orders: list[OrderResult] = field(default_factory=list)
    unordered: list[str] = field(default_factory=list)      # units that had no order (they held)


@dataclass
class PhaseView:
    title: str
    phase: str
    automatic: bool                                          # resolved without orders (nothing to choose)
    powers: list[PowerOrders]
    dislodged: list[dict[str, Any]]
    disbanded: list[Unit]
    contested: list[str]


@dataclass
class CentreRow:
    power: str
    centres: list[str]
    units: int
    adjustment: int          # builds (> 0) or removals (< 0) due in the coming winter
    eliminated: bool


# ---------------------------------------------------------------- the reports


def phase_reports(view: DipView, step: Step, orders: Sequence[Submitted], silent: Sequence[str]) -> list[Report]:
    """The public report of a resolution and one private report per power with a player (`view.state`
    holds the position reached)."""
    context = report_context(view, step, orders, silent)
    title = f"{step.before.title} results" if step.results else f"Draw declared in {step.before.title}"
    reports = [Report("phase_report", title, ("*",), context, public=True, key="report")]
    for power, pid in view.state.powers.items():
        if pid and power not in step.before.eliminated:
            reports.append(Report("private_report", f"{title}: {power}", (pid,),
                                  context | private_context(view, power), key=f"private-{pid}"))
    return reports


def report_context(view: DipView, step: Step, orders: Sequence[Submitted], silent: Sequence[str]) -> dict[str, Any]:
    after, state = step.after, view.state
    return {
        "before": step.before, "after": after, "board": view.map, "edition": edition(view),
        "phases": [_phase_view(view, step, i, r, orders) for i, r in enumerate(step.results)],
        "skipped": step.skipped, "changes": step.changes, "ownership_updated": step.ownership_updated,
        "eliminated_now": step.eliminated,
        "nmr_powers": [p for p in silent if state.player_of(p)],
        "disorder_powers": [p for p in silent if not state.player_of(p)],
        "centre_table": centre_table(view, after), "neutral": _neutral(view, after),
        # a power in civil disorder has nobody to send its orders: it owes none
        "next_powers": [p for p in cycle.owing(view.map, after) if state.player_of(p)], "victory": victory(view),
        "names": {power: _player_name(view, power) for power in view.map.powers},
        "power_of_player": state.powers_by_player,
    }


def _phase_view(view: DipView, step: Step, index: int, result: PhaseResult, orders: Sequence[Submitted]) -> PhaseView:
    before = step.before
    automatic = index > 0
    title = before.title if not automatic else f"{before.season.title()} {before.year} retreats"
    by_power = {p: PowerOrders(p) for p in view.map.powers}
    for r in result.orders:
        by_power[r.power].orders.append(r)
    if result.phase == MOVEMENT:
        ordered = _ordered_provinces(view, orders)
        for unit in before.units:
            if unit.province not in ordered:
                by_power[unit.power].unordered.append(f"{unit.kind} {unit.loc}")
    retreating = step.after if step.after.phase == RETREAT else None
    dislodged = [{"unit": d.unit, "attacker_from": d.attacker_from,
                  "options": cycle.retreat_options(view.map, retreating, d) if retreating else []}
                 for d in result.dislodged]
    return PhaseView(title, result.phase, automatic, [v for v in by_power.values() if v.orders or v.unordered],
                     dislodged, list(result.disbanded), list(result.contested))


def _ordered_provinces(view: DipView, orders: Sequence[Submitted]) -> set[str]:
    out = set()
    for _, text in orders:
        order = text if isinstance(text, Order) else Order.parse(text, view.map, MOVEMENT)
        out.add(order.province)
    return out


def centre_table(view: DipView, state: GameState) -> list[CentreRow]:
    due = cycle.adjustments_due(view.map, state) if state.phase == ADJUSTMENT else {}
    rows = [CentreRow(p, state.centres_of(p), len(state.units_of(p)), due.get(p, 0), p in state.eliminated)
            for p in view.map.powers]
    return sorted(rows, key=lambda r: (r.eliminated, -len(r.centres), r.power))


def _neutral(view: DipView, state: GameState) -> list[str]:
    return sorted(c for c in view.map.supply_centres if c not in state.centers)


def _player_name(view: DipView, power: str) -> str:
    pid = view.state.player_of(power)
    player = view.settings.player(pid) if pid else None
    return player.name if player else ""


# ---------------------------------------------------------------- one power


def private_context(view: DipView, power: str) -> dict[str, Any]:
    """What one power has and what it must send next."""
    state = view.state.position
    board = view.map
    dislodged = [{"unit": d.unit, "options": cycle.retreat_options(board, state, d)}
                 for d in state.dislodged if d.unit.power == power]
    due = cycle.adjustments_due(board, state).get(power, 0) if state.phase == ADJUSTMENT else 0
    return {
        "power": power, "units": state.units_of(power), "centres": state.centres_of(power),
        "my_dislodged": dislodged, "due": due, "build_sites": cycle.build_sites(board, state, power),
        "owes": power in cycle.owing(board, state), "out": power in state.eliminated,
        "phase": state.phase, "state": state,
    }


def help_text(view: DipView, player: Player) -> str:
    power, state = view.state.power_of(player), view.state.position
    return render("diplomacy", "help", {"power": power, "state": state,
                                        "units": state.units_of(power) if power else [],
                                        "edition": edition(view)})


def status(view: DipView, player: Player) -> dict[str, Any]:
    power = view.state.power_of(player)
    if not power:
        return {}
    return private_context(view, power) | {"centre_table": centre_table(view, view.state.position)}

