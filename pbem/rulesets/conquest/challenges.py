"""Step A.3: challenges in ascending order, Diplomacy, teams, break-ups, and the battle list (COC-CHL).

A "team" is two or more players who have challenged the same target, judged at
the moment of a new challenge (COC-CHL-8). Challenging a team member breaks him
away: he fights the new challenger and no longer the team's target (COC-CHL-9).
Once every challenge is settled, each target with several challengers gets the
team battle or the one-on-one battles he chose (COC-CHL-16). Sea challenges run
the same procedure on their own track (COC-NAV-3); declared siege assaults are
added as battles of their own (COC-SIE-9, COC-SIE-13).

Options read here: `challenge.mandatory` (a silent unchallenged player has
missed an obligation, and `challenge.fallback = "random"` may challenge for him;
when false, challenging is optional and nothing is missed),
`naval.sea_challenge_mandatory` (the same for the sea track),
`challenge.lone_challenger_challenged`, `challenge.multi_default`, and for
assaults `siege.assaults_per_round`, `siege.assault_needs_consent` (the
defender's window-1 CONSENT names the besieger) and `siege.assault_is_challenge`
(the assault is the besieger's challenge for the round and the defender counts
as challenged, so neither issues a land challenge).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pbem.kit.dice import Dice
from pbem.kit.rulebook import RuleBook
from pbem.kit.sequential import ranked_choices
from pbem.rulesets.conquest.model import (
    LAND,
    SEA,
    SIEGE,
    TEAM,
    Battle,
    Challenge,
    ConquestState,
)


@dataclass
class ChallengeEntry:
    """One line of a window-1 challenge list, with its limits (COC-CHL-14)."""

    target: str
    only_if_unchallenged: bool = False
    no_join: bool = False
    no_break: bool = False

    def __str__(self) -> str:
        limits = [k for k in ("only_if_unchallenged", "no_join", "no_break") if getattr(self, k)]
        return " ".join([self.target, *limits])


class Track:
    """The challenges of one kind (land or sea) as they are settled."""

    def __init__(self, state: ConquestState, rules: RuleBook, sea: bool) -> None:
        self.state = state
        self.rules = rules
        self.sea = sea
        self.groups: dict[str, list[str]] = {}      # target -> his challengers, in the order they challenged
        self.challenged: set[str] = set()
        self.assaulting: set[str] = set()           # besiegers whose assault is their challenge
        self.records: list[Challenge] = []

    def team_of(self, player: str) -> str:
        """The target of the team `player` belongs to ("" if he is in none)."""
        return next((t for t, cs in self.groups.items() if player in cs and len(cs) >= 2), "")

    def lone_target(self, player: str) -> str:
        return next((t for t, cs in self.groups.items() if cs == [player]), "")

    def skip(self, player: str) -> str:
        """COC-CHL-2: a player already challenged issues no challenge; nor does a besieger whose
        assault is his challenge (`siege.assault_is_challenge`)."""
        if player in self.assaulting:
            return "his siege assault is his challenge this round (siege.assault_is_challenge)"
        return "already challenged; his challenge orders are ignored" if player in self.challenged else ""

    def reason(self, player: str, entry: ChallengeEntry) -> str:
        target = entry.target
        if target == player:
            return "you cannot challenge yourself"
        if target not in self.state.active():
            return f"{target} is not an active player"
        if player in self.state.round.targets_of(target, "diplomacy"):
            return f"{target} holds Diplomacy against you"
        if self.sea and target not in self.rules["naval.players"]:
            return f"{target} is not a naval player"
        has_challengers = bool(self.groups.get(target))
        if entry.only_if_unchallenged and (has_challengers or target in self.challenged):
            return f"{target} is already challenged (only_if_unchallenged)"
        if entry.no_join and has_challengers:
            return f"{target} already has challengers (no_join)"
        if entry.no_break and self.team_of(target):
            return f"{target} is in a team (no_break)"
        if self.lone_target(target) and self.rules["challenge.lone_challenger_challenged"] == "forbidden":
            return f"{target} has challenged someone and may not be challenged (challenge.lone_challenger_challenged)"
        return ""

    def apply(self, player: str, entry: ChallengeEntry) -> None:
        target = entry.target
        team = self.team_of(target)
        record = Challenge(player, target, sea=self.sea)
        if team:
            self.groups[team].remove(target)           # COC-CHL-9
            record.broke_team = True
            record.note = f"breaks {target} away from the team against {team}"
        lone = self.lone_target(target)
        if lone and self.rules["challenge.lone_challenger_challenged"] == "redirect":
            self.groups[lone].remove(target)
            record.note = f"{target}'s own challenge of {lone} lapses"
        self.groups.setdefault(target, []).append(player)
        self.challenged.add(target)                     # COC-CHL-12
        self.records.append(record)


def settle(state: ConquestState, rules: RuleBook, lists: Mapping[str, Sequence[ChallengeEntry]],
           dice: Dice, sea: bool = False, assaults: Sequence[Battle] = ()) -> Track:
    """Walk the ascending order once; each player uses the first legal entry (COC-CHL-1, -14, -15).

    `assaults` are the round's siege assaults when they count as challenges
    (`siege.assault_is_challenge`): the besieger has issued his, the defender is challenged."""
    track = Track(state, rules, sea)
    for battle in assaults:
        track.assaulting.update(battle.attackers)
        track.challenged.update(battle.defenders)
    mandatory = bool(rules["naval.sea_challenge_mandatory"] if sea else rules["challenge.mandatory"])
    players = [p for p in state.round.order if p in state.active()]
    if sea:
        players = [p for p in players if p in rules["naval.players"]]

    def fallback(player: str) -> ChallengeEntry | None:
        if not mandatory or player in lists or rules["challenge.fallback"] != "random":
            return None
        legal = [ChallengeEntry(t) for t in players if not track.reason(player, ChallengeEntry(t))]
        if not legal:
            return None
        what = "sea challenge" if sea else "challenge"
        return legal[dice.roll(f"Random {what} by {player}", 1, len(legal)).total - 1]

    turns = ranked_choices(players, lists, track.reason, track.apply, fallback, track.skip)
    missed = [t.player for t in turns if mandatory and not t.skipped and not t.chosen and t.player not in lists]
    if sea:
        state.round.missed_sea_challenges = missed
    else:
        state.round.missed_challenges = missed
    return track


def battles_from(track: Track, choices: Mapping[str, str], default: str, first_id: int) -> list[Battle]:
    """COC-CHL-6/11/16: one battle per lone challenger; a team battle or one-on-ones for several."""
    out: list[Battle] = []
    for target, challengers in track.groups.items():
        if not challengers:
            continue
        single = SEA if track.sea else LAND
        if len(challengers) > 1 and choices.get(target, default) == "team":
            out.append(Battle("", SEA if track.sea else TEAM, list(challengers), [target]))
        else:
            out += [Battle("", single, [c], [target]) for c in challengers]
    for n, battle in enumerate(out, start=first_id):
        battle.id = f"B{n}"
    return out


def declared_assaults(state: ConquestState, rules: RuleBook, assaults: Mapping[str, Sequence[str]],
                      consent: Mapping[str, Sequence[str]]) -> list[Battle]:
    """The siege assaults of the round, in ascending order of the besiegers (COC-SIE-9), at most
    `siege.assaults_per_round` per siege; with `siege.assault_needs_consent` only those the
    defender's window-1 CONSENT allows. Battle ids are given once the list is complete."""
    if not rules["siege.enabled"]:
        return []
    limit = int(rules["siege.assaults_per_round"])
    made: Counter[str] = Counter()
    out = []
    for besieger in state.round.order:
        for tile in assaults.get(besieger, ()):
            siege = state.siege_at(tile)
            if siege is None or siege.besieger != besieger or made[tile] >= limit:
                continue
            if rules["siege.assault_needs_consent"] and besieger not in consent.get(siege.defender, ()):
                state.round.log.append(f"{state.empires[besieger].name}'s assault on {tile} is not made: "
                                       f"{state.empires[siege.defender].name} did not consent "
                                       "(siege.assault_needs_consent)")
                continue
            made[tile] += 1
            siege.assault_round = state.round.number
            state.round.assaults.append(tile)
            out.append(Battle("", SIEGE, [besieger], [siege.defender], tile))
    return out


