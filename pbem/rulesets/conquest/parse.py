"""Order lines of window S, window 1 and window 4: parse and format as pairs.

Window S (capitals), ranked left to right:

    CAPITAL T9, Greystone          cities in order of preference (COC-SET-8)
    NEWCITY T12, T14               tiles for a new city if no legal city is left

Window 1 (campaign orders), one line per entry, in order of preference:

    EVENT Land Grab                events by name, key or chart number (COC-EVT-5)
    EVENT Disaster -> Ben          targeted events name the target (COC-EVT-7)
    EVENT Building Boom: mine T6, castle T7     placements in order (COC-EVT-11)
    CHALLENGE Bob                  ranked challenge targets, with optional limits
    CHALLENGE Phil no_break        only_if_unchallenged, no_join, no_break (COC-CHL-14)
    STANDING individual            team | individual, if several challenge you (COC-CHL-16)
    SEA CHALLENGE Cara             naval module (COC-NAV-3)
    ASSAULT T50                    siege module: assault a siege you are running (COC-SIE-9); once
                                   per line, up to `siege.assaults_per_round` lines per siege
    CONSENT Anna                   siege module with `siege.assault_needs_consent`: who may assault
                                   your besieged castles and cities this round
    BATTLE ALL SIZE 2000 GOLD 50   standing battle settings when there is no window 2 (COC-TRN-5)

Window 4 (conquest and build), one action per line, alternates after ELSE:

    CLAIM T20
    CONQUER T22 ELSE CLAIM T23     (COC-SPD-3)
    SIEGE T50 ELSE CONQUER T50
    BUILD castle T21 / REPLACE port T5 / RAID T30 / PLUNDER T42
    CONSENT Anna, Ben              siege module: who may besiege you this round (COC-SIE-5)

Every problem names its line and, where a close name exists, a suggestion.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem, quoted
from pbem.kit.rulebook import RuleBook
from pbem.kit.texts import counted
from pbem.kit.tomlio import from_data, to_data
from pbem.rulesets.base import Parsed
from pbem.rulesets.conquest import battle_orders
from pbem.rulesets.conquest.challenges import ChallengeEntry
from pbem.rulesets.conquest.events import EventEntry
from pbem.rulesets.conquest.model import (
    BUILDINGS,
    TARGETED_EVENTS,
    ConquestState,
    Placement,
)
from pbem.rulesets.conquest.rules import event_names
from pbem.rulesets.conquest.spending import VERBS, Action
from pbem.rulesets.conquest.tiles import has_sea

LIMITS = ("only_if_unchallenged", "no_join", "no_break")
CHOICES = ("team", "individual")
WINDOW1_WORDS = ("EVENT", "CHALLENGE", "STANDING", "SEA", "ASSAULT", "CONSENT", "BATTLE")
WINDOW4_WORDS = (*[v.upper() for v in VERBS], "CONSENT")


class Reader:
    """Name lookups for one player's message: tiles, players, events, buildings."""

    def __init__(self, state: ConquestState, gmap: HexMap, rules: RuleBook, player: str) -> None:
        self.state = state
        self.gmap = gmap
        self.rules = rules
        self.player = player
        self.players = NameIndex({p: (e.name,) for p, e in state.empires.items()}, what="player")
        names = event_names(rules)
        numbers = {e["key"]: str(e["number"]) for e in rules["events.chart"]}
        self.events = NameIndex({k: (n, numbers[k], k.replace("_", " ")) for k, n in names.items()}, what="event")
        self.names = names
        self.buildings = NameIndex({b: () for b in BUILDINGS}, what="building")

    def tile(self, text: str) -> str:
        tile = self.gmap.lookup(text.strip())
        if tile not in self.state.tiles:
            raise IllegalOrder(f"{self.gmap.label(tile)} is sea, not a tile anyone can hold")
        return tile

    def who(self, text: str) -> str:
        return self.players.lookup(text.strip())

    def name(self, player: str) -> str:
        return self.state.empires[player].name


