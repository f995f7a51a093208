"""What the Battle phase keeps between its windows: the battles so far and the one being fought.

Owned by the battle selection and results (`battles`, `battle_results`, `window_battle`).
A player's report of a battle is kept here, not in the engine's submissions, because window B
may open again before the battle is settled (a single report waiting out the GM's grace, a
mismatch waiting for the GM's ruling): the reports already in must survive that.
"""

from __future__ import annotations

from dataclasses import dataclass, field

GM = "gm"                      # the reporter key of the GM's ruling (`GM RESULT`)
DECIDED = "decided"            # the key of a settled result waiting for an earlier battle of its wave


@dataclass
class BattleReport:
    """One side's report of a battle (or the GM's ruling); also what a result applies."""

    result: str = ""              # the winner's player id, or "draw"
    medals: list[str] = field(default_factory=list)               # unit keys, at most once each (MK-BAT-15)
    scars: list[str] = field(default_factory=list)                # unit keys of routed units (MK-BAT-14)
    moves: dict[str, str] = field(default_factory=dict)           # army that must leave -> destination tile
    win_moves: list[str] = field(default_factory=list)            # "<army> <tile>", the winner's optional move
    allot: dict[str, str] = field(default_factory=dict)           # captured artefact -> unit key (MK-ART-6)

    def facts(self) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
        """What both reports must agree on (MK-PBM-7): the result, the medals and the scars."""
        return self.result, tuple(sorted(self.medals)), tuple(sorted(self.scars))


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
    briefed: bool = False         # the briefing went out
    how: str = ""                 # how the result was settled: "reports", "single report", "gm", "no report"

    @property
    def players(self) -> tuple[str, str]:
        return self.chooser, self.opponent

    @property
    def pending(self) -> bool:
        return self.kind == "battle" and not self.result


@dataclass
class BattlePhase:
    battles: list[Battle] = field(default_factory=list)   # this month's battles, fought or pending, in order
    next_chooser: int = 0         # index in player order of the next player to choose (MK-BAT-2)
    reports: dict[str, dict[str, BattleReport]] = field(default_factory=dict)   # battle id -> reporter -> report
    month: str = ""               # "Y1M3": the month these battles belong to; a new month starts afresh
    grace_until: dict[str, str] = field(default_factory=dict)   # battle id -> ISO time a single report applies
    awaiting_gm: list[str] = field(default_factory=list)        # battle ids only the GM can settle now
    wave_picks: dict[str, str] = field(default_factory=dict)    # battle id -> "tile opponent" picked in a wave

    def battle(self, ident: str) -> Battle | None:
        return next((b for b in self.battles if b.id.casefold() == ident.casefold()), None)

    def pending(self) -> list[Battle]:
        """The tabletop battles still waiting for their result, in canonical order."""
        return [b for b in self.battles if b.pending]