def run_challenges(state: ConquestState, rules: RuleBook, lists: Mapping[str, Sequence[ChallengeEntry]],
                   sea_lists: Mapping[str, Sequence[ChallengeEntry]], assaults: Mapping[str, Sequence[str]],
                   choices: Mapping[str, str], dice: Dice,
                   consent: Mapping[str, Sequence[str]] | None = None) -> list[Battle]:
    """Land challenges, then sea challenges, then siege assaults: the round's battle list (COC-CHL-17)."""
    default = str(rules["challenge.multi_default"])
    sieges = declared_assaults(state, rules, assaults, consent or {})
    land = settle(state, rules, lists, dice, assaults=sieges if rules["siege.assault_is_challenge"] else ())
    battles = battles_from(land, choices, default, 1)
    records = list(land.records)
    if naval_on(state, rules):
        sea = settle(state, rules, sea_lists, dice, sea=True)
        battles += battles_from(sea, choices, default, len(battles) + 1)
        records += sea.records
    for battle in sieges:
        battle.id = f"B{len(battles) + 1}"
        battles.append(battle)
    state.round.challenges = records
    state.round.team_choice = {p: choices.get(p, default) for p in state.active()}
    state.round.battles = battles
    return battles


def naval_on(state: ConquestState, rules: RuleBook) -> bool:
    """COC-NAV-1: the option is on and at least two active players opted in."""
    players = [p for p in rules["naval.players"] if p in state.active()]
    return bool(rules["naval.enabled"]) and len(players) >= 2
