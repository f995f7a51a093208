"""A player's words for life between deadlines: ABSENT, STANDING and MAIL.

    ABSENT 2027-05-05 2027-05-09 on holiday   away those days (pbem/stages/absence.py); every
                                              player and the GM hear of it
    ABSENT NONE                               withdraw absences not yet over
    STANDING                                  the orders of this mail also stand for later
                                              stages of this kind while he is away
    MAIL immediate|digest|reports-only        how his mail comes (pbem/delivery/digest.py)

Each returns the notes its acknowledgement shows, or raises ValueError with what to send instead
(the acknowledgement lists it with the line it came from).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from pbem.delivery import calendar
from pbem.delivery.digest import CHOICES, choose
from pbem.delivery.replies import Outcome, Reply
from pbem.intake.answers import answer
from pbem.intake.envelope import Envelope, campaign_tag
from pbem.mail.message import Submission
from pbem.rulesets.base import Stage
from pbem.stages import absence
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign, Player

WORDS = ("ABSENT", "STANDING", "MAIL")
UNSUBSCRIBE = ("MAIL DIGEST", "UNSUBSCRIBE")
"""What a mail client's "unsubscribe" (List-Unsubscribe on every report) sends, as its subject
or its only line: it switches the player to the daily digest and never resigns him."""


def unsubscribe(camp: Campaign, sub: Submission, env: Envelope, now: datetime) -> Outcome | None:
    """An unsigned unsubscribe from a player's own address: his mail becomes a daily digest (a
    forged one costs him nothing but a digest, which `MAIL immediate` undoes); None for other mail."""
    subject = " ".join(sub.subject.replace(f"[{campaign_tag(sub.subject)}]", "").split()).upper()
    lines = [line.upper() for _, line in env.lines] + [c.upper() for _, c in env.commands]
    if env.player or env.gm or not (subject in UNSUBSCRIBE or (len(lines) == 1 and lines[0] in UNSUBSCRIBE)):
        return None
    players = camp.settings.players_at(sub.sender)
    if len(players) != 1:
        return None
    note = choose(camp, players[0].id, "digest")
    reply = answer(camp, sub, now, "unsubscribed", {"player": players[0], "note": note})
    return Outcome([reply], note="unsubscribe: daily digest")


@dataclass
class Between:
    """One authenticated mail's between-deadline words, and what they send to others."""

    camp: Campaign
    player: Player
    now: datetime
    stage: Stage
    key: str                                 # the mail's journal key: notices it causes are keyed by it
    lines: list[str] = field(default_factory=list)     # the mail's order lines (STANDING keeps them)
    mailings: list[Reply] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)

    def command(self, word: str, arg: str) -> list[str]:
        if word == "ABSENT":
            return self.absent(arg.split())
        if word == "STANDING":
            return self.standing()
        return [self.mail(arg)]

    def mail(self, arg: str) -> str:
        words = arg.split()
        choice = words[0].lower() if words else ""
        if choice not in CHOICES or len(words) > 2:
            raise ValueError(f"choose one of {', '.join(CHOICES)}, and for a digest your time zone if you like, "
                             "e.g. MAIL digest Europe/Berlin")
        return choose(self.camp, self.player.id, choice, words[1] if len(words) > 1 else "")

    def standing(self) -> list[str]:
        if not self.lines:
            raise ValueError("STANDING keeps the orders of the same mail: send it with your orders")
        absence.keep_standing(self.camp.state, self.player.id, self.stage.kind, self.lines)
        return [f"STANDING: these orders also stand for each later stage like this one ({self.stage.kind}) "
                "while you are absent, where they still read; otherwise the rules' defaults for orders not "
                "sent apply. Send STANDING with new orders to change them."]

    def today(self) -> datetime:
        return self.now.astimezone(self.camp.settings.schedule.zone)

    def absent(self, words: list[str]) -> list[str]:
        if [w.upper() for w in words] == ["NONE"]:
            gone = absence.withdraw(self.camp, self.player.id, self.today().date())
            self.notify(f"is no longer away ({', '.join(a.shown() for a in gone)})" if gone else "")
            return ["ABSENT NONE: " + (f"withdrawn: {', '.join(a.shown() for a in gone)}." if gone
                                       else "you had no absence still to come.")]
        away = absence.read_words(words, self.today().date())
        absence.take(self.camp, self.player.id, away)
        notes = [f"ABSENT: you are away {away.shown()}. Stages due meanwhile use your standing orders, or the "
                 "rules' defaults for orders not sent, and do not count as missed. ABSENT NONE withdraws it."]
        held = self.hold_deadline()
        if held:
            notes.append(held)
        self.notify(f"is away {away.shown()}" + (f"; {held}" if held else ""))
        self.battle_warning()
        return notes

    def hold_deadline(self) -> str:
        """`[rules.absence] deadline_waits`: a short absence over the deadline moves it past the absence."""
        record = StageRecord.read(self.camp.state)
        due = record.due
        later = absence.held_deadline(self.camp, self.stage, due) if due and not self.stage.over else None
        if later is None or due is None or later <= due:
            return ""
        record.due, record.reminded = later, False
        record.write(self.camp.state)
        calendar.moved(self.camp.state, record.generation)
        calendar.write_feed(self.camp, self.stage, record.generation, later, self.now)
        return f"the deadline of {self.stage.title} waits for it: now {self.camp.settings.schedule.show(later)}"

    def notify(self, what: str) -> None:
        """Every other player and the GM hear of it, from the campaign's address."""
        if not what:
            return
        settings = self.camp.settings
        who = self.player.name + (f" ({self.player.faction_name or self.player.faction})"
                                  if self.player.faction_name or self.player.faction else "")
        context = {"campaign": settings, "now": self.now, "schedule": settings.schedule, "who": who, "what": what,
                   "battle": ""}
        for person in (*[p for p in settings.players if p.id != self.player.id], settings.gm):
            self.mailings.append(Reply(f"absence/{self.key}/{person.id}", (person.email,),
                                       f"[{self.camp.name}] {who} {what.partition(';')[0]}", "absence_notice",
                                       context | {"reader": person}, auto_reply=False, kind="notice"))

    def battle_warning(self) -> None:
        """Away at a battle window he owes orders in: the GM and the window's other players hear at once."""
        due = StageRecord.read(self.camp.state).due
        if due is None or not calendar.own_events(self.stage, self.camp.settings.players) or \
                self.player.id not in self.stage.owing or absence.away(self.camp, self.player.id, due) is None:
            return
        self.alerts.append(absence.battle_alert(self.player.name, self.stage.title))
        for mail in self.mailings:
            opponent = next((p for p in self.camp.settings.players if p.email in mail.to), None)
            if opponent is not None and opponent.id in self.stage.owing:
                mail.context["battle"] = self.stage.title
