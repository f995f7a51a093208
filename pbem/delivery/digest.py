"""How a player's mail comes: `MAIL immediate|digest|reports-only [time zone]`.

immediate     every mail as it is made (the default)
digest        acknowledgements of mail that changed nothing important (no line rejected, no HELP
              or STATUS asked), reminders, press and notices wait for one mail a day, at
              `[rules.mail] digest_at` in his time zone (given with MAIL, else the campaign's)
reports-only  as digest, but those acknowledgements are not sent at all

Turn reports, battle briefings, acknowledgements with a problem and everything the GM sends
always go at once. The choice is kept in state.toml (`[mail_choice] <player> = "digest"`, his
zone in `[mail_zone]`), and the mail held for a digest in `[[digest.<player>]]` (key, subject,
body, time), saved with the message that made it; the digest goes at the first digest hour
after the oldest mail held, keyed by that hour, so a tick repeated after a crash sends it once.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from datetime import datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.delivery.mails import build_mail
from pbem.delivery.outqueue import enqueue
from pbem.delivery.replies import Reply
from pbem.kit.texts import render
from pbem.rulesets.base import AnyRuleset
from pbem.state.between import MAIL_CHOICES
from pbem.state.campaign import Campaign, Player
from pbem.state.schedule import iso, parse_time

CHOICES = MAIL_CHOICES
HELD_KINDS = ("ack", "reminder", "press", "notice")
"""What a digest may hold (`Reply.kind`); "ack" is an acknowledgement with nothing wrong in it."""


def choice(state: MutableMapping[str, Any], player: str) -> str:
    chosen = state.get("mail_choice", {}).get(player, "immediate")
    return str(chosen) if chosen in CHOICES else "immediate"


def zone(camp: Campaign, player: str) -> ZoneInfo:
    named = camp.state.get("mail_zone", {}).get(player, "")
    try:
        return ZoneInfo(named) if named else camp.settings.schedule.zone
    except (ZoneInfoNotFoundError, ValueError):
        return camp.settings.schedule.zone


def choose(camp: Campaign, player: str, chosen: str, zone_name: str = "") -> str:
    """Keep `player`'s choice (and his zone); the note his acknowledgement shows. A ValueError for
    an unknown zone."""
    if zone_name:
        try:
            ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{zone_name} is no time zone; write one like Europe/Berlin") from None
        camp.state.setdefault("mail_zone", {})[player] = zone_name
    camp.state.setdefault("mail_choice", {})[player] = chosen
    if chosen == "immediate":
        return "MAIL immediate: every mail from the campaign reaches you as it is made."
    held = "acknowledgements without problems, reminders, press and notices" if chosen == "digest" else \
        "reminders, press and notices (acknowledgements without problems are no longer sent)"
    return (f"MAIL {chosen}: {held} come in one mail a day at {camp.settings.between.digest_at} "
            f"({zone(camp, player).key}); turn reports, battle briefings and answers with a problem still "
            "come at once. MAIL immediate undoes it.")


def reader(camp: Campaign, reply: Reply) -> Player | None:
    """The player a reply is for, when it goes to him alone."""
    found = camp.settings.players_at(reply.to[0]) if len(reply.to) == 1 else []
    return found[0] if len(found) == 1 else None


def hold(camp: Campaign, ruleset: AnyRuleset, reply: Reply, now: datetime) -> bool:
    """Keep `reply` for its reader's digest, or drop a plain acknowledgement he does not want;
    True when it is not to be sent now."""
    player = reader(camp, reply) if reply.kind in HELD_KINDS else None
    wanted = choice(camp.state, player.id) if player is not None else "immediate"
    if player is None or wanted == "immediate":
        return False
    if reply.kind == "ack" and wanted == "reports-only":
        return True
    body = lower_headings(render(ruleset.templates, reply.template, reply.context, camp.folder))
    camp.state.setdefault("digest", {}).setdefault(player.id, []).append(
        {"key": reply.key, "subject": reply.subject, "body": body, "at": iso(now)})
    return True


def lower_headings(markdown: str) -> str:
    """A mail's headings one level down, under the digest's heading for it (fenced blocks kept)."""
    out, fenced = [], False
    for line in markdown.split("\n"):
        fenced ^= line.startswith("```")
        out.append("#" + line if line.startswith("#") and not fenced else line)
    return "\n".join(out)


def due_at(camp: Campaign, player: str) -> datetime | None:
    """The first digest hour (in his zone) after the oldest mail held for `player`."""
    held = camp.state.get("digest", {}).get(player, [])
    if not held:
        return None
    oldest = min(parse_time(item["at"]) for item in held).astimezone(zone(camp, player))
    hour, minute = (int(part) for part in camp.settings.between.digest_at.split(":"))
    moment = datetime.combine(oldest.date(), time(hour, minute), oldest.tzinfo)
    return moment if moment > oldest else moment + timedelta(days=1)


def next_digest(camp: Campaign) -> datetime | None:
    """When the campaign next owes a digest (the idle tick wakes it then)."""
    times = [t for p in camp.state.get("digest", {}) if (t := due_at(camp, p)) is not None]
    return min(times) if times else None


def send_digests(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> int:
    """Each digest that is due, queued as one mail; the mail it held is forgotten. Returns how many."""
    sent = 0
    for pid in list(camp.state.get("digest", {})):
        moment, player = due_at(camp, pid), camp.settings.player(pid)
        if moment is None or moment > now:
            continue
        held = camp.state["digest"].pop(pid)
        if player is not None:
            enqueue(camp.folder, build_mail(camp, ruleset, digest_reply(camp, player, held, moment), now))
            sent += 1
    if "digest" in camp.state and not camp.state["digest"]:
        del camp.state["digest"]
    if sent:
        camp.save()
    return sent


def digest_reply(camp: Campaign, player: Player, held: list[dict[str, Any]], moment: datetime) -> Reply:
    settings = camp.settings
    context = {"campaign": settings, "now": moment, "schedule": settings.schedule, "player": player,
               "items": held, "day": moment.astimezone(zone(camp, player.id)).strftime("%a %d %b %Y")}
    return Reply(f"digest/{player.id}/{iso(moment)}", (player.email,),
                 f"[{camp.name}] your daily digest: {len(held)} {'mail' if len(held) == 1 else 'mails'}",
                 "digest", context, auto_reply=False)
