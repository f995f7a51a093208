"""When a campaign that has just been ticked will next have something to do by itself.

A campaign is quiet when nothing waits: its inbox is local and read to the end, its outbox and
forum queue are empty, no welcome is owed, no released mail waits, and its stage is neither due
nor in its reminder window. It then sleeps until the earliest of its deadline, its reminder and
its rule system's own wake-up (pbem/tick/idle.py records that), or until one of its files changes.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.delivery.digest import next_digest
from pbem.mail.inbox import open_inbox
from pbem.rulesets.base import AnyRuleset
from pbem.stages import turns
from pbem.stages.record import StageRecord
from pbem.state.campaign import Campaign

LOCAL_INBOXES = {"maildir": ("new", "cur"), "eml": ("",)}
"""Inbox kinds whose new mail shows as a change of these folders (relative to the inbox's path)."""


class Busy(Exception):
    """The campaign has work left (or cannot be watched by its files): it gets every tick."""


def inbox_paths(camp: Campaign) -> tuple[str, ...]:
    """The folders whose change means new mail; Busy for an inbox only a server can tell about."""
    spec = camp.settings.inbox
    if spec.get("shared"):
        return ()          # read once for all by the shared intake, which writes the state it changes
    kind = str(spec.get("type", "maildir"))
    if kind not in LOCAL_INBOXES:
        raise Busy(f"a {kind} inbox is asked at every tick")
    base = Path(str(spec.get("path", "inbox")))
    return tuple(str(base / sub) if sub else str(base) for sub in LOCAL_INBOXES[kind])


def unread_mail(camp: Campaign) -> bool:
    """A message the inbox still shows: one to retry after a failure, or one for another campaign
    reading the same folder."""
    inbox = open_inbox(camp.settings.inbox, camp.folder)
    try:
        return next(iter(inbox.items()), None) is not None
    finally:
        inbox.close()


def waiting(folder: Path) -> bool:
    """Mail or posts queued but not yet handed over."""
    return any(any(queue.iterdir()) for queue in (folder / "outbox" / "queue", folder / "posts" / "queue")
               if queue.is_dir())


def quiet_until(camp: Campaign, ruleset: AnyRuleset, now: datetime) -> datetime | None:
    """The next moment the stage could act by itself (None: only a change of its files wakes it);
    Busy when it has work now or its forum must be polled."""
    if camp.settings.forum:
        raise Busy("a forum thread is polled at every tick")
    if waiting(camp.folder):
        raise Busy("mail or posts wait to be sent")
    if not camp.settings.inbox.get("shared") and unread_mail(camp):
        raise Busy("the inbox still shows a message")
    if "stage" not in camp.state:
        raise Busy("no stage is open yet")
    stage = ruleset.stage(turns.context(camp, now))
    digest = next_digest(camp)                 # mail held for a daily digest wakes it at the digest's hour
    if turns.is_due(camp, stage, now) or turns.reminder_due(camp, stage, now) or (digest and digest <= now):
        raise Busy("the stage is due, or its reminder, or a daily digest")
    record = StageRecord.read(camp.state)
    if stage.over or record.held or record.due is None:
        return min((t for t in (stage.wakes, digest) if t is not None), default=None)
    times = [record.due, stage.wakes, digest]
    if not record.reminded and stage.owing and not stage.waiting_for_gm:
        times.append(record.due - camp.settings.schedule.reminder)
    return min(t for t in times if t is not None)
