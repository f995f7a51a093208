"""The typed state of a Daemon Rift campaign: the board and what a turn keeps between its windows.

`DRState` (stored under `dr`) is the campaign between turns; the other fields are the scratch of
the turn under way (Steps A, B and C run in up to four windows, DR-TRN-1): the orders of window 1,
what movement and the battles settled, the battle window's reports and sheets, list registrations
waiting for the GM. Everything round-trips through TOML (`pbem.kit.tomlio`); each field is stored
under its own key of the campaign's `[game]` table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from pbem.kit.dice import Roll
from pbem.kit.scene import Resolved
from pbem.kit.territories import GameMap
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.daemon_rift.aftermath import Aftermath, Retreat
from pbem.rulesets.daemon_rift.model import DRState, Effective, FactionOrders
from pbem.rulesets.daemon_rift.movement import Movement
from pbem.rulesets.daemon_rift.postbattle import BattleLedger
from pbem.rulesets.daemon_rift.rosters import Registration
from pbem.rulesets.daemon_rift.sheets import Sheet
from pbem.rulesets.phases import View


@dataclass
class ReportedResult:
    """A battle result as a player reported it, the GM entered it, or the window accepted it
    (`source`: players | single-report | gm; "" while only reported) (DR-BAT-7, DR-BAT-8)."""

    battle: str
    winner: str = ""                   # faction id, "" on a draw
    massacred: bool = False
    obliterated: bool = False
    source: str = ""

    @classmethod
    def of(cls, payload: Any) -> ReportedResult:
        """A result from a player's payload (`results` table of the battle window)."""
        return from_data(cls, payload)

    def accepted(self, source: str) -> ReportedResult:
        return replace(self, source=source)


@dataclass
class PostBattleRecord:
    """What the sheets did to the rosters in Step B, for the battle report and the GM."""

    ledgers: list[BattleLedger] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)


def _no_movement() -> Movement:
    return Movement(0, "")


def _no_aftermath() -> Aftermath:
    return Aftermath(0)


@dataclass
class DRGame:
    """A Daemon Rift campaign as every hook reads it."""

    dr: DRState = field(default_factory=DRState)
    # window 1 and Step A
    orders: dict[str, FactionOrders] = field(default_factory=dict)     # faction -> what it sent
    nmr: list[str] = field(default_factory=list)                       # factions that sent no orders
    choices: list[str] = field(default_factory=list)                   # stat choices settled (DR-EXP-11)
    effective: Effective = field(default_factory=Effective)
    movement: Movement = field(default_factory=_no_movement)
    # Step B, and the dice it replays after a further battle window
    replay: list[Roll] = field(default_factory=list)
    aftermath: Aftermath = field(default_factory=_no_aftermath)
    postbattle: PostBattleRecord = field(default_factory=PostBattleRecord)
    # window 2, keyed by battle number: a battle number names a battle of this turn only
    battle_reports: dict[str, dict[str, ReportedResult]] = field(default_factory=dict)   # battle -> faction -> result
    gm_results: dict[str, ReportedResult] = field(default_factory=dict)
    accepted_results: dict[str, ReportedResult] = field(default_factory=dict)
    sheets: dict[str, dict[str, Sheet]] = field(default_factory=dict)      # battle -> faction -> sheet
    gm_sheets: dict[str, dict[str, Sheet]] = field(default_factory=dict)
    gm_needed: bool = False            # a tabletop battle waits for the GM's RESULT
    # lists sent in any window, waiting for the GM's APPROVE (DR-LST-8)
    pending_lists: dict[str, Registration] = field(default_factory=dict)
    # what the last resolved window did, for its map picture (`picture.turn_marks`); kept past the
    # turn's end, which clears the rest of the scratch
    last: Resolved = field(default_factory=Resolved)

    def live_factions(self) -> list[str]:
        return [f for f in self.dr.ordered_factions() if not self.dr.factions[f].eliminated]

    def open_retreats(self) -> list[Retreat]:
        """Retreats whose owner must choose in window 3 (DR-RET-9)."""
        return [r for r in self.aftermath.retreats if not r.choice and len(r.options) > 1]

    def open_retreat_factions(self) -> list[str]:
        factions = {r.faction for r in self.open_retreats()}
        return [f for f in self.dr.ordered_factions() if f in factions]

    def retreat_options(self, faction: str) -> dict[str, list[str]]:
        return {r.token: list(r.options) for r in self.open_retreats() if r.faction == faction}

    def clear_battle_window(self) -> None:
        """A new movement (or a turn's end): the battle numbers of the old one mean nothing now."""
        self.battle_reports, self.gm_results, self.accepted_results = {}, {}, {}
        self.sheets, self.gm_sheets = {}, {}

    def clear_turn(self) -> None:
        """The turn is over: nothing of it is kept but what the board and the reports already hold."""
        self.orders, self.choices, self.effective = {}, [], Effective()
        self.movement, self.aftermath = _no_movement(), _no_aftermath()
        self.clear_battle_window()
        self.gm_needed = False


GAME_KEYS = frozenset(f.name for f in fields(DRGame))
"""The keys of the stored game the typed state owns."""

DRView = View[DRGame, GameMap]


_TABLES = ("movement", "aftermath", "effective", "postbattle")
"""Step records a campaign stored before they were typed kept as empty tables between turns."""


def load(game: Mapping[str, Any]) -> DRGame:
    return from_data(DRGame, {k: v for k, v in game.items() if v or k not in _TABLES})


def dump(game: DRGame) -> dict[str, Any]:
    """The stored form; no replay is kept once Step B has gone through, and no picture record
    before a window was resolved (their keys are left out)."""
    data: dict[str, Any] = to_data(game)
    if not data["replay"]:
        del data["replay"]
    if game.last == Resolved():
        del data["last"]
    return data
