"""Window 0: army lists (DR-SET-5, DR-LST). Each faction registers its list 1; the window stays open
until the GM has approved every list 1 (`APPROVE`), then gives way to turn 1's orders."""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice
from pbem.kit.territories import GameMap
from pbem.rulesets.base import Parsed, Player
from pbem.rulesets.daemon_rift import reporting, rosters, setup
from pbem.rulesets.daemon_rift.game_state import DRGame, DRView
from pbem.rulesets.daemon_rift.steps import Turn, by_faction
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Phase, Submissions


def owing(view: DRView) -> list[str]:
    """Factions whose list 1 is neither approved nor waiting for the GM."""
    pending = view.state.pending_lists
    return [view.player_of(f) for f in setup.ready_to_start(view.state.dr) if f"{f}-1" not in pending]


def ready(view: DRView) -> bool:
    return not setup.ready_to_start(view.state.dr)


def waiting_for_gm(view: DRView) -> bool:
    return not owing(view) and not ready(view)


def parse(view: DRView, player: Player, lines: Lines) -> Parsed:
    return reporting.parse_list_lines(view, player.faction, list(lines))


def resolve(view: DRView, submissions: Submissions, dice: Dice) -> Turn:
    out = Outcome(view.state)
    store_lists(view, submissions, out)
    if setup.open_turn_one(view.state.dr):
        out.reports.append(reporting.turn_one_report(view))
        out.turn_opened = True         # a rollback to turn 1 starts here, with the lists approved
    return out


def store_lists(view: DRView, submissions: Submissions, out: Turn) -> None:
    """Registrations sent in any window wait for the GM, who hears of each (DR-LST-8)."""
    rosters.store(view, by_faction(view, submissions))
    out.gm_alerts += rosters.alerts(view)


def approve(view: DRView, words: Sequence[str]) -> str:
    return rosters.approve(view, words)


APPROVE: GMVerb[DRGame, GameMap] = GMVerb("APPROVE", "APPROVE <token|player> [...]|ALL",
                                          "approve army lists waiting for the game master: by token (R-1), "
                                          "or every list of a player (id, name or faction)", approve)

LISTS: Phase[DRGame, GameMap] = Phase(
    title="army lists", window="lists", parse=parse, resolve=resolve,
    words=lambda view: ("LIST", "ARTILLERY", "FAST", "DECLARE"),
    owing=owing, ready=ready, waiting_for_gm=waiting_for_gm, help=reporting.help_text)
