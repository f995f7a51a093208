"""Post-battle sheets (DR-LOS-1, DR-EXP-1): what each army suffered, read from the battle window.

A sheet follows a `SHEET <battle>` line (or the `RESULT <battle>` line, or stands
alone when the faction fights one battle) and has one line per entry of the army
that fought, named by id or name:

    SHEET 1
    U1 lost 11                 infantry: 11 models lost (half or more: combat losses)
    U2 lost 3                  2-wound unit: 3 models lost
    U3 lost 0 [I, WS]          no casualties; stat preference for an experience choice
    U4 fled lost 1             fled off the table: not dead, judged on 1 real casualty
    U5 lost 2 half             lost half or more at some point (models came back)
    M1 left 1                  monster ended the battle on 1 wound
    M2 killed                  killed (not by fleeing)
    C1 killed                  character killed
    C3 wounds 0                character unwounded: may roll for experience
    PRIORITY U3 U4 U5 C3 C4    experience order (the sheet's order if none is given)

Words: `killed`/`dead`, `fled`, `lost N` (models, or wounds for a single model),
`wounds N` (a character's wounds suffered), `half`, `left N` (wounds left; on the
line of a unit of monsters, `left 1` says one of them ended on exactly 1 wound),
`start N` (size at the start, when it differs from the list's ledger), a stat
preference `[WS, I]` or `prefer WS I`, and `item <name>` (the item a dying
character loses, with `losses.item_lost = "player_choice"`). Entries not on the
sheet make no loss and no experience roll. A sheet with any error is not taken
at all, so a half-read sheet never rolls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.kit.orders import IllegalOrder, InvalidOrder, NameIndex, OrderProblem, quoted
from pbem.kit.roster import Entry, Roster

KEYWORDS = {"killed", "dead", "fled", "lost", "wounds", "half", "left", "start", "prefer", "item", "ok", "unhurt"}
STATS = {"ws": "WS", "bs": "BS", "s": "S", "t": "T", "i": "I", "ld": "Ld", "m": "M", "move": "M",
         "power": "power_die", "power_die": "power_die", "powerdie": "power_die", "pd": "power_die",
         "dispel": "dispel_die", "dispel_die": "dispel_die", "dispeldie": "dispel_die", "dd": "dispel_die"}
_NUMBERED = ("lost", "wounds", "left", "start")
_WRITTEN = {"power_die": "power", "dispel_die": "dispel"}     # as players type them, and read back


@dataclass
class SheetLine:
    entry: str                         # entry id
    killed: bool = False               # killed, and not only by fleeing (DR-LOS-3)
    fled: bool = False                 # fled off the table or ended the game in flight
    lost: int = 0                      # casualties: models, or wounds for a single model
    half: bool = False                 # lost half or more of its models at some point
    left: int = 0                      # wounds left at the end (0 = not said)
    start: int = 0                     # models (wounds for a single model) at the start; 0 = from the ledger
    prefer: list[str] = field(default_factory=list)
    item: str = ""

    def __str__(self) -> str:
        words = [self.entry] + (["killed"] if self.killed else []) + (["fled"] if self.fled else [])
        words += [f"lost {self.lost}"] + (["half"] if self.half else [])
        words += [f"left {self.left}"] if self.left else []
        words += [f"start {self.start}"] if self.start else []
        words += [f"[{', '.join(_WRITTEN.get(p, p) for p in self.prefer)}]"] if self.prefer else []
        words += [f"item {self.item}"] if self.item else []
        return " ".join(words)


@dataclass
class Sheet:
    battle: int
    army: str                          # the token whose list fought
    lines: list[SheetLine] = field(default_factory=list)
    priority: list[str] = field(default_factory=list)
    source: str = ""                   # "gm" when the game master entered or corrected it

    def line(self, entry: str) -> SheetLine | None:
        return next((s for s in self.lines if s.entry == entry), None)

    def format(self) -> list[str]:
        out = [f"SHEET {self.battle} {self.army}"] + [str(s) for s in self.lines]
        return out + ([f"PRIORITY {' '.join(self.priority)}"] if self.priority else [])


def stat(text: str) -> str:
    key = text.strip().lower()
    if key not in STATS:
        raise InvalidOrder(f"unknown stat {quoted(text)}", suggestion="WS, BS, S, T, I, Ld, M, power, dispel")
    return STATS[key]


def parse_line(roster: Roster, line: str) -> SheetLine:
    """One sheet line, checked against the army's roster (raises OrderProblem)."""
    prefer_text = ""
    bracket = re.search(r"\[([^\[\]]*)\]", line)      # no `[` inside: one pass over `[[[[...`
    if bracket:
        prefer_text, line = bracket.group(1), line[:bracket.start()] + line[bracket.end():]
    words = line.split()
    cut = next((i for i, w in enumerate(words) if w.lower() in KEYWORDS), len(words))
    if cut == 0:
        raise InvalidOrder("a sheet line starts with the entry's id or name, like `U1 lost 3`")
    entry, cut = _entry(roster, words, cut)
    out = SheetLine(entry.id, prefer=[stat(w) for w in re.split(r"[,\s]+", prefer_text) if w])
    _read_words(out, words[cut:])
    check_line(entry, out)
    return out


