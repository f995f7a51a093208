"""The stored game of a Wandering Tribes campaign: the rules' state plus where the cycle stands
(the open window, the round's published sequence, the battle phase's battles) and what the last
resolution did, for the map picture."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.rulesets.phases import View
from pbem.rulesets.wandering_tribes.battle_results import Report
from pbem.rulesets.wandering_tribes.battle_setup import Battle
from pbem.rulesets.wandering_tribes.model import State
from pbem.rulesets.wandering_tribes.squares import SquareMap

SETUP = "setup"
ORDERS = "orders"
BATTLE = "battle"
OVER = "over"


@dataclass
class Move:
    """A stack's path this round, for the picture."""

    stack: str
    start: str
    path: list[str] = field(default_factory=list)
    retreat: bool = False


@dataclass
class WTGame:
    phase: str = SETUP
    turn: int = 0                                        # one per resolved window
    state: State = field(default_factory=State)
    sequence: list[str] = field(default_factory=list)    # the open round's players, in order (WT-PBEM-4)
    opening: list[str] = field(default_factory=list)     # its order-roll log, published with the window
    battles: list[Battle] = field(default_factory=list)  # the open battle phase's battles
    final: bool = False                                  # the open battle phase is the campaign's last (WT-VIC-2)
    moves: list[Move] = field(default_factory=list)
    resolved: str = ""                                   # the title of the last resolution
    assigned: dict[str, str] = field(default_factory=dict)   # nations the GM assigned at setup (W0)
    lacking: list[str] = field(default_factory=list)          # players setup waits for a nation for
    gm_results: dict[str, Report] = field(default_factory=dict)   # battle id -> the result the GM set (WT-RES-2)
    played: list[str] = field(default_factory=list)      # the open round's players already played (pbem table)
    round_log: list[str] = field(default_factory=list)   # their rounds' log and alerts, for the round's report
    round_alerts: list[str] = field(default_factory=list)


WTView = View[WTGame, SquareMap]