def _split(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _each(lines: Sequence[tuple[int, str]], handle: Callable[[int, str], str]) -> tuple[
        list[tuple[int, str]], list[OrderProblem]]:
    accepted, problems = [], []
    for no, line in lines:
        try:
            accepted.append((no, handle(no, line)))
        except OrderProblem as exc:
            problems.append(exc.at(no, line))
    return accepted, problems


def _unknown(word: str, allowed: Sequence[str]) -> NotAnOrder:
    close = NameIndex({w: () for w in allowed}, what="order").suggest(word)
    return NotAnOrder(f"{quoted(word)} is not an order here; this window takes {', '.join(allowed)}", suggestion=close)


# -- window S ----------------------------------------------------------------------------
def parse_capitals(reader: Reader, lines: Sequence[tuple[int, str]]) -> Parsed:
    wish: dict[str, list[str]] = {"cities": [], "new_city": []}

    def handle(no: int, line: str) -> str:
        word, _, rest = line.partition(" ")
        key = {"CAPITAL": "cities", "NEWCITY": "new_city"}.get(word.upper())
        if key is None:
            raise _unknown(word, ("CAPITAL", "NEWCITY"))
        tiles = [reader.tile(t) for t in _split(rest)]
        if not tiles:
            raise InvalidOrder(f"{word.upper()} needs one or more tiles, e.g. {word.upper()} T9, T12")
        wish[key] = tiles
        return f"{word.upper()} {', '.join(reader.gmap.label(t) for t in tiles)}"

    accepted, problems = _each(lines, handle)
    payload = {"capital": wish} if accepted else {}
    return Parsed(payload=payload, accepted=accepted, problems=problems)


# -- window 1 ----------------------------------------------------------------------------
def parse_event(reader: Reader, text: str) -> EventEntry:
    body, _, places = text.partition(":")
    body, arrow, target = body.partition("->")
    words = body.split()
    if not words:
        raise InvalidOrder("EVENT needs an event, e.g. EVENT Land Grab")
    found = reader.events.longest(words)      # the longest event name, the rest is the target
    if found is None:
        wanted = " ".join(words)
        close = reader.events.suggest(wanted)
        raise InvalidOrder(f"unknown event {quoted(wanted)}", suggestion=reader.names.get(close, close))
    key, cut = found
    if not arrow and cut < len(words):
        target = " ".join(words[cut:])
    entry = EventEntry(key)
    if key in TARGETED_EVENTS:
        if not target.strip():
            raise InvalidOrder(f"{reader.names[key]} needs a target player, e.g. EVENT {reader.names[key]} -> Ben")
        entry.target = reader.who(target)
    elif target.strip():
        raise InvalidOrder(f"{reader.names[key]} takes no target")
    if places.strip():
        if key != "building_boom":
            raise InvalidOrder(f"only Building Boom takes placements, not {reader.names[key]}")
        for place in _split(places):
            parts = place.split()
            if len(parts) < 2:
                raise InvalidOrder(f"placement {quoted(place)}: give a building and a tile, e.g. mine T6")
            entry.placements.append(Placement(reader.buildings.lookup(parts[0]), reader.tile(" ".join(parts[1:]))))
    return entry


def format_event(reader: Reader, entry: EventEntry) -> str:
    text = f"EVENT {reader.names.get(entry.event, entry.event)}"
    if entry.target:
        text += f" -> {reader.name(entry.target)}"
    if entry.placements:
        text += ": " + ", ".join(f"{p.building} {p.tile}" for p in entry.placements)
    return text


def parse_challenge(reader: Reader, text: str) -> ChallengeEntry:
    words = text.split()
    limits = [w.lower() for w in words if w.lower() in LIMITS]
    name = " ".join(w for w in words if w.lower() not in LIMITS)
    if not name:
        raise InvalidOrder("CHALLENGE needs a player, e.g. CHALLENGE Bob no_break")
    target = reader.who(name)
    if target == reader.player:
        raise IllegalOrder("you cannot challenge yourself")
    return ChallengeEntry(target, *(lim in limits for lim in LIMITS))


def format_challenge(reader: Reader, entry: ChallengeEntry, sea: bool = False) -> str:
    limits = [k for k in LIMITS if getattr(entry, k)]
    return " ".join(["SEA CHALLENGE" if sea else "CHALLENGE", reader.name(entry.target), *limits])


def parse_campaign(reader: Reader, lines: Sequence[tuple[int, str]], setup_window: bool) -> Parsed:
    payload: dict[str, Any] = {"events": [], "challenges": [], "sea": [], "assaults": []}
    battle_lines: list[tuple[int, str]] = []

    def handle(no: int, line: str) -> str:
        word, _, rest = line.partition(" ")
        verb = word.upper()
        if verb == "EVENT":
            entry = parse_event(reader, rest)
            payload["events"].append(to_data(entry))
            return format_event(reader, entry) + legal_note(reader, entry)
        if verb == "CHALLENGE":
            target = parse_challenge(reader, rest)
            payload["challenges"].append(to_data(target))
            return format_challenge(reader, target)
        if verb == "SEA":
            sea_allowed(reader)
            at_sea = parse_challenge(reader, re.sub(r"^\s*challenge\s+", "", rest, flags=re.IGNORECASE))
            payload["sea"].append(to_data(at_sea))
            return format_challenge(reader, at_sea, sea=True)
        if verb == "STANDING":
            choice = rest.strip().lower()
            if choice not in CHOICES:
                raise InvalidOrder("STANDING takes team or individual", suggestion="STANDING team")
            payload["standing"] = choice
            return f"STANDING {choice}"
        if verb == "ASSAULT":
            return assault(reader, rest, payload)
        if verb == "CONSENT":
            return assault_consent(reader, rest, payload)
        if verb == "BATTLE":
            if setup_window:
                raise IllegalOrder("battle settings are sent in the battle setup window, after the battle list")
            battle_lines.append((no, rest))
            return f"BATTLE {rest.strip()}"
        raise _unknown(word, WINDOW1_WORDS)

    accepted, problems = _each(lines, handle)
    if battle_lines:
        standing = battle_orders.parse_setup(reader.state, reader.player, battle_lines, reader.rules)
        problems += standing.problems
        payload.update(standing.payload)
    payload = {k: v for k, v in payload.items() if v or k == "assault_consent"}
    return Parsed(payload=payload, accepted=accepted, problems=sorted(problems, key=lambda p: p.line_no))


def legal_note(reader: Reader, entry: EventEntry) -> str:
    """COC-TRN-3: whether a ranked entry could be taken right now (nobody has picked yet)."""
    if entry.target and entry.target not in reader.state.active():
        return "  (not legal now: the target is out of the game)"
    return ""


def assault(reader: Reader, rest: str, payload: dict[str, Any]) -> str:
    if not reader.rules["siege.enabled"]:
        raise IllegalOrder("sieges are not used in this campaign (siege.enabled)")
    tile = reader.tile(rest)
    siege = reader.state.siege_at(tile)
    if siege is None or siege.besieger != reader.player:
        raise IllegalOrder(f"you are not besieging {reader.gmap.label(tile)}")
    limit = int(reader.rules["siege.assaults_per_round"])
    if payload["assaults"].count(tile) >= limit:
        raise IllegalOrder(f"at most {counted(limit, 'assault')} per siege and round (siege.assaults_per_round); "
                           f"{tile} is already listed")
    payload["assaults"].append(tile)
    return f"ASSAULT {tile}"


def sea_allowed(reader: Reader) -> None:
    """COC-NAV-1: sea challenges need the naval module, a naval player, and a map with sea."""
    rules = reader.rules
    if not rules["naval.enabled"]:
        raise IllegalOrder("naval operations are not used in this campaign (naval.enabled), so there are no "
                           "sea challenges")
    if not has_sea(reader.gmap):
        raise IllegalOrder(f"the map {reader.gmap.name!r} has no sea, so there are no sea challenges (COC-NAV-1)")
    if reader.player not in rules["naval.players"]:
        raise IllegalOrder("you are not a naval player in this campaign (naval.players)")


def assault_consent(reader: Reader, rest: str, payload: dict[str, Any]) -> str:
    """Window 1 with `siege.assault_needs_consent`: the besiegers who may assault you this round."""
    if not reader.rules["siege.enabled"]:
        raise IllegalOrder("sieges are not used in this campaign (siege.enabled)")
    if not reader.rules["siege.assault_needs_consent"]:
        raise IllegalOrder("siege assaults need no consent in this campaign (siege.assault_needs_consent = false); "
                           "CONSENT belongs in the conquest window")
    allowed = [reader.who(n) for n in _split(rest)]
    payload["assault_consent"] = allowed
    return "CONSENT " + (", ".join(reader.name(p) for p in allowed) or "nobody")


def event_lists(payloads: Mapping[str, Mapping[str, Any]]) -> dict[str, list[EventEntry]]:
    return {p: [from_data(EventEntry, e) for e in s["events"]] for p, s in payloads.items() if "events" in s}


def challenge_lists(payloads: Mapping[str, Mapping[str, Any]], key: str = "challenges"
                    ) -> dict[str, list[ChallengeEntry]]:
    return {p: [from_data(ChallengeEntry, e) for e in s[key]] for p, s in payloads.items() if key in s}


# -- window 4 ----------------------------------------------------------------------------
def parse_action(reader: Reader, text: str) -> Action:
    words = text.split()
    verb = words[0].lower() if words else ""
    if verb not in VERBS:
        raise _unknown(words[0] if words else "", [v.upper() for v in VERBS])
    rest = words[1:]
    building = ""
    if verb in ("build", "replace"):
        if len(rest) >= 3 and rest[-2].lower() == "with":        # REPLACE T5 WITH port
            building, rest = reader.buildings.lookup(rest[-1]), rest[:-2]
        elif rest:
            building, rest = reader.buildings.lookup(rest[0]), rest[1:]
        if not building or not rest:
            raise InvalidOrder(f"{verb.upper()} needs a building and a tile, e.g. {verb.upper()} castle T21")
    if not rest:
        raise InvalidOrder(f"{verb.upper()} needs a tile, e.g. {verb.upper()} T20")
    return Action(verb, reader.tile(" ".join(rest)), building)


def format_action(options: Sequence[Action]) -> str:
    return " ELSE ".join(" ".join(filter(None, [a.verb.upper(), a.building, a.tile])) for a in options)


def parse_conquest(reader: Reader, lines: Sequence[tuple[int, str]]) -> Parsed:
    payload: dict[str, Any] = {"actions": []}

    def handle(no: int, line: str) -> str:
        word, _, rest = line.partition(" ")
        if word.upper() == "CONSENT":
            allowed = [reader.who(n) for n in _split(rest)]
            payload["consent"] = allowed
            return "CONSENT " + (", ".join(reader.name(p) for p in allowed) or "nobody")
        options = [parse_action(reader, part) for part in re.split(r"\s+ELSE\s+", line, flags=re.IGNORECASE)]
        payload["actions"].append({"options": [to_data(a) for a in options]})
        return format_action(options)

    accepted, problems = _each(lines, handle)
    payload = {k: v for k, v in payload.items() if v or k == "consent"}
    return Parsed(payload=payload if accepted else {}, accepted=accepted, problems=problems)


def action_lists(payloads: Mapping[str, Mapping[str, Any]]) -> dict[str, list[list[Action]]]:
    return {p: [[from_data(Action, a) for a in entry["options"]] for entry in s.get("actions", [])]
            for p, s in payloads.items()}
