"""A resolved stage's report, mailed to its audience with the map picture and posted when public."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from pbem.delivery import calendar
from pbem.delivery.bbcode import to_bbcode
from pbem.delivery.outqueue import enqueue
from pbem.forum.queue import enqueue_post
from pbem.kit.texts import render
from pbem.mail.compose import Letterhead, thread_root
from pbem.rulesets.base import AnyRuleset, Report, Stage
from pbem.stages import turns
from pbem.state.campaign import Campaign
from pbem.state.store import write_atomic

if TYPE_CHECKING:          # drawing pulls in numeric libraries: loaded only when a picture is made
    from pbem.pictures.picture import Picture
from pbem.stages.turns import stage_key


def queue_report(camp: Campaign, ruleset: AnyRuleset, stage: Stage, report: Report, extra: dict[str, Any],
                 now: datetime, gen: int, picture: Picture | None = None,
                 own: Mapping[str, Picture] | None = None, pictured: set[tuple[str, str]] | None = None) -> None:
    """Mail `report` (and post it when public). A public report shows the public picture; a report
    to players alone shows each of them his own picture where the rule system draws one. A
    stage's picture goes to each address once: `pictured` holds the (address, picture) pairs
    mailed so far in this stage, and the stage's other reports to him go without it."""
    settings = camp.settings
    context = extra | report.context
    text = render(ruleset.templates, report.kind, context, camp.folder)
    key = f"{stage_key(stage, gen)}/{report.key or report.kind}"
    name = f"{stage.kind}-{report.key or report.kind}"
    turns.save_report(camp, stage.turn, name, text, public=report.public)
    if report.public and settings.archive.get("bbcode"):
        save_bbcode(camp, stage, name, text)
    audience = [p.id for p in settings.players] if "*" in report.audience else list(report.audience)
    people = [settings.gm if a == "gm" else settings.player(a) for a in audience]
    to = [person.email for person in people if person is not None]
    if report.public and settings.gm.email not in to:
        to.append(settings.gm.email)
    from pbem.pictures import mail as picture_mail

    players = {p.email: p.id for p in settings.players} if own and not report.public else {}
    for address in to:
        shown = _first_time((own or {}).get(players.get(address, ""), picture), address, pictured)
        pictures = [shown] if shown is not None else []    # the PNG in the HTML part; the SVG when asked for
        event = _deadline(camp, extra, address, now, pictured)
        msg = Letterhead.of(settings).write(f"{key}/{address}", (address,), f"[{camp.name}] {report.subject}", text,
                                            now, references=(thread_root(camp.name, settings.domain),),
                                            inline_images=picture_mail.inline_images(pictures, settings.domain),
                                            attachments=(*(picture_mail.attachments(pictures)
                                                           if settings.reports.get("attach_svg") else ()), *event))
        if settings.players_at(address):         # "unsubscribe" in his mail client: the digest, never resigning
            msg["List-Unsubscribe"] = f"<mailto:{settings.address}?subject={quote(f'[{camp.name}] MAIL digest')}>"
        enqueue(camp.folder, msg)
    if report.public and settings.forum:
        enqueue_post(camp.folder, key, f"[{camp.name}] {report.subject}", text,
                     picture=(f"{picture.name}.png", picture.png) if picture is not None else None)


def _first_time(picture: Picture | None, address: str, pictured: set[tuple[str, str]] | None) -> Picture | None:
    """`picture`, unless this stage has already mailed it to `address`."""
    if picture is None or pictured is None:
        return picture
    if (address, picture.name) in pictured:
        return None
    pictured.add((address, picture.name))
    return picture


def _deadline(camp: Campaign, extra: Mapping[str, Any], address: str, now: datetime,
              sent: set[tuple[str, str]] | None) -> tuple[tuple[str, str, bytes], ...]:
    """The next stage's deadline as a calendar event (pbem/delivery/calendar.py) for a player who
    owes orders in it, in the first of the stage's reports mailed to him."""
    stage, player = extra.get("next_stage"), next(iter(camp.settings.players_at(address)), None)
    if not isinstance(stage, Stage) or (sent is not None and (address, calendar.ICS[0]) in sent):
        return ()
    event = calendar.attachment(camp, stage, turns.stage_generation(camp), extra.get("next_deadline"), now, player)
    if event and sent is not None:
        sent.add((address, calendar.ICS[0]))
    return event


def save_bbcode(camp: Campaign, stage: Stage, name: str, text: str) -> None:
    """A public report as BBCode beside it in history/ (`[archive] bbcode = true`), to paste into a board."""
    archive = camp.settings.archive
    picture = f"{archive['picture_url'].rstrip('/')}/{camp.name}-turn-{stage.turn:03d}-{stage.kind}.png" \
        if archive.get("picture_url") else ""
    write_atomic(camp.history(stage.turn) / f"{name}.bbcode",
                 to_bbcode(text, tables=bool(archive.get("bbcode_tables")), picture_url=picture))
