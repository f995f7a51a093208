"""Reading order lines (the Turn structure for play by email): each window's verbs, every line
checked as far as the position allows at intake, kept in canonical form. A window's payload is
`{"orders": [canonical lines]}`; the resolution reads those lines again (`read`), so what the
ack quotes is exactly what runs. Troops, squads and territories are named by id; cards by
catalog name, case-insensitive, an unknown one answered with the nearest names (SWM-ROS-2).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, NotAnOrder, OrderProblem, quoted
from pbem.rulesets.star_wars_miniatures import upgrades as up
from pbem.rulesets.star_wars_miniatures.catalog import LABELS
from pbem.rulesets.star_wars_miniatures.model import (
    ACTION,
    BATTLE,
    ECONOMICS,
    FACTIONS,
    INITIATIVE,
    SQUADS,
)
from pbem.rulesets.star_wars_miniatures.world import World

STANDING = ("ALLY", "STANCE", "PREFER", "BREAKUP", "OVERSTACK")
WORDS = {
    FACTIONS: ("PICK", "REGION"),      # not FACTION: the envelope reads "FACTION <name> <secret>" as a signature
    SQUADS: ("SQUAD", "XP", "UPGRADE", *STANDING),
    INITIATIVE: ("UPGRADE", "TRAIN", *STANDING),
    ECONOMICS: ("GIVE", "ELIMINATE", "BUILD", "REINFORCE", "BUY", "OPERATIVE", "SHUTTLE", "TRANSFER"),
    ACTION: ("MOVE", "STRATEGIC", "RETREAT", "MINE-REROLL"),
    BATTLE: ("WINNER", "KILLED", "FLED", "RETREAT", "MOVE", "STRATEGIC", "MINE-REROLL"),
}
ADVANTAGES = ("intelligence_officer", "logistics_officer", "training_officer", "medical_officer", "fortify",
              "minefield")
_TIMES = re.compile(r"^(.*?)\s+[xX](\d+)$")
_LABEL = re.compile(r"^(.*?)\s*\(([^()]+)\)$")


class Reader:
    """Reads one player's lines in one window against the position as it stands."""

    def __init__(self, world: World, player: str, window: str) -> None:
        self.world, self.player, self.window = world, player, window
        self.verbs: dict[str, Callable[[list[str], str], str]] = {
            "PICK": self.faction, "REGION": self.region, "SQUAD": self.squad, "XP": self.xp,
            "UPGRADE": self.upgrade, "TRAIN": self.train, "ALLY": self.ally, "STANCE": self.stance,
            "PREFER": self.prefer, "BREAKUP": self.breakup, "OVERSTACK": self.overstack, "GIVE": self.give,
            "ELIMINATE": self.eliminate, "BUILD": self.build, "REINFORCE": self.reinforce, "BUY": self.buy,
            "OPERATIVE": self.operative, "SHUTTLE": self.shuttle, "TRANSFER": self.transfer, "MOVE": self.move,
            "STRATEGIC": self.strategic, "RETREAT": self.retreat, "MINE-REROLL": self.mine_reroll,
            "WINNER": self.winner, "KILLED": self.killed, "FLED": self.fled,
        }

    def line(self, text: str) -> str:
        """The canonical form of one line, or an OrderProblem naming what is wrong."""
        words = text.split()
        verb = words[0].upper() if words else ""
        allowed = WORDS[self.window]
        if verb not in allowed:
            shown = [v for v in allowed if v != "TRANSFER" or self.world.book["squad.allow_transfers"]]
            near = NameIndex({v: () for v in shown}, what="order").suggest(verb)
            raise NotAnOrder(f"{quoted(words[0] if words else text)} is not an order of this window; "
                             f"it takes {', '.join(shown)}", suggestion=near)
        if self.window == ECONOMICS and " ELSE " in f" {text.upper()} ":
            return self.alternatives(text)
        return self.verbs[verb](words[1:], text)

    def alternatives(self, text: str) -> str:
        parts = re.split(r"\s+ELSE\s+", text, flags=re.IGNORECASE)
        return " ELSE ".join(self.line(p) for p in parts)

    # -- names ----------------------------------------------------------------------------
    def place(self, word: str) -> str:
        return self.world.places.lookup(word)

    def my_squad(self, word: str) -> str:
        for squad in self.world.state.squads_of(self.player):
            if squad.id.casefold() == word.casefold():
                return squad.id
        mine = ", ".join(s.id for s in self.world.state.squads_of(self.player)) or "none"
        raise IllegalOrder(f"{quoted(word)} is not one of your squads (yours: {mine})")

    def my_troop(self, word: str) -> str:
        found = self.world.state.troop(word)
        if found is None or found[0].owner != self.player:
            raise IllegalOrder(f"{quoted(word)} is not one of your troops in service (see the rosters in the report)")
        return found[1].id

    def player_id(self, word: str) -> str:
        for pid in self.world.state.players:
            if pid.casefold() == word.casefold():
                return pid
        raise InvalidOrder(f"unknown player {quoted(word)}; players: {', '.join(self.world.state.players)}")

    def cards(self, text: str) -> str:
        """`Elite Trooper x5, Imperial Officer, Mas Amedda (Imperial)`, or separated by ";": card
        names may hold commas ("Darth Vader, Sith Lord"); the canonical form uses ";"."""
        pieces = [p.strip() for p in re.split(";" if ";" in text else ",", text) if p.strip()]
        out, i = [], 0
        while i < len(pieces):
            for size in range(min(3, len(pieces) - i), 0, -1):
                chunk = ", ".join(pieces[i:i + size])
                found = self._card(chunk, exact=size > 1)
                if found:
                    out.append(found)
                    i += size
                    break
            else:
                raise InvalidOrder(f"no troops after the colon in {quoted(text)}")
        if not out:
            raise InvalidOrder("name the troops after the colon: <card> x<n>, <card>, ...")
        return "; ".join(out)

    def _card(self, chunk: str, exact: bool) -> str:
        name, times = chunk, 1
        if (m := _TIMES.match(name)) is not None:
            name, times = m[1], int(m[2])
        label = ""
        if (m := _LABEL.match(name)) is not None:
            name, label = m[1], m[2]
        if exact and self.world.catalog.get(name) is None:
            return ""
        mini = self.world.catalog.lookup(name)
        if label and label not in mini.labels:
            raise IllegalOrder(f"{mini.name} carries {', '.join(mini.labels)}, not {quoted(label)} (SWM-ROS-4)")
        shown = mini.name + (f" ({label})" if label and label != mini.labels[0] else "")
        return shown + (f" x{times}" if times > 1 else "")

    # -- window S1 -----------------------------------------------------------------------
    def faction(self, words: list[str], text: str) -> str:
        wanted = " ".join(words)
        keys = {k: (s["name"],) for k, s in self.world.book.section("factions").items()}
        return f"PICK {NameIndex(keys, what='faction').lookup(wanted)}"

    def region(self, words: list[str], text: str) -> str:
        if not words:
            raise InvalidOrder("write REGION <region id> [IF <faction>]")
        regions = NameIndex({r: (g.name,) for r, g in self.world.places.regions.items()}, what="region")
        upper = [w.upper() for w in words]
        cut = upper.index("IF") if "IF" in upper else len(words)
        ident = regions.lookup(" ".join(words[:cut]))
        return f"REGION {ident}" + (f" IF {self.faction(words[cut + 1:], text)[5:]}" if cut < len(words) else "")

    # -- window S2 and CI ----------------------------------------------------------------
    def squad(self, words: list[str], text: str) -> str:
        head, colon, rest = text.partition(":")
        name = head.split(None, 1)[1].strip() if len(head.split(None, 1)) > 1 else ""
        if not colon or not name:
            raise InvalidOrder("write SQUAD <name>: <card> x<n>, <card>, ...")
        return f"SQUAD {name}: {self.cards(rest)}"

    def xp(self, words: list[str], text: str) -> str:
        if len(words) != 2 or not words[0].isdigit() or not words[1].isdigit():
            raise InvalidOrder("write XP <troop number in your SQUAD line> <amount>")
        return f"XP {int(words[0])} {int(words[1])}"

    def upgrade(self, words: list[str], text: str) -> str:
        body, _, detail = text.partition(":")
        parts = body.split()[1:]
        if len(parts) < 2:
            raise InvalidOrder("write UPGRADE <troop> <upgrade> [: <unique it names>]")
        who = parts[0] if self.window == SQUADS else self.my_troop(parts[0])
        if self.window == SQUADS and not who.isdigit():
            raise InvalidOrder("in the starting squad, name the troop by its number in your SQUAD line")
        name = up.index(self.world.book).lookup(" ".join(parts[1:]))
        detail = detail.strip()
        if detail:
            detail = self.world.catalog.lookup(detail).name
        return f"UPGRADE {who} {name}" + (f": {detail}" if detail else "")

    def train(self, words: list[str], text: str) -> str:
        if len(words) != 1:
            raise InvalidOrder("write TRAIN <troop>")
        return f"TRAIN {self.my_troop(words[0])}"

    def ally(self, words: list[str], text: str) -> str:
        members = sorted({self.player_id(w) for w in words} | {self.player})
        if len(members) < 2:
            raise InvalidOrder("name every member of the alliance, yourself included: ALLY <player> <player> ...")
        return "ALLY " + " ".join(members)

    def stance(self, words: list[str], text: str) -> str:
        if len(words) != 1 or words[0].lower() not in ("early", "late"):
            raise InvalidOrder("write STANCE early or STANCE late")
        return f"STANCE {words[0].lower()}"

    def prefer(self, words: list[str], text: str) -> str:
        bad = [w for w in words if not re.fullmatch(r"[FBfb]\d{1,2}", w)]
        if not words or bad:
            raise InvalidOrder("write PREFER and slot labels such as F1 B1 F2 (Fk from the front, Bk from the back)")
        return "PREFER " + " ".join(w.upper() for w in words)

    def breakup(self, words: list[str], text: str) -> str:
        squad, places = self._to(words, "BREAKUP <squad> TO <territory> ...")
        return f"BREAKUP {self.my_squad(squad)} TO {' '.join(places)}"

    def overstack(self, words: list[str], text: str) -> str:
        upper = [w.upper() for w in words]
        if len(words) < 3 or upper[1] != "ELIMINATE":
            raise InvalidOrder("write OVERSTACK <territory> ELIMINATE <squad> ...")
        return f"OVERSTACK {self.place(words[0])} ELIMINATE " + " ".join(self.my_squad(w) for w in words[2:])

    def _to(self, words: list[str], usage: str) -> tuple[str, list[str]]:
        upper = [w.upper() for w in words]
        if len(words) < 3 or upper[1] != "TO":
            raise InvalidOrder(f"write {usage}")
        return words[0], [self.place(w) for w in words[2:]]

    # -- window E ------------------------------------------------------------------------
    def give(self, words: list[str], text: str) -> str:
        if len(words) != 2 or not words[1].isdigit():
            raise InvalidOrder("write GIVE <player> <amount>")
        return f"GIVE {self.player_id(words[0])} {int(words[1])}"

    def eliminate(self, words: list[str], text: str) -> str:
        if len(words) != 1:
            raise InvalidOrder("write ELIMINATE <troop>")
        return f"ELIMINATE {self.my_troop(words[0])}"

    def build(self, words: list[str], text: str) -> str:
        name, rest = _named_cards(text, "write BUILD <squad name, one word>: <card> x<n>, <card>, ...")
        return f"BUILD {name}: {self.cards(rest)}"

    def reinforce(self, words: list[str], text: str) -> str:
        name, rest = _named_cards(text, "write REINFORCE <squad>: <card> x<n>, ...")
        return f"REINFORCE {self.my_squad(name)}: {self.cards(rest)}"

    def buy(self, words: list[str], text: str) -> str:
        key = _advantages().lookup(words[0] if words else "")
        if key in ("fortify", "minefield"):
            if len(words) != 2:
                raise InvalidOrder(f"write BUY {key} <territory>")
            return f"BUY {key} {self.place(words[1])}"
        return f"BUY {key}"

    def operative(self, words: list[str], text: str) -> str:
        mode = words[0].upper() if words else ""
        if mode == "DISRUPT" and len(words) == 2:
            return f"OPERATIVE DISRUPT {self.place(words[1])}"
        if mode == "ASSASSINATE" and len(words) in (3, 4):
            key = _advantages().lookup(words[2])
            where = f" {self.place(words[3])}" if len(words) == 4 else ""
            return f"OPERATIVE ASSASSINATE {self.player_id(words[1])} {key}{where}"
        raise InvalidOrder("write OPERATIVE ASSASSINATE <player> <advantage> [territory] or OPERATIVE DISRUPT "
                           "<territory>")

    def shuttle(self, words: list[str], text: str) -> str:
        squad, places = self._to(words, "SHUTTLE <squad> TO <territory>")
        if len(places) != 1:
            raise InvalidOrder("a shuttle goes to one territory: SHUTTLE <squad> TO <territory>")
        return f"SHUTTLE {self.my_squad(squad)} TO {places[0]}"

    def transfer(self, words: list[str], text: str) -> str:
        """A32: only with `squad.allow_transfers = true` (economics.transfer says what it checks)."""
        if not self.world.book["squad.allow_transfers"]:
            raise IllegalOrder("troops stay in the squad they were bought into (SWM-UPG-17); this campaign allows "
                               "no transfers between squads")
        if len(words) != 3 or words[1].upper() != "TO":
            raise InvalidOrder("write TRANSFER <troop> TO <squad>")
        return f"TRANSFER {self.my_troop(words[0])} TO {self.my_squad(words[2])}"

    # -- window A ------------------------------------------------------------------------
    def in_slot(self, verb: str) -> None:
        """SWM-PBM-11 in window B: a side whose slot has not started may replace its action orders
        (not with `action.revise_until_slot = false`); the acting side only its STRATEGIC order."""
        state = self.world.state
        if self.window != BATTLE:
            return
        slot = next((n for n, side in enumerate(state.sides) if self.player in side), -1)
        if slot == state.slot and verb == "MOVE":
            raise IllegalOrder("your side's slot has started and its moves are made; only STRATEGIC may "
                               "still be replaced")
        if slot < state.slot:
            raise IllegalOrder(f"your side's slot is over this turn; {verb} waits for next turn's action window")
        if slot > state.slot and not self.world.book["action.revise_until_slot"]:
            raise IllegalOrder("action orders are fixed when the action window closes in this campaign "
                               "(action.revise_until_slot = false); yours stand as sent")

    def move(self, words: list[str], text: str) -> str:
        self.in_slot("MOVE")
        if len(words) < 2:
            raise InvalidOrder("write MOVE <squad> <territory> <territory> ...")
        return f"MOVE {self.my_squad(words[0])} " + " ".join(self.place(w) for w in words[1:])

    def strategic(self, words: list[str], text: str) -> str:
        self.in_slot("STRATEGIC")
        options = re.split(r"\s+ELSE\s+", " ".join(words), flags=re.IGNORECASE)
        out = []
        for option in options:
            squad, places = self._to(option.split(), "STRATEGIC <squad> TO <territory> [ELSE <squad> TO ...]")
            out.append(f"{self.my_squad(squad)} TO {places[0]}")
        return "STRATEGIC " + " ELSE ".join(out)

    def retreat(self, words: list[str], text: str) -> str:
        who, places = self._to(words, "RETREAT <squad>|ALL TO <territory> ...")
        name = "ALL" if who.upper() == "ALL" else self.my_squad(who)
        return f"RETREAT {name} TO {' '.join(places)}"

    def mine_reroll(self, words: list[str], text: str) -> str:
        upper = [w.upper() for w in words]
        most = 1
        if "MAX" in upper:
            cut = upper.index("MAX")
            if cut + 1 >= len(words) or not words[cut + 1].isdigit():
                raise InvalidOrder("write MINE-REROLL <troop> [MAX <n>]")
            most, words = int(words[cut + 1]), words[:cut]
        return f"MINE-REROLL {self.my_troop(' '.join(words))} MAX {most}"

    # -- window B ------------------------------------------------------------------------
    def winner(self, words: list[str], text: str) -> str:
        battles = {b.id.casefold(): b.id for b in self.world.state.battles}
        if len(words) != 2 or words[0].casefold() not in battles or words[1].lower() not in ("attacker", "defender",
                                                                                            "none"):
            raise InvalidOrder(f"write WINNER <battle> attacker|defender|none; open battles: "
                               f"{', '.join(battles.values()) or 'none'}")
        return f"WINNER {battles[words[0].casefold()]} {words[1].lower()}"

    def killed(self, words: list[str], text: str) -> str:
        upper = [w.upper() for w in words]
        if len(words) != 3 or upper[1] != "BY":
            raise InvalidOrder("write KILLED <troop> BY <troop>|reserve|mine|none")
        killer = words[2].lower() if words[2].lower() in ("reserve", "mine", "none") else self._fighter(words[2])
        return f"KILLED {self._fighter(words[0])} BY {killer}"

    def fled(self, words: list[str], text: str) -> str:
        if len(words) != 1:
            raise InvalidOrder("write FLED <troop>")
        return f"FLED {self._fighter(words[0])}"

    def _fighter(self, word: str) -> str:
        if word.casefold().startswith("reserve:"):
            return "reserve:" + self.world.catalog.lookup(word.split(":", 1)[1]).name
        found = self.world.state.troop(word)
        fighting = {s for b in self.world.state.battles for s in b.attackers + b.defenders}
        if found is None or found[0].id not in fighting:
            raise IllegalOrder(f"{quoted(word)} is not a troop of an open battle")
        return found[1].id


