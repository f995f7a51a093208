"""What the setup keeps between its steps: the initial roll-off, the placement, the army lists.

Owned by the setup (`setup`, `window_setup`). Setup runs as three stages in turn 0: the
automatic roll-off of the initial player order (MK-SET-1), window S (claims, rings, first
armies), and, while an army list is missing or waits for the game master (MK-PBM-1,
MK-PBM-13), the list stage.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class SetupScratch:
    rolled: bool = False          # the initial player order is rolled and published (MK-SET-1)
    placed: bool = False          # window S has resolved: capitals, rings and army places are set
    army_at: dict[str, str] = field(default_factory=dict)       # player -> tile of his first army
    missing: list[str] = field(default_factory=list)            # players who owe their army list
    pending: list[str] = field(default_factory=list)            # players whose list waits for the GM
    noted: dict[str, str] = field(default_factory=dict)         # player -> why the GM sent his list back
