"""The battle briefing: everything the players of one battle need at the table (COC-BAT-22).

`report(state, battle, setup, rules, gmap)` gathers the facts into a
`Briefing` and wraps it in a "briefing" `Report` for the battle's players and
the GM; `templates/conquest/briefing.md.j2` lays it out. The rules texts that
never change (team-battle rules, General's abilities, siege and sea notes)
live in the template, names and effects come from `rules/conquest.toml`.

Items: battle ID and type; attacker (challenger) and defender with team
membership; base size and shares; largest-empire and gold bonuses and final
points (COC-BAT-10); Scouts (COC-EVT-15) and Elite Army (COC-EVT-18);
objectives held by each player, judged now (COC-OBJ-1..4); the General's
abilities when `options.generals_abilities` is on (COC-GAB); the team rules
for a team battle (COC-BAT-15..20); the "Into the breach!" scenario for a
siege assault (COC-SIE-8) or the sea note (COC-NAV-4); stand-ins (COC-BAT-21);
the result fields and the deadline (the engine adds `next_deadline`).

The General's abilities (COC-GAB-1..4) are table rules and nothing more: every
general has both abilities whenever `options.generals_abilities` is on, each is
used at the table a set number of times per battle (`uses_per_battle`, "once
per battle" by the catalog's reading of "once per game"), and nothing about
them is chosen, earned, spent or carried between battles, so the processor
has nothing to apply or record. The briefing shows every ability of
`[[generals_abilities]]` with its full text and uses, and in a team battle
that each army's general has his own abilities for his own troops (COC-GAB-4).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.kit.hexes import HexMap
from pbem.kit.rulebook import RuleBook
from pbem.rulesets.base import Report
from pbem.rulesets.conquest.model import (
    LAND,
    SEA,
    SIDES,
    SIEGE,
    TEAM,
    Battle,
    BattleSetup,
    ConquestState,
)

KIND_LABELS = {LAND: "land battle", TEAM: "team land battle", SIEGE: "siege assault", SEA: "sea battle"}


@dataclass
class Perk:
    """A named effect a player brings: an objective or a General's ability."""

    name: str
    effect: str
    tile: str = ""
    uses: int = 0                 # General's abilities: uses per battle


@dataclass
class ArmyLine:
    player: str
    name: str
    share: int
    largest_bonus: int
    gold: int
    gold_bonus: int
    total: int
    stand_in: str = ""
    objectives: list[Perk] = field(default_factory=list)


@dataclass
class SideLine:
    role: str                     # "attacker" or "defender"
    names: list[str]
    team: bool
    armies: list[ArmyLine] = field(default_factory=list)


@dataclass
class Briefing:
    round: int
    battle: str
    kind: str
    kind_label: str
    points: int
    size_note: str
    sides: list[SideLine]
    scouts: str                   # one sentence, "" when nobody holds Scouts
    elite_army: list[str]         # names of players who may take one unit over Min/Max
    generals: list[Perk]          # the General's abilities, empty when the option is off
    team: bool
    tile: str = ""                # siege: the besieged tile's label
    scenario: str = ""            # siege: "Into the breach!"
    besieger: str = ""
    defender: str = ""

    @property
    def players(self) -> list[str]:
        return [a.player for s in self.sides for a in s.armies]


def objectives_of(state: ConquestState, player: str, rules: RuleBook, gmap: HexMap) -> list[Perk]:
    """Objectives on the tiles carrying this player's banner right now (COC-OBJ-4)."""
    known = {o["key"]: o for o in rules["objectives"]}
    out = []
    for tile in gmap.sorted(state.tiles_of(player)):
        key = gmap.tiles[tile].objective if tile in gmap.tiles else ""
        if key:
            entry = known.get(key, {"name": key.replace("_", " ").title(), "effect": ""})
            out.append(Perk(entry["name"], entry["effect"], gmap.label(tile)))
    return out


def scouts_line(state: ConquestState, battle: Battle, names: dict[str, str], game: str = "Warmaster") -> str:
    """Who deploys first and who chooses the first turn (COC-EVT-15; both sides: `events.scouts_clash`);
    `game` is the tabletop game the battles are fought with (`campaign.game_system`)."""
    holders = {side: [p for p in battle.members(side) if state.round.holds(p, "scouts")] for side in SIDES}
    if all(holders.values()):
        return ("Both sides hold Scouts, so the effects cancel: deployment and the first turn follow the normal "
                f"{game} rules.")
    for side in SIDES:
        if holders[side]:
            who = " and ".join(names[p] for p in holders[side])
            other = " and ".join(names[p] for p in battle.members("defender" if side == "attacker" else "attacker"))
            return (f"{who} holds Scouts: {other} must deploy the whole army before {who} deploys, "
                    f"and {who} decides who takes the first turn.")
    return ""


def build(state: ConquestState, battle: Battle, setup: BattleSetup, rules: RuleBook, gmap: HexMap) -> Briefing:
    names = {p: e.name for p, e in state.empires.items()}
    sides = []
    for side in SIDES:
        line = SideLine(side, [names[p] for p in battle.members(side)], battle.team_side(side))
        for army in (a for a in setup.armies if a.side == side):
            line.armies.append(ArmyLine(army.player, names[army.player], army.share, army.largest_bonus,
                                        army.gold, army.gold_bonus, army.total, army.stand_in,
                                        objectives_of(state, army.player, rules, gmap)))
        sides.append(line)
    generals = ([Perk(g["name"], g["effect"], uses=int(g["uses_per_battle"])) for g in rules["generals_abilities"]]
                if rules["options.generals_abilities"] else [])
    made = Briefing(
        round=state.round.number, battle=battle.id, kind=battle.kind, kind_label=KIND_LABELS[battle.kind],
        points=setup.points, size_note=setup.note, sides=sides,
        scouts=scouts_line(state, battle, names, str(rules["campaign.game_system"])),
        elite_army=[names[p] for p in battle.players if state.round.holds(p, "elite_army")],
        generals=generals, team=battle.kind != SEA and any(battle.team_side(s) for s in SIDES),
    )
    if battle.kind == SIEGE:
        made.tile = gmap.label(battle.tile) if battle.tile in gmap.tiles else battle.tile
        made.scenario = rules["siege.scenario"]
        made.besieger = " and ".join(names[p] for p in battle.attackers)
        made.defender = " and ".join(names[p] for p in battle.defenders)
    return made


def report(state: ConquestState, battle: Battle, setup: BattleSetup, rules: RuleBook, gmap: HexMap) -> Report:
    made = build(state, battle, setup, rules, gmap)
    subject = f"Round {state.round.number}: {battle.id} briefing ({made.kind_label})"
    return Report("briefing", subject, (*battle.players, "gm"), {"briefing": made, "rules": rules},
                  key=f"briefing-{battle.id}")
