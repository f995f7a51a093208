"""What a summer month keeps between its windows: the allowance, the orders taken, the log.

Owned by the Orders window and the resolution (`window_orders`, `resolution`). The month's
orders stay here after resolution, with each order's start tile and outcome, until the next
month's orders are taken: the battle briefings, the month report and the picture read them.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Order:
    army: str
    verb: str                     # "move" | "defend" | "raze"
    tile: str = ""                # the target of a move
    player: str = ""
    outcome: str = ""             # what resolving it did, for the report and the picture
    done: bool = False            # resolved or cancelled
    cancelled: bool = False       # a Move into a tile that became a tower (MK-EXP-6)
    start: str = ""               # the army's tile when the month began (arrows are drawn from it)
    default: bool = False         # filled in by MK-PBM-2, not sent by the player
    end: str = ""                 # the army's tile once the order resolved (a tower sends it back)


@dataclass
class MonthScratch:
    allowance: int = 0            # N (MK-ORD-2)
    orders: list[Order] = field(default_factory=list)      # every accepted order, in resolution order
    log: list[str] = field(default_factory=list)           # the resolution report, one line per event
    turn: int = 0                 # the calendar turn these orders belong to (a new month starts afresh)
    cycle: int = 0                # order cycles already taken (orders.window_mode = "per_cycle")
    resolved: bool = False        # the month's orders have been resolved
