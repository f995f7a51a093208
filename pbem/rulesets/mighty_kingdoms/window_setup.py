"""Window S and the steps around it, all in turn 0.

`create` cannot roll dice (the engine hands a rule system no dice there), so the campaign
opens on an automatic stage, `opening`: it is ready at once, and the first tick resolves it,
rolling the initial player order (MK-SET-1) and publishing it with the map before window S
opens. Window S (`setup`) takes each player's army list, starting tiles, ring layout and army
place; its resolution places every kingdom in player order. A player whose list is missing
or refused owes it in the `lists` stage, whose deadline is the extension (MK-PBM-1 `gm`: the
GM is told); every list waits for the game master's APPROVE (MK-PBM-13) unless
`setup.list_approval = "auto"`. When every player has his army, month 1's Orders open.
"""

from __future__ import annotations

from collections.abc import Sequence

from pbem.kit.dice import Dice
from pbem.kit.hexes import HexMap
from pbem.kit.orders import IllegalOrder, quoted
from pbem.kit.players import named
from pbem.kit.texts import counted
from pbem.rulesets.base import Parsed, Player, Report
from pbem.rulesets.mighty_kingdoms import setup, setup_orders, standing
from pbem.rulesets.mighty_kingdoms.chronicle import Section, report
from pbem.rulesets.mighty_kingdoms.model import ORDERS, MKState, MKView
from pbem.rulesets.mighty_kingdoms.setup_help import call_context, help_text
from pbem.rulesets.phases import GMVerb, Lines, Outcome, Payload, Phase, Submissions

OPENING, SETUP, LISTS = "opening", "setup", "lists"
MKPhase = Phase[MKState, HexMap]
MKVerb = GMVerb[MKState, HexMap]


def phase_name(state: MKState) -> str:
    """Which of the three setup stages the campaign is in."""
    if not state.setup.rolled:
        return OPENING
    return LISTS if state.setup.placed else SETUP


def _report(view: MKView, title: str, sections: Sequence[Section], key: str) -> Report:
    out = report(view, title, sections, key)
    out.context["mk"]["setup"] = call_context(view)
    return out


# -- the opening: the initial player order -------------------------------------------------------
def parse_early(view: MKView, player: Player, lines: Lines) -> Parsed:
    reason = "the initial player order is being rolled; send your setup once the report naming it opens window S"
    return Parsed(payload={}, problems=[IllegalOrder(reason).at(no, line) for no, line in lines])


