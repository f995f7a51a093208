"""Wizard's quests (MK-QST-1..18): parsed in window W1, run after the purchase cycles.

A quest is one line of the W1 submission:

    QUEST <tower> <army>.<unit> [<type> <type> ...] [ADJUST -1|0|+1] [MELEE|SHOOTING]

    QUEST T14 A1.U2 speed agility       the hero U2 of army A1 goes to the tower on T14; the D6 is
                                        moved by up to 1 towards the best-ranked type it can reach
    QUEST T20 A2.U1 ADJUST +1           a fixed adjustment instead of a ranked list (-1, 0 or +1;
                                        a bare +1 will do)
    QUEST T20 A2.U1 combat shooting     a Combat quest's attack: MELEE (the default) or SHOOTING,
                                        which needs a hero with a Ra value (MK-PBM-9)

The types are chance, speed, agility, courage, endurance and combat (MK-QST-6). A line with
neither a list nor an adjustment uses the kingdom's standing quest ranking (the last ranked list
it sent, kept between winters, MK-PBM-5), and adjusts by 0 if there is none (MK-QST-5).

Each tower next to a tile the player controls allows one quest (MK-QST-1, MK-QST-3), each by a
different Hero unit (MK-QST-2). A window's parser hands the words after QUEST to `parse` with the
entries already read (`earlier`), and keeps what it returns in its payload under "quests"; `run`
reads that list. Quests cost nothing and are no purchase (MK-QST-4).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pbem.kit.dice import Dice, dice_spec
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex
from pbem.kit.roster import Entry
from pbem.kit.rulebook import RuleBook
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Player, ask
from pbem.rulesets.mighty_kingdoms import artefacts, kow
from pbem.rulesets.mighty_kingdoms.armylist import KIND_NAMES
from pbem.rulesets.mighty_kingdoms.chronicle import Section, dice_text
from pbem.rulesets.mighty_kingdoms.model import Army, MKState, MKView, unit_key
from pbem.rulesets.phases import Submissions

MELEE, SHOOTING = "melee", "shooting"
USAGE = "QUEST <tower> <army>.<unit> [<types, best first> | ADJUST -1|0|+1] [MELEE|SHOOTING]"
HELP = (f"{USAGE}: one line per wizard's tower next to your tiles, each with a different Hero unit; the types "
        f"(chance, speed, agility, courage, endurance, combat) ranked best first steer the D6 by up to 1, or "
        f"ADJUST fixes the change; MELEE or SHOOTING is a Combat quest's attack. Quests cost nothing.")
_ADJUST = re.compile(r"^[+-]?\d+$")


@dataclass
class Quest:
    """One quest as the payload keeps it."""

    tower: str
    army: str
    unit: str
    types: list[str] = field(default_factory=list)    # ranked quest types, best first
    fixed: bool = False                               # an adjustment was given instead of a list
    adjust: int = 0
    attack: str = MELEE                               # a Combat quest's attack (MK-PBM-9)

    @property
    def hero(self) -> str:
        return unit_key(self.army, self.unit)


# -- who may quest where (MK-QST-1..3) -----------------------------------------------------------
def eligible_towers(state: MKState, gmap: HexMap, player: str) -> list[str]:
    """The towers next to at least one tile the player controls, one quest each (MK-QST-1)."""
    return gmap.sorted(t for t in state.towers() if any(state.owner(n) == player for n in gmap.neighbours(t)))


def heroes(state: MKState, player: str) -> list[str]:
    """The player's Hero units as unit keys, army by army."""
    return [unit_key(a.id, e.id) for a in state.armies_of(player) for e in a.roster.entries if e.has("hero")]


def quest_types(view: MKView) -> list[str]:
    return [str(row["type"]) for row in view.rules["quests.table"]]


