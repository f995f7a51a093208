"""What a winter keeps between its two windows: income, purchases, tithes, quests.

Owned by the winter (`gather`, `spending`, `quests`, `deploy` and their windows).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class WinterScratch:
    income: dict[str, list[int]] = field(default_factory=dict)      # player -> [gold, food] gathered
    recruited_at: list[str] = field(default_factory=list)           # fortresses that recruited (MK-ARM-1)
    tithes: list[str] = field(default_factory=list)                 # "giver>recipient" (MK-TTH-4)
    heroes: list[str] = field(default_factory=list)                 # unit keys sent on a quest (MK-QST-2)
    won: list[str] = field(default_factory=list)                    # artefacts won this winter
    log: list[str] = field(default_factory=list)
    fortresses_built: list[str] = field(default_factory=list)       # tiles (`recruit.new_fortress_can_recruit`)
    cycles: int = 0                                                 # purchase cycles run (MK-SPD-3)
    recruits: list[str] = field(default_factory=list)               # armies recruited, for the GM (MK-PBM-13)
    towers: list[str] = field(default_factory=list)                 # "player>tower" quested (MK-QST-3)
