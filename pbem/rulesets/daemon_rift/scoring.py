"""Daemon Rift victory points (DR-VP), provisional every turn and final after turn 15.

Reads only the map, the control map and each faction's running record:
`Faction.defeated` holds the factions it beat in a tabletop battle,
`Faction.defeated_by_rolloff` those it beat in a roll-off (a faction may be in
both), `Faction.tokens_eliminated` the enemy tokens it eliminated in battle.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.rulebook import RuleBook
from pbem.kit.territories import GameMap
from pbem.rulesets.daemon_rift.model import DRState, Faction

PHASE_OVER = "over"


@dataclass
class Score:
    """One faction's points with the breakdown the report shows (DR-VP-8)."""

    faction: str
    name: str
    territories: int = 0                 # territories controlled (DR-VP-2)
    territory_points: int = 0
    specials: list[str] = field(default_factory=list)      # special territories held (DR-VP-3)
    special_points: int = 0
    objective: bool = False              # holds the main objective (DR-VP-4)
    objective_points: int = 0
    defeated: list[str] = field(default_factory=list)      # factions counted for DR-VP-5
    defeated_by_rolloff: list[str] = field(default_factory=list)   # of those, beaten only by roll-off
    defeated_points: int = 0
    tokens_eliminated: int = 0           # enemy tokens eliminated in battle (DR-VP-6)
    token_points: int = 0
    total: int = 0
    eliminated: bool = False             # out of the ranking (DR-VP-10)
    rank: int = 0                        # 1 = first, shared on ties (DR-VP-9); 0 = no rank
    winner: bool = False                 # set only by final_standings


def scores(state: DRState, gmap: GameMap, rules: RuleBook) -> list[Score]:
    """Every faction's score as if the game ended now, ranked; eliminated factions last."""
    rows = [faction_score(state.factions[f], state, gmap, rules) for f in state.ordered_factions()]
    _rank(rows, rules)
    position = {f: i for i, f in enumerate(state.ordered_factions())}
    return sorted(rows, key=lambda s: (s.rank == 0, s.rank, position[s.faction]))


def final_standings(state: DRState, gmap: GameMap, rules: RuleBook) -> list[Score]:
    """The final result after Step C of the last turn (DR-GEN-1, DR-VP-1, DR-VP-9)."""
    if state.phase != PHASE_OVER:
        raise ValueError(f"the campaign is not over: turn {state.turn}, phase {state.phase!r}")
    rows = scores(state, gmap, rules)
    for row in rows:
        row.winner = row.rank == 1
    return rows


def faction_score(faction: Faction, state: DRState, gmap: GameMap, rules: RuleBook) -> Score:
    """DR-VP-2..7 for one faction."""
    held = state.controlled_by(faction.id)
    specials = gmap.sorted(t for t in held if t in gmap.special)
    plain = len(held) if rules["vp.specials_additive"] else len(held) - len(specials)
    objective = bool(gmap.objective) and gmap.objective in held
    beaten, by_rolloff = defeated_factions(faction, rules)
    row = Score(
        faction.id, faction.name, territories=len(held),
        territory_points=plain * int(rules["vp.per_territory"]),
        specials=specials, special_points=len(specials) * int(rules["vp.special_territory"]),
        objective=objective, objective_points=int(rules["vp.main_objective"]) if objective else 0,
        defeated=beaten, defeated_by_rolloff=by_rolloff,
        defeated_points=len(beaten) * int(rules["vp.faction_defeated"]),
        tokens_eliminated=faction.tokens_eliminated,
        token_points=faction.tokens_eliminated * int(rules["vp.token_eliminated"]),
        eliminated=faction.eliminated,
    )
    row.total = (row.territory_points + row.special_points + row.objective_points
                 + row.defeated_points + row.token_points)
    return row


def defeated_factions(faction: Faction, rules: RuleBook) -> tuple[list[str], list[str]]:
    """Enemy factions counted once each (DR-VP-5, DR-VP-7), and which of them only by roll-off."""
    table = [f for f in dict.fromkeys(faction.defeated) if f != faction.id]
    rolloff = [f for f in dict.fromkeys(faction.defeated_by_rolloff) if f != faction.id and f not in table]
    if not rules["vp.rolloff_win_counts"]:
        rolloff = []
    return table + rolloff, rolloff


def _rank(rows: list[Score], rules: RuleBook) -> None:
    """Competition ranking by total; ties share a place unless `vp.tie` says otherwise."""
    out = rules["vp.eliminated_faction"] == "out"
    ranked = [r for r in rows if not (out and r.eliminated)]
    shared = rules["vp.tie"] == "shared"
    ordered = sorted(ranked, key=lambda r: -r.total)     # stable: faction order breaks ties
    for place, row in enumerate(ordered, start=1):
        row.rank = 1 + sum(1 for other in ranked if other.total > row.total) if shared else place