def _entry(roster: Roster, words: list[str], cut: int) -> tuple[Entry, int]:
    """The entry the line starts with: the longest run of words naming one, and where it ends."""
    found = roster.names().longest(words, 0, cut)
    if found is None:
        return roster.entry(" ".join(words[:cut])), cut      # raises the problem, with a suggestion
    entry = roster.get(found[0])
    assert entry is not None
    return entry, found[1]


def _read_words(out: SheetLine, words: list[str]) -> None:
    i = 0
    while i < len(words):
        word = words[i].lower()
        i += 1
        if word in ("killed", "dead"):
            out.killed = True
        elif word == "fled":
            out.fled = True
        elif word == "half":
            out.half = True
        elif word in _NUMBERED:
            if i >= len(words) or not words[i].isdigit():
                raise InvalidOrder(f"`{word}` needs a number, like `{word} 3`")
            setattr(out, "lost" if word == "wounds" else word, int(words[i]))
            i += 1
        elif word == "prefer":
            out.prefer += [stat(w) for w in words[i:]]
            i = len(words)
        elif word == "item":
            out.item = " ".join(words[i:])
            i = len(words)
        elif word not in ("ok", "unhurt"):
            raise _unknown_word(words[i - 1])
    if out.fled:
        out.killed = False                 # fled off the table is not dead for losses (DR-LOS-3)


SHEET_WORDS = ("killed", "fled", "lost", "wounds", "half", "left", "start", "prefer", "item")


def _unknown_word(word: str) -> InvalidOrder:
    """A word no sheet line has: the one it was meant to be when it is close to one (`lsot`)."""
    close = NameIndex({w: () for w in SHEET_WORDS}, what="word").suggest(word.lower())
    return InvalidOrder(f"unknown word {quoted(word)}; a sheet line reads killed, fled, lost N, wounds N, half, "
                        "left N, start N or [WS, I]", suggestion=close)


def check_line(e: Entry, s: SheetLine) -> None:
    """What a line may say about an entry of its kind (DR-LOS-1)."""
    single = e.models == 1
    if s.left and e.kind not in ("monster", "machine"):
        raise IllegalOrder(f"{e.id} is a {e.kind}: `left` is for monsters and machines")
    if s.left > e.wounds * e.models:
        raise IllegalOrder(f"{e.id} has only {e.wounds * e.models} wounds")
    if s.half and (single or e.kind == "character"):
        raise IllegalOrder(f"{e.id} is a single model: give its wounds lost, not `half`")
    if s.item and e.kind != "character":
        raise IllegalOrder(f"{e.id} is not a character: only characters lose items")
    size = s.start or (e.wounds * e.models if single else e.models)
    if s.lost > size:
        raise IllegalOrder(f"{e.id} lost {s.lost}, more than the {size} it has")
    if s.start and s.start > (e.wounds if single else e.models):
        raise IllegalOrder(f"{e.id} cannot start with {s.start}: its list has {e.wounds if single else e.models}")


def parse_sheet(roster: Roster, battle: int, lines: list[tuple[int, str]]
                ) -> tuple[Sheet | None, list[tuple[int, str]], list[OrderProblem]]:
    """A whole sheet (entry lines and PRIORITY); None when any line is wrong."""
    sheet = Sheet(battle, roster.army)
    accepted: list[tuple[int, str]] = []
    problems: list[OrderProblem] = []
    for no, line in lines:
        try:
            if line.split(maxsplit=1)[0].upper() == "PRIORITY":
                names = roster.names()
                sheet.priority = [names.lookup(w) for w in line.replace(",", " ").split()[1:]]
                accepted.append((no, f"PRIORITY {' '.join(sheet.priority)}"))
                continue
            parsed = parse_line(roster, line)
        except OrderProblem as problem:
            problems.append(problem.at(no, line))
            continue
        if sheet.line(parsed.entry):
            problems.append(IllegalOrder(f"{parsed.entry} is on the sheet twice; send one line per entry").at(no, line))
            continue
        sheet.lines.append(parsed)
        accepted.append((no, str(parsed)))
    return (None if problems else sheet), accepted, problems