def offer(view: MKView) -> dict[str, Any]:
    """What window W1's call shows about quests: per kingdom its eligible towers and Hero units with an
    example line, and the unowned artefacts of each reward band (names and points)."""
    state, kingdoms = view.state, []
    for player in state.order:
        towers, mine = eligible_towers(state, view.map, player), heroes(state, player)
        kingdoms.append({"name": state.kingdoms[player].name, "towers": [view.map.label(t) for t in towers],
                         "heroes": [f"{key} {_unit_name(state, key)}" for key in mine],
                         "example": _example(view, player) if towers and mine else ""})
    bands = [{"band": f"{low}" if low == high else f"{low}-{high}",
              "artefacts": [f"{a.name} ({a.points})" for a in artefacts.unowned(state, view.rules, low, high)]}
             for low, high in artefacts.bands(view.rules)]
    return {"kingdoms": kingdoms, "bands": bands, "types": quest_types(view), "usage": USAGE}


def _unit_name(state: MKState, key: str) -> str:
    army, _, unit = key.partition(".")
    return state.armies[army].roster.entry(unit).name


# -- parsing -------------------------------------------------------------------------------------
def parse(view: MKView, player: Player, words: Sequence[str],
          earlier: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """One `QUEST ...` line (the words after QUEST) as a payload entry; raises InvalidOrder or
    IllegalOrder. `earlier` holds the entries already read from the same submission."""
    if len(words) < 2:
        raise InvalidOrder(f"a quest reads `{USAGE}`", suggestion=_example(view, player.id))
    found = view.map.longest(words, 0)
    if found is None:
        raise view.map.unknown(words, 0, 0)
    tower, end = found
    _check_tower(view, player.id, tower)
    if end >= len(words):
        raise InvalidOrder(f"name the hero after the tower, as <army>.<unit>; your heroes: "
                           f"{', '.join(heroes(view.state, player.id)) or 'none'}")
    army, entry = _hero(view.state, player.id, words[end])
    quest = Quest(tower, army.id, entry.id)
    _options(view, quest, words[end + 1:])
    _check_unique(view, quest, [from_data(Quest, e) for e in earlier])
    return dict(to_data(quest))


def _example(view: MKView, player: str) -> str:
    towers, mine = eligible_towers(view.state, view.map, player), heroes(view.state, player)
    return f"QUEST {towers[0]} {mine[0]} speed agility" if towers and mine else "QUEST T14 A1.U2 speed agility"


def _check_tower(view: MKView, player: str, tower: str) -> None:
    state, label = view.state, view.map.label(tower)
    allowed = eligible_towers(state, view.map, player)
    where = f"; towers you may send a quest to: {', '.join(allowed)}" if allowed else \
        "; no tower is next to a tile you control"
    if not state.tile(tower).tower:
        raise IllegalOrder(f"{label} is not a wizard's tower{where}")
    if tower not in allowed:
        raise IllegalOrder(f"the tower on {label} is next to none of your tiles (MK-QST-1){where}")


def _hero(state: MKState, player: str, text: str) -> tuple[Army, Entry]:
    mine = heroes(state, player)
    hint = f"your heroes: {', '.join(mine)}" if mine else "you have no Hero unit"
    army_text, _, unit_text = text.partition(".")
    army = next((a for a in state.armies.values() if a.id.casefold() == army_text.casefold()), None)
    if not unit_text or army is None:
        raise InvalidOrder(f"the hero {text} must be written <army>.<unit>, like A1.U2; {hint}")
    if army.owner != player:
        raise IllegalOrder(f"{army.id} is not one of your armies; {hint}")
    entry = army.roster.get(unit_text.upper()) or _by_name(army, unit_text)
    if not entry.has("hero"):
        raise IllegalOrder(f"{unit_key(army.id, entry.id)} {entry.name} is not a Hero unit (MK-QST-2); {hint}")
    return army, entry


def _by_name(army: Army, text: str) -> Entry:
    try:
        return army.roster.entry(text)
    except (InvalidOrder, IllegalOrder) as exc:
        raise InvalidOrder(f"{army.id} has no unit {text}", suggestion=exc.suggestion) from exc


def _options(view: MKView, quest: Quest, words: Sequence[str]) -> None:
    """The ranked types, the adjustment and the Combat attack, in any order."""
    names = NameIndex({t: () for t in quest_types(view)}, what="quest type")
    tokens = " ".join(words).replace(",", " ").split()
    limit, adjusts = view.rules["quests.max_adjust"], []
    for n, token in enumerate(tokens):
        low = token.casefold()
        if low == "adjust":
            if n + 1 == len(tokens) or not _ADJUST.match(tokens[n + 1]):
                raise InvalidOrder("ADJUST takes -1, 0 or +1, like ADJUST -1")
            continue
        if _ADJUST.match(token):
            adjusts.append(int(token))
        elif low in (MELEE, SHOOTING):
            quest.attack = low
        else:
            kind = names.lookup(token)
            if kind in quest.types:
                raise InvalidOrder(f"the quest type {kind} is ranked twice")
            quest.types.append(kind)
    _adjustment(quest, adjusts, limit)


def _adjustment(quest: Quest, adjusts: Sequence[int], limit: int) -> None:
    if len(adjusts) > 1:
        raise InvalidOrder("give one adjustment (-1, 0 or +1), not several")
    if adjusts and quest.types:
        raise InvalidOrder("give either a ranked list of quest types or a fixed adjustment, not both")
    if adjusts:
        if abs(adjusts[0]) > limit:
            raise IllegalOrder(f"the adjustment {adjusts[0]:+d} is more than {limit} either way (MK-QST-5)")
        quest.fixed, quest.adjust = True, adjusts[0]


def _check_unique(view: MKView, quest: Quest, earlier: Sequence[Quest]) -> None:
    per_tower = view.rules["quests.per_adjacent_tower"]
    if sum(1 for other in earlier if other.tower == quest.tower) >= per_tower:
        raise IllegalOrder(f"one quest too many to the tower on {view.map.label(quest.tower)}; "
                           f"{_quests(per_tower)} per tower (MK-QST-3)")
    if view.rules["quests.hero_once_per_winter"] and any(other.hero == quest.hero for other in earlier):
        raise IllegalOrder(f"{quest.hero} already goes on a quest this winter; each quest needs a "
                           f"different hero (MK-QST-2)")


def _quests(count: int) -> str:
    return "one quest" if count == 1 else f"{count} quests"


# -- the D6 and its adjustment (MK-QST-5, MK-QST-6) ----------------------------------------------
def row_of(view: MKView, value: int) -> Mapping[str, Any]:
    return next(row for row in view.rules["quests.table"] if row["min"] <= value <= row["max"])


def best_adjust(view: MKView, value: int, ranked: Sequence[str]) -> int:
    """The adjustment towards the best-ranked type reachable with -1, 0 or +1 (0 when none is)."""
    limit = view.rules["quests.max_adjust"]
    steps = sorted(range(-limit, limit + 1), key=abs)      # no adjustment before one, ties low first
    for wanted in ranked:
        for step in steps:
            if any(r["type"] == wanted and r["min"] <= value + step <= r["max"] for r in view.rules["quests.table"]):
                return step
    return 0


# -- running (MK-QST-18) -------------------------------------------------------------------------
@dataclass
class Trial:
    """One quest under way: who goes, and where its lines go."""

    view: MKView
    dice: Dice
    player: str
    army: Army
    hero: Entry
    quest: Quest
    section: Section

    @property
    def label(self) -> str:
        return f"{self.quest.hero} {self.hero.name}"

    def rules(self, key: str) -> Any:
        return self.view.rules[key]


def run(view: MKView, submissions: Submissions, dice: Dice, sections: list[Section]) -> None:
    """The quests of every player in player order, one per player per round (MK-QST-18). Each
    submission's quests are the list under "quests" (entries from `parse`), in the order sent."""
    state, section = view.state, Section("Wizard's quests")
    queues = {p: [from_data(Quest, q) for q in submissions.get(p, {}).get("quests", [])] for p in state.order}
    while any(queues.values()):
        for player in state.order:
            if queues[player]:
                _one(view, player, queues[player].pop(0), dice, section)
    if not section.lines:
        section.add("No wizard's quest this winter")
    sections.append(section)


def _one(view: MKView, player: str, quest: Quest, dice: Dice, section: Section) -> None:
    state, kingdom = view.state, view.state.kingdoms[player]
    problem = _not_now(view, player, quest)
    if problem:
        section.add(f"{kingdom.name}'s quest by {quest.hero} to {view.map.label(quest.tower)} does not go: {problem}")
        return
    state.winter.heroes.append(quest.hero)
    state.winter.towers.append(f"{player}>{quest.tower}")
    army = state.armies[quest.army]
    trial = Trial(view, dice, player, army, army.roster.entry(quest.unit), quest, section)
    row = _pick_type(trial, kingdom.standing.quests)
    if quest.types:
        kingdom.standing.quests = list(quest.types)
    won = TESTS[str(row["type"])](trial)
    if not won:
        section.add(f"{trial.label} fails and wins nothing (MK-QST-16)")
        return
    name = artefacts.draw(state, view.rules, dice, (int(row["reward_min"]), int(row["reward_max"])), player, section)
    if name:
        state.winter.won.append(name)
        section.add(f"{kingdom.name} wins {name}; it is allocated at deployment")


def _not_now(view: MKView, player: str, quest: Quest) -> str:
    """Why a parsed quest cannot go now (the army was disbanded, the hero already went...)."""
    state = view.state
    army = state.armies.get(quest.army)
    entry = army.roster.get(quest.unit) if army else None
    if army is None or army.owner != player or entry is None or not entry.has("hero"):
        return f"{quest.hero} is no longer one of {state.kingdoms[player].name}'s Hero units"
    if view.rules["quests.hero_once_per_winter"] and quest.hero in state.winter.heroes:
        return f"{quest.hero} has already been on a quest this winter (MK-QST-2)"
    if state.winter.towers.count(f"{player}>{quest.tower}") >= view.rules["quests.per_adjacent_tower"]:
        return f"{_quests(view.rules['quests.per_adjacent_tower'])} per tower already went there (MK-QST-3)"
    if quest.tower not in eligible_towers(state, view.map, player):
        return "the tower is next to none of the kingdom's tiles (MK-QST-1)"
    return ""


def _pick_type(trial: Trial, standing: Sequence[str]) -> Mapping[str, Any]:
    quest, view = trial.quest, trial.view
    count, sides = dice_spec(trial.rules("quests.die"))
    roll = trial.dice.roll(f"quest type {quest.hero}", count, sides).total
    ranked = quest.types or ([] if quest.fixed else list(standing))
    step = quest.adjust if quest.fixed else best_adjust(view, roll, ranked)
    row = row_of(view, roll + step)
    why = "fixed" if quest.fixed else (f"towards {', '.join(ranked)}" if ranked else "no ranking sent")
    moved = f"adjusted {step:+d} to {roll + step}" if step else "not adjusted"
    trial.section.add(f"{view.state.kingdoms[trial.player].name}: {trial.label} goes to the tower on "
                      f"{view.map.label(quest.tower)}: D{sides} = {roll}, {moved} ({why}): "
                      f"{str(row['type']).capitalize()}")
    return row


# -- the six tests (MK-QST-7..14) ----------------------------------------------------------------
def _verdict(won: bool) -> str:
    return "success" if won else "failure"


def chance(trial: Trial) -> bool:
    """MK-QST-7: 2D6, any total but 7 wins."""
    roll = trial.dice.roll(f"chance quest {trial.quest.hero}", *dice_spec(trial.rules("quests.chance.dice")))
    won = roll.total not in trial.rules("quests.chance.fail_on")
    trial.section.add(f"Chance: {dice_text(roll)}: "
                      + _verdict(won))
    return won


def speed(trial: Trial) -> bool:
    """MK-QST-8: 2D6 + the hero's Sp, 13 or more wins."""
    roll = trial.dice.roll(f"speed quest {trial.quest.hero}", *dice_spec(trial.rules("quests.speed.dice")))
    sp, target = trial.hero.counters.get("sp", 0), trial.rules("quests.speed.target")
    total = roll.total + sp
    won = bool(total >= target)
    trial.section.add(f"Speed: {dice_text(roll)}, plus Sp {sp} = {total}, "
                      f"{target} needed: " + _verdict(won))
    return won


def agility_modifiers(view: MKView, hero: Entry) -> list[tuple[str, int]]:
    """MK-QST-10: every modifier that fits the hero, as (what, value)."""
    out = []
    for key, value in view.rules["quests.agility.mods"].items():
        if hero.kind == key:
            out.append((KIND_NAMES.get(key, key), int(value)))
        elif hero.has(key):
            out.append((key.replace("_", " ").capitalize(), int(value)))
    over = hero.counters.get("de", 0) - 4
    if over > 0:
        out.append((f"De {hero.counters['de']}+", over * int(view.rules["quests.agility.per_def_over_4"])))
    return out


def agility(trial: Trial) -> bool:
    """MK-QST-9/10: 2D6 + the modifiers, 10 or more wins."""
    roll = trial.dice.roll(f"agility quest {trial.quest.hero}", *dice_spec(trial.rules("quests.agility.dice")))
    mods = agility_modifiers(trial.view, trial.hero)
    total, target = roll.total + sum(v for _, v in mods), trial.rules("quests.agility.target")
    shown = ", ".join(f"{what} {value:+d}" for what, value in mods) or "none"
    won = bool(total >= target)
    trial.section.add(f"Agility: {dice_text(roll)}, modifiers {shown} "
                      f"({sum(v for _, v in mods):+d}) = {total}, {target} needed: {_verdict(won)}")
    return won


def _by_gm(trial: Trial, kind: str) -> bool:
    """`quests.resolution = "gm"` (A4): the GM rolls the attacks and nerve tests by hand."""
    quest = trial.quest
    key = f"quest-{trial.player}-{quest.tower}"
    answer = ask(trial.view.decisions, key,
                 f"{trial.view.state.kingdoms[trial.player].name}'s hero {trial.label} is on a {kind} quest at "
                 f"{trial.view.map.label(quest.tower)} (MK-QST-12..14); resolve its attacks and nerve tests by hand: "
                 f"did the hero win?", ["won", "failed"])
    trial.section.add(f"{kind.capitalize()}: resolved by the game master: the hero {answer}")
    return answer == "won"


def _ordeal(trial: Trial, kind: str) -> str:
    """Courage or Endurance (MK-QST-12/13): the attacks at the hero, then its nerve test; the result."""
    section = f"quests.{kind}"
    bonus_key = "piercing" if trial.rules(f"{section}.mode") == SHOOTING else "crushing_strength"
    attack = kow.Attack(trial.rules(f"{section}.attacks"), trial.rules(f"{section}.to_hit"),
                        int(trial.view.rules.get(f"{section}.{bonus_key}", 0)),
                        bonus_key.replace("_", " ").title(), trial.rules(f"{section}.blast") == "d3")
    struck = kow.strike(trial.dice, trial.view.rules, attack, trial.hero.counters.get("de", 0),
                        f"{kind} quest {trial.quest.hero}")
    for line in struck.lines:
        trial.section.add(line)
    own = kow.applying(trial.view.rules, trial.hero.tags)
    test = kow.nerve(trial.dice, trial.view.rules, struck.damage, trial.hero.counters.get("waver", 0),
                     trial.hero.counters.get("rout", 0), f"{kind} quest {trial.quest.hero}", "headstrong" in own)
    trial.section.add(test.line)
    return test.result


def _passes(trial: Trial, kind: str, result: str) -> bool:
    need = trial.rules(f"quests.{kind}.pass")
    won = result != kow.ROUTED if need == "not_routed" else result == kow.STEADY
    trial.section.add(f"{kind.capitalize()}: the hero is {result}: " + _verdict(won))
    return won


def courage(trial: Trial) -> bool:
    if trial.rules("quests.resolution") == "gm":
        return _by_gm(trial, "courage")
    return _passes(trial, "courage", _ordeal(trial, "courage"))


def endurance(trial: Trial) -> bool:
    if trial.rules("quests.resolution") == "gm":
        return _by_gm(trial, "endurance")
    return _passes(trial, "endurance", _ordeal(trial, "endurance"))


def combat(trial: Trial) -> bool:
    """MK-QST-14: the Endurance test, then one attack at a De 5+, -/9 foe, which must rout."""
    if trial.rules("quests.resolution") == "gm":
        return _by_gm(trial, "combat")
    first = trial.rules("quests.combat.first")
    if not _passes(trial, first, _ordeal(trial, first)):
        return False
    attack = _hero_attack(trial)
    struck = kow.strike(trial.dice, trial.view.rules, attack, trial.rules("quests.combat.foe_def"),
                        f"combat quest {trial.quest.hero}")
    for line in struck.lines:
        trial.section.add(line)
    test = kow.nerve(trial.dice, trial.view.rules, struck.damage, 0, trial.rules("quests.combat.foe_rout"),
                     f"combat quest foe of {trial.quest.hero}")
    trial.section.add(test.line)
    won = test.result == kow.ROUTED
    trial.section.add("Combat: the foe " + ("routs: success" if won else "holds: failure"))
    return won


def _hero_attack(trial: Trial) -> kow.Attack:
    """MK-PBM-9: melee unless shooting was asked for and the hero has a Ra value."""
    c, own = trial.hero.counters, kow.applying(trial.view.rules, trial.hero.tags)
    if trial.quest.attack == SHOOTING and c.get("ra"):
        trial.section.add(f"{trial.label} shoots: {c.get('att', 0)} attacks at {c['ra']}+")
        return kow.Attack(c.get("att", 0), c["ra"], c.get("piercing", 0), "Piercing", rules=own)
    if trial.quest.attack == SHOOTING:
        trial.section.add(f"{trial.label} has no Ra value, so it attacks in melee (MK-PBM-9)")
    trial.section.add(f"{trial.label} attacks in melee: {c.get('att', 0)} attacks at {c.get('me', 0)}+")
    return kow.Attack(c.get("att", 0), c.get("me", 0), c.get("crushing_strength", 0), "Crushing Strength", rules=own)


TESTS = {"chance": chance, "speed": speed, "agility": agility, "courage": courage, "endurance": endurance,
         "combat": combat}


def table_problems(rules: RuleBook) -> list[str]:
    """A quest table the processor could not play by: unknown types, or a final value (the die
    moved by up to `quests.max_adjust` either way) that no row covers."""
    table, out = rules.get("quests.table", []), []
    for n, row in enumerate(table, start=1):
        if row.get("type") not in TESTS:
            out.append(f"rules: quests.table row {n}: type {row.get('type')!r} is not one of {', '.join(TESTS)}")
    try:
        count, sides = dice_spec(rules["quests.die"])
    except ValueError:
        return out                                     # the rule book reports the die itself
    reach = int(rules.get("quests.max_adjust", 0))
    for value in range(count - reach, count * sides + reach + 1):
        if not any(row.get("min", 0) <= value <= row.get("max", -1) for row in table):
            out.append(f"rules: quests.table: no row covers the final value {value}")
    return out
