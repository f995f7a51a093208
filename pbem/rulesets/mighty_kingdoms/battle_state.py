"""What the Battle phase keeps between its windows: the battles so far and the one being fought.

Owned by the battle selection and results (`battles`, `battle_results`, `window_battle`).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Battle:
    id: str                       # "Y1M3-B2": year, month, number within the month
    tile: str
    chooser: str                  # player id
    opponent: str                 # player id
    kind: str = "battle"          # "battle" (a KoW game, window B) | "slaughter" (MK-BAT-9)
    armies: dict[str, list[str]] = field(default_factory=dict)     # player -> upright armies that fight
    on_side: dict[str, list[str]] = field(default_factory=dict)    # player -> on-side armies present
    result: str = ""              # winner's player id, "draw", or "" while pending
    medals: list[str] = field(default_factory=list)                # unit keys
    scars: list[str] = field(default_factory=list)                 # unit keys
    moves: dict[str, str] = field(default_factory=dict)            # army -> tile it moved to ("" = destroyed)
    removed: str = ""             # the army a slaughter removed
    log: list[str] = field(default_factory=list)


@dataclass
class BattlePhase:
    battles: list[Battle] = field(default_factory=list)   # this month's battles, fought or pending, in order
    next_chooser: int = 0         # index in player order of the next player to choose (MK-BAT-2)
    reports: dict[str, dict[str, str]] = field(default_factory=dict)  # battle id -> player -> stored report key
