"""Welcome mails: owed from `pbem new`, rendered by the tick that queues them.

`pbem new` only records which welcomes are owed, with each generated secret, in
`private/welcome.toml`. The next tick renders every owed welcome from the settings and stage
as they are then, so an address or a time zone the GM fixes in `campaign.toml` before the
first tick is the one players read. Each welcome has a fixed key (`welcome/<id>`), so a tick
re-run after a crash queues the same mail again and the outbox sends it once; the record is
removed once every owed welcome is queued. A seat handed over before its welcome went out
(REPLACE) has a new secret and its own welcome: the stale one is dropped.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pbem.delivery import calendar
from pbem.delivery.replies import Reply
from pbem.mail.compose import thread_root
from pbem.rulesets import registry
from pbem.stages import turns
from pbem.state import credentials
from pbem.state.campaign import Campaign, Player
from pbem.state.store import read_toml, write_toml

OWED = Path("private") / "welcome.toml"


def owe(folder: Path, secrets: dict[str, str]) -> None:
    """Record the welcomes the next tick sends (player id or `gm` -> the generated secret)."""
    write_toml(folder / OWED, {"secrets": dict(secrets)},
               header="# Welcome mails not sent yet, with the secrets they carry. Removed once queued.")


def owed(folder: Path) -> dict[str, str]:
    """The welcomes still to send: person id -> secret."""
    path = folder / OWED
    secrets = read_toml(path).get("secrets", {}) if path.exists() else {}
    return {str(k): str(v) for k, v in secrets.items()} if isinstance(secrets, dict) else {}


def send_owed(camp: Campaign, now: datetime) -> int:
    """Render and queue every owed welcome; returns how many were queued."""
    from pbem.delivery.mails import build_mail
    from pbem.delivery.outqueue import enqueue

    secrets = owed(camp.folder)
    if not secrets:
        return 0
    ruleset = registry.get(camp.settings.ruleset)
    queued = 0
    for pid, secret in secrets.items():
        person = camp.settings.gm if pid == "gm" else camp.settings.player(pid)
        if person is None or not credentials.check(secret, camp.secret_of(person)):
            continue            # the seat was handed over (or the entry removed) since `pbem new`
        enqueue(camp.folder, build_mail(camp, ruleset, welcome_reply(camp, person, secret, now), now))
        queued += 1
    if "stage" in camp.state:               # the first stage's deadline in the campaign's calendar feed
        calendar.write_feed(camp, ruleset.stage(turns.context(camp, now)), turns.stage_generation(camp),
                            turns.context(camp, now).deadline, now)
    (camp.folder / OWED).unlink()
    return queued


def welcome_replies(camp: Campaign, secrets: dict[str, str], now: datetime) -> list[Reply]:
    """One welcome mail per player and one for the GM: the only mails that carry a secret."""
    return [welcome_reply(camp, person, secrets[person.id], now)
            for person in (*camp.settings.players, camp.settings.gm)]


def welcome_reply(camp: Campaign, person: Player, secret: str, now: datetime, key: str = "") -> Reply:
    """The welcome mail for one person: where to write, the secret line, the first stage and
    what to send in it, its deadline, the player's starting places and the order syntax."""
    ruleset = registry.get(camp.settings.ruleset)
    ctx = turns.context(camp, now)
    is_gm = person.id == "gm"
    stage = ruleset.stage(ctx)
    context = {"campaign": camp.settings, "person": person, "secret": secret, "is_gm": is_gm,
               "deadline": ctx.deadline, "schedule": camp.settings.schedule, "now": now, "stage": stage,
               "help": "" if is_gm else ruleset.help_text(ctx, person),
               "start": {} if is_gm else ruleset.welcome(ctx, person),
               "commitment": turns.commitment(camp, stage.turn), "commitment_turn": stage.turn}
    return Reply(key or f"welcome/{person.id}", (person.email,), f"[{camp.name}] welcome to {camp.settings.title}",
                 "welcome", context, references=(thread_root(camp.name, camp.settings.domain),), auto_reply=False,
                 attachments=() if is_gm else calendar.attachment(camp, stage, turns.stage_generation(camp),
                                                                  ctx.deadline, now, person))
