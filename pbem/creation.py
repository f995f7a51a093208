"""Creating a campaign folder: settings, hashed secrets, opening state, welcome mails."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pbem import credentials, turns
from pbem.campaign import Campaign, Player, check_name
from pbem.errors import UserError
from pbem.intake import Reply
from pbem.rulesets import registry
from pbem.site import FILE as SITE_FILE
from pbem.store import write_toml


@dataclass(frozen=True)
class NewPlayer:
    id: str
    name: str
    email: str
    faction_name: str = ""
    faction: str = ""
    home: str = ""

    @classmethod
    def parse(cls, spec: str) -> NewPlayer:
        """`id,Name,email[,Faction name[,F]]`, e.g. `red,Alice,alice@example.org,Red,R`."""
        parts = [p.strip() for p in spec.split(",")]
        if len(parts) < 3 or "@" not in parts[2]:
            raise UserError(f"player {spec!r}: expected id,Name,email[,Faction[,token prefix]]")
        faction_name = parts[3] if len(parts) > 3 else parts[1]
        faction = parts[4] if len(parts) > 4 else parts[0][:1].upper()
        return cls(parts[0], parts[1], parts[2].lower(), faction_name, faction)


def create(root: Path, name: str, ruleset_name: str, map_name: str, players: list[NewPlayer],
           gm_email: str, now: datetime, schedule: dict[str, str] | None = None,
           transport: dict[str, Any] | None = None, rules: dict[str, Any] | None = None,
           fixed_secrets: dict[str, str] | None = None) -> tuple[Campaign, dict[str, str]]:
    """Write a new campaign; returns it and the generated secrets (sent in welcome mails).

    `fixed_secrets` (player id -> secret) is for the demo, whose sample mails are signed."""
    try:
        check_name(name)
        ruleset = registry.get(ruleset_name)
    except (ValueError, KeyError) as exc:
        raise UserError(str(exc)) from exc
    folder = root / name
    if (folder / "campaign.toml").exists():
        raise UserError(f"{folder} already holds a campaign")
    map_name = map_name or ruleset.default_map
    if not map_name:
        raise UserError(f"{ruleset.title} has no default map: name one with --map")
    secrets = {p.id: credentials.generate() for p in players} | {"gm": credentials.generate()}
    secrets |= fixed_secrets or {}
    domain = "pbem.localhost"
    data: dict[str, Any] = {
        "name": name, "title": f"{ruleset.title}: {name}", "ruleset": ruleset.name, "map": map_name,
        "address": f"{name}@{domain}",
        "schedule": schedule or {"timezone": "UTC", **ruleset.windows, "at": "20:00", "reminder": "24h"},
        "transport": transport or _default_transport(root),
        "gm": {"id": "gm", "name": "Game master", "email": gm_email.lower(),
               "secret": credentials.hash_generated(secrets["gm"])},
        "players": [{"id": p.id, "name": p.name, "email": p.email, "faction": p.faction,
                     "faction_name": p.faction_name, "home": p.home or str(i + 1),
                     "secret": credentials.hash_generated(secrets[p.id])} for i, p in enumerate(players)],
        "rules": rules or {},
    }
    try:
        data["players"] = ruleset.assign(map_name, data["players"])
    except ValueError as exc:
        raise UserError(f"cannot set up {name}: {exc}") from exc
    write_toml(folder / "campaign.toml", data, header=f"# Campaign {name}: settings. Edit freely; secrets are hashes.")
    write_toml(folder / "state.toml", {})
    camp = Campaign(folder)
    try:
        camp.state = {"game": ruleset.create(camp.settings), "journal": {}}
    except ValueError as exc:
        raise UserError(f"cannot set up {name}: {exc}") from exc
    turns.open_stage(camp, ruleset, now)
    turns.snapshot_start(camp, camp.state["stage"]["turn"])
    camp.save()
    return camp, secrets


def _default_transport(root: Path) -> dict[str, Any]:
    """Campaigns under a pbem.toml take its transports (pbem/site.py); others get Maildirs."""
    if (root / SITE_FILE).exists():
        return {}
    return {"inbox": {"type": "maildir", "path": "inbox"}, "outbox": {"type": "maildir", "path": "outbox/maildir"}}


def welcome_replies(camp: Campaign, secrets: dict[str, str], now: datetime) -> list[Reply]:
    """One welcome mail per player and one for the GM: the only mails that carry a secret."""
    return [welcome_reply(camp, person, secrets[person.id], now)
            for person in (*camp.settings.players, camp.settings.gm)]


def welcome_reply(camp: Campaign, person: Player, secret: str, now: datetime, key: str = "") -> Reply:
    """The welcome mail for one person: the secret, the order syntax and the first deadline."""
    ruleset = registry.get(camp.settings.ruleset)
    ctx = turns.context(camp, now)
    context = {"campaign": camp.settings, "person": person, "secret": secret,
               "is_gm": person.id == "gm", "deadline": ctx.deadline, "schedule": camp.settings.schedule,
               "help": "" if person.id == "gm" else ruleset.help_text(ctx, person), "now": now,
               "commitment": turns.commitment(camp, int(camp.state["stage"]["turn"])),
               "commitment_turn": int(camp.state["stage"]["turn"])}
    return Reply(key or f"welcome/{person.id}", (person.email,), f"[{camp.name}] welcome to {camp.settings.title}",
                 "welcome", context, auto_reply=False)