def read_lines(reader: Reader, lines: Sequence[tuple[int, str]]
               ) -> tuple[list[str], list[tuple[int, str]], list[OrderProblem]]:
    """(canonical lines, accepted (number, line), problems located on their lines)."""
    kept: list[str] = []
    accepted: list[tuple[int, str]] = []
    problems: list[OrderProblem] = []
    for no, text in lines:
        try:
            line = reader.line(text)
            if line in kept and line.split()[0] in ("PICK", "REGION", "MOVE", "SQUAD"):
                raise IllegalOrder(f"{quoted(line)} is already on an earlier line: each entry once")
            kept.append(line)
            accepted.append((no, text))
        except OrderProblem as exc:
            problems.append(exc.at(no, text))
    return kept, accepted, problems


def _advantages() -> NameIndex:
    return NameIndex({a: (a.replace("_", " "),) for a in ADVANTAGES}, what="advantage")


def card_list(text: str) -> list[tuple[str, str]]:
    """Canonical `Card x5; Card (Label)` -> [(card, label)], one pair per troop."""
    return [pair for chunk in text.split(";") if chunk.strip() for pair in _expand(chunk.strip())]


def _expand(chunk: str) -> list[tuple[str, str]]:
    name, times = chunk, 1
    if (m := _TIMES.match(name)) is not None:
        name, times = m[1], int(m[2])
    label = ""
    if (m := _LABEL.match(name)) is not None and m[2] in LABELS:
        name, label = m[1], m[2]
    return [(name, label)] * times


def _named_cards(text: str, syntax: str) -> tuple[str, str]:
    """`VERB <one word>: <cards>` as the word and the card list, else the syntax as the reason."""
    head, colon, rest = text.partition(":")
    parts = head.split()
    if not colon or len(parts) != 2:
        raise InvalidOrder(syntax)
    return parts[1], rest