def open_setup(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    section = Section("Initial player order")
    setup.roll_order(view.state, dice, section)
    return Outcome(view.state, [_report(view, "setup opens", [section], "opening")])


# -- window S -------------------------------------------------------------------------------------
def everyone(view: MKView) -> list[str]:
    return list(view.state.order)


def parse_setup(view: MKView, player: Player, lines: Lines) -> Parsed:
    return setup_orders.parse(view, player, lines)


def missing_setup(view: MKView, player: Player, payload: Payload) -> list[str]:
    out = [] if payload.get("units") else ["your army list (one line per unit)"]
    out += [] if payload.get("start") else ["START (else the lowest-numbered free starting tile)"]
    out += [] if payload.get("rings") else ["RING (else the default layout)"]
    return out


def resolve_setup(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    state = view.state
    for player, payload in submissions.items():
        if payload.get("standing"):
            standing.apply(state, player, payload)
    section = Section("Setup")
    wishes = {p: setup_orders.wish_of(submissions.get(p, {})) for p in state.order}
    setup.place(state, view.map, view.rules, wishes, section)
    lists = Section("Army lists")
    alerts = [f"{state.kingdoms[p].name} ({p}) found no free starting tile: the map has too few for its players "
              "(or rings cover them); the kingdom holds nothing until you move the campaign to a position that "
              "places it (pbem import)" for p in state.order if not state.kingdoms[p].start_tile]
    for player in state.order:
        alerts += take_list(view, player, submissions.get(player, {}), lists)
    return _closing(view, [section, lists], alerts, "kingdoms placed", "setup")


def take_list(view: MKView, player: str, payload: Payload, section: Section) -> list[str]:
    """A player's first army from his list, waiting for the GM (MK-PBM-13); a missing list is the GM's
    to hear of, and the player owes it in the list stage (MK-PBM-1)."""
    state, name = view.state, view.state.kingdoms[player].name
    tile = state.setup.army_at.get(player, "")
    if not tile:
        return []
    if not payload.get("units"):
        if player not in state.setup.missing:
            state.setup.missing.append(player)
        refused = str(payload.get(setup_orders.REFUSED, ""))
        section.add(f"{name}'s army list was refused; the list is still owed (MK-PBM-1)." if refused else
                    f"{name} sent no army list; the list is still owed (MK-PBM-1).")
        why = f"'s army list was refused ({refused})" if refused else " has no army list"
        return [f"{name}{why}: the deadline is extended for them. Settle it with "
                f"SETLIST {player} <unit> ; <unit> ... or NOARMY {player} if it never comes."]
    army = setup.raise_army(state, player, tile, payload["units"], str(payload.get("name", "")))
    del state.setup.army_at[player]
    state.setup.missing = [p for p in state.setup.missing if p != player]
    state.setup.noted.pop(player, None)
    size = f"{army.roster.points} points, {counted(len(army.roster.entries), 'unit')}"
    section.add(f"{name}'s army {army.id} ({size}) stands in {view.map.label(tile)}.")
    if view.rules["setup.list_approval"] == "gm":
        state.setup.pending.append(player)
        units = "; ".join(str(u) for u in payload["units"])
        return [f"{name}'s army list {army.id} ({size}) waits for your approval (MK-PBM-13); the units to "
                f"check: {units}. Send APPROVE {player}, or REJECT {player} <reason>"]
    return []


def _closing(view: MKView, sections: list[Section], alerts: list[str], title: str, key: str) -> Outcome[MKState]:
    """Month 1's Orders once every army list is in and approved; else the list stage."""
    state = view.state
    if not state.setup.missing and not state.setup.pending:
        state.calendar.month, state.calendar.window = 1, ORDERS
        opened = Section("The campaign begins")
        opened.add("Every kingdom is placed. Month 1 of year 1 begins with its Orders (MK-YR-4).")
        sections.append(opened)
        return Outcome(state, [report(view, title, sections, key)], gm_alerts=alerts, turn_finished=True)
    return Outcome(state, [_report(view, title, sections, key)], gm_alerts=alerts)


# -- the list stage -------------------------------------------------------------------------------
def owing_lists(view: MKView) -> list[str]:
    return [p for p in view.state.order if p in view.state.setup.missing]


def parse_lists(view: MKView, player: Player, lines: Lines) -> Parsed:
    parsed = setup_orders.parse(view, player, lines, placement=False)
    if player.id not in view.state.setup.missing and parsed.payload.get("units"):
        reason = ("your army list is written and stays as it is; only medals and scars change it (MK-SET-11)"
                  if player.id not in view.state.setup.pending else
                  "your army list waits for the game master's approval; he sends it back if it must change")
        parsed.problems.append(IllegalOrder(reason).at(*parsed.accepted[0]))
        parsed.accepted = [a for a in parsed.accepted if "|" not in a[1]]
        parsed.payload = {k: v for k, v in parsed.payload.items() if k not in ("units", "name")}
    return parsed


def lists_ready(view: MKView) -> bool:
    return not view.state.setup.missing and not view.state.setup.pending


def lists_wait_for_gm(view: MKView) -> bool:
    return not view.state.setup.missing and bool(view.state.setup.pending)


def resolve_lists(view: MKView, submissions: Submissions, dice: Dice) -> Outcome[MKState]:
    state, section, alerts = view.state, Section("Army lists"), []
    for player in owing_lists(view):
        if player in submissions and submissions[player].get("standing"):
            standing.apply(state, player, submissions[player])
        alerts += take_list(view, player, submissions.get(player, {}), section)
    return _closing(view, [section], alerts, "army lists", "lists")


def missing_list(view: MKView, player: Player, payload: Payload) -> list[str]:
    owed = player.id in view.state.setup.missing and not payload.get("units")
    return ["your army list (one line per unit)"] if owed else []


# -- the game master's verbs ------------------------------------------------------------------------
def _find(view: MKView, word: str) -> str:
    """The player a word names: his id, his kingdom's name or his own name ("" when none)."""
    person = view.settings.player(word)
    return next((p for p, k in view.state.kingdoms.items() if word.casefold() in (p.casefold(), k.name.casefold())),
                person.id if person is not None and person.id in view.state.kingdoms else "")


def _player(view: MKView, word: str) -> str:
    found = _find(view, word)
    if not found:
        raise ValueError(f"unknown player {quoted(word)}; the players are {', '.join(view.state.kingdoms)}")
    return found


def approve(view: MKView, words: Sequence[str]) -> str:
    """APPROVE <player> [<player> ...]|ALL, each by id, kingdom or name: the list is legal by the KoW
    composition rules too (MK-PBM-13)."""
    if not words:
        raise ValueError("usage: APPROVE <player> [<player> ...]|ALL")
    pending = view.state.setup.pending
    chosen = list(pending) if [w.upper() for w in words] == ["ALL"] else named(words, lambda w: _find(view, w))
    if not chosen or any(p not in pending for p in chosen):
        raise ValueError("no army list waits for approval" if not pending else
                         f"only these lists wait for approval: {', '.join(pending)}")
    view.state.setup.pending = [p for p in pending if p not in chosen]
    return "approved: " + ", ".join(f"{view.state.kingdoms[p].name}'s army list" for p in chosen)


def reject(view: MKView, words: Sequence[str]) -> str:
    """REJECT <player> <reason>: the list goes back; the player owes a new one (a fresh deadline)."""
    if len(words) < 2:
        raise ValueError("usage: REJECT <player> <reason the player is told>")
    state, player = view.state, _player(view, words[0])
    if player not in state.setup.pending:
        raise ValueError(f"{state.kingdoms[player].name}'s list does not wait for approval")
    army = state.armies_of(player)[0]
    state.setup.army_at[player] = army.tile
    del state.armies[army.id]
    state.setup.pending.remove(player)
    state.setup.missing.append(player)
    state.setup.noted[player] = " ".join(words[1:])
    return f"{state.kingdoms[player].name}'s list is sent back; they owe a new one by the next deadline"


def setlist(view: MKView, words: Sequence[str]) -> str:
    """SETLIST <player> <unit> ; <unit> ...: the GM enters a missing list himself, approved as he wrote it."""
    if len(words) < 2:
        raise ValueError("usage: SETLIST <player> <unit line> ; <unit line> ...")
    state, player = view.state, _player(view, words[0])
    if player not in state.setup.missing:
        raise ValueError(f"{state.kingdoms[player].name} owes no army list")
    units = [u.strip() for u in " ".join(words[1:]).split(";") if u.strip()]
    parsed = setup_orders.parse(view, Player(player, state.kingdoms[player].name, (), ""),
                                list(enumerate(units, 1)), placement=False)
    if parsed.problems:
        raise ValueError("; ".join(str(p) for p in parsed.problems))
    take_list(view, player, parsed.payload, Section(""))
    state.setup.pending = [p for p in state.setup.pending if p != player]
    return f"{state.kingdoms[player].name}'s army {state.armies_of(player)[0].id} is raised from your list"


def noarmy(view: MKView, words: Sequence[str]) -> str:
    """NOARMY <player>: the list never came; the kingdom starts without an army (MK-END-3 then applies)."""
    if len(words) != 1:
        raise ValueError("usage: NOARMY <player>")
    state, player = view.state, _player(view, words[0])
    if player not in state.setup.missing:
        raise ValueError(f"{state.kingdoms[player].name} owes no army list")
    state.setup.missing.remove(player)
    state.setup.army_at.pop(player, None)
    return f"{state.kingdoms[player].name} starts without an army"


VERBS = (
    MKVerb("APPROVE", "APPROVE <player> [<player> ...]|ALL",
           "approve first army lists as legal by the KoW rules (MK-PBM-13)",
           approve),
    MKVerb("REJECT", "REJECT <player> <reason>", "send a first army list back; the player owes a new one", reject),
    MKVerb("SETLIST", "SETLIST <player> <unit> ; <unit> ...", "enter a missing first army list yourself", setlist),
    MKVerb("NOARMY", "NOARMY <player>", "let a player whose list never came start without an army", noarmy),
)

OPENING_PHASE = MKPhase(title="initial player order", window="setup", parse=parse_early, resolve=open_setup,
                        ready=lambda view: True, help=help_text)
PHASE = MKPhase(title="window S", window="setup", parse=parse_setup, resolve=resolve_setup,
                owing=everyone, missing=missing_setup,
                canonical=lambda view, player, payload: setup_orders.canonical(payload), help=help_text,
                words=lambda view: setup_orders.WORDS)
LISTS_PHASE = MKPhase(title="army lists", window="lists", parse=parse_lists, resolve=resolve_lists,
                      owing=owing_lists, ready=lists_ready, waiting_for_gm=lists_wait_for_gm, missing=missing_list,
                      canonical=lambda view, player, payload: setup_orders.canonical(payload), help=help_text,
                      gm_verbs=VERBS, words=lambda view: setup_orders.WORDS)
PHASES = {OPENING: OPENING_PHASE, SETUP: PHASE, LISTS: LISTS_PHASE}
