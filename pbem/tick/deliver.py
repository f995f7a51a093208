"""The delivery step: queued mail handed to the transport, queued public reports posted."""

from __future__ import annotations

from datetime import datetime

from pbem.delivery.outqueue import deliver
from pbem.forum.backends import open_forum
from pbem.forum.base import ForumError
from pbem.forum.queue import pending_posts, publish_pending
from pbem.mail.outbox import open_transport
from pbem.state.campaign import Campaign, SettingsError
from pbem.state.store import sync_folders
from pbem.tick.alarms import MailAlarms
from pbem.tick.faults import Faults
from pbem.tick.log import TickLog


def publish_posts(camp: Campaign, faults: Faults, log: TickLog, now: datetime | None = None) -> None:
    """Post the queued public reports to the thread, each once (pbem/forum/queue.py)."""
    if not pending_posts(camp.folder):
        return
    try:
        forum = open_forum(camp.settings, camp.folder, now)
    except ForumError as exc:
        log(f"{camp.name}: reports not posted, kept for retry: {exc}")
        return
    if forum is None:
        return
    sync_folders()
    done, problems, held = publish_pending(camp.folder, forum, lambda key: faults.hook("published"))
    if done:
        log(f"{camp.name}: posted {len(done)} report(s) to the forum")
    for key in held:
        log(f"{camp.name}: report {key} is held for moderation by the forum; it is not posted again")
    for problem in problems:
        log(f"{camp.name}: posting failed, kept for retry: {problem}")


def deliver_mail(camp: Campaign, log: TickLog, faults: Faults | None = None, alarms: MailAlarms | None = None) -> None:
    """Hand the queued mail over; `alarms` learns whether the server took it or was unavailable."""
    try:
        transport = open_transport(camp.settings.outbox, camp.folder, log=log)
    except ValueError as exc:
        raise SettingsError(camp.folder / "campaign.toml", [f"transport.outbox: {exc}"]) from exc
    unavailable: list[str] = []
    sync_folders()                  # what the tick stored is on disk before its mail leaves
    sent, problems = deliver(camp.folder, transport, after_send=(faults or Faults()).hook_sent,
                             on_unavailable=unavailable.append)
    log.count("sent", sent)
    if sent:
        log(f"{camp.name}: delivered {sent} mail(s)")
    for problem in problems:
        log(f"{camp.name}: delivery failed, kept for retry: {problem}")
    if alarms is not None and unavailable:
        alarms.failed("outbox", unavailable[0])
    elif alarms is not None and sent:
        alarms.worked("outbox")
