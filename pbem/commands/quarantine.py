"""`pbem quarantine list [CAMPAIGN] | release CAMPAIGN ID | drop CAMPAIGN ID`: mail set aside.

A message whose handling failed QUARANTINE_AFTER times is kept in `<campaign>/quarantine/`
(pbem/intake/quarantine.py); shared-mailbox mail that failed before a campaign was known is kept by
the postmaster (`<root>/postmaster/`), named `postmaster` here. `release` hands the message to
the next tick as if it had just arrived (its failure count and journal entry cleared); `drop`
deletes it and keeps it journalled, so it never comes back.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from pbem.errors import UserError

if TYPE_CHECKING:
    from pbem.intake.quarantine import Quarantine

POSTMASTER = "postmaster"


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("action", choices=("list", "release", "drop"))
    p.add_argument("campaign", nargs="?", default="",
                   help="campaign name or folder ('postmaster' for the shared mailbox)")
    p.add_argument("id", nargs="?", default="", help="the message's id, as `list` shows it")
    p.add_argument("--root", type=Path, default=Path("campaigns"))


def run(args: argparse.Namespace) -> int:
    if args.action == "list":
        return show(args)
    if not args.campaign or not args.id:
        raise UserError(f"write `pbem quarantine {args.action} CAMPAIGN ID` (ids from `pbem quarantine list`)")
    return act(args)


def show(args: argparse.Namespace) -> int:
    from pbem.intake.quarantine import Quarantine

    folders = [folder_of(args)] if args.campaign else places(args.root)
    rows = [(folder, held) for folder in folders for held in Quarantine(folder).entries()]
    for folder, held in rows:
        name = POSTMASTER if folder.name == POSTMASTER and not (folder / "campaign.toml").exists() else folder.name
        print(f"{name}  {held.id}  {held.at}  {held.sender or '(no sender)'}  {held.subject or '(no subject)'}  "
              f"-- {held.reason}")
    if not rows:
        print("nothing in quarantine")
    return 0


def act(args: argparse.Namespace) -> int:
    from pbem.intake.quarantine import Quarantine
    from pbem.state.store import StoreError, campaign_lock

    folder = folder_of(args)
    try:
        with campaign_lock(folder):
            return carry_out(args, folder, Quarantine(folder))
    except (StoreError, OSError) as exc:
        raise UserError(f"{args.campaign}: {exc}") from exc


def carry_out(args: argparse.Namespace, folder: Path, box: Quarantine) -> int:
    held = box.get(args.id)
    if held is None:
        raise UserError(f"{args.campaign}: no quarantined message {args.id!r}; "
                        f"see `pbem quarantine list {args.campaign}`")
    if args.action == "release" and held.key.startswith("post:"):
        raise UserError(f"{args.campaign}: {held.id} is a forum post, which cannot be handed back: ask its author "
                        f"to post again, then `pbem quarantine drop {args.campaign} {held.id}`")
    journal_edit(folder, held.key, release=args.action == "release")
    if args.action == "release":
        box.release(held)
        print(f"{held.id}: released; the next tick handles it again")
    else:
        box.drop(held)
        print(f"{held.id}: dropped; it will not be handled")
    return 0


def journal_edit(folder: Path, key: str, release: bool) -> None:
    """Release forgets the message in the journal, so it is handled again; drop makes sure
    the journal remembers it, so a copy still in the mailbox is never handled."""
    from datetime import UTC, datetime

    from pbem.state.schedule import iso
    from pbem.state.store import read_toml, write_toml

    path, campaign = folder / "state.toml", (folder / "campaign.toml").exists()
    state = read_toml(path) if path.exists() else {}
    journal = state.setdefault("journal", {})
    if release and key not in journal:
        return
    if release:
        del journal[key]
    else:       # the postmaster's journal entries carry a time, by which they expire
        note = "quarantined: dropped"
        journal[key] = note if campaign else {"note": note, "at": iso(datetime.now(UTC))}
    header = "# Written by pbem; edit with care." if campaign else \
        "# Written by pbem: mail in the shared mailbox that named no campaign."
    write_toml(path, state, header=header)


def folder_of(args: argparse.Namespace) -> Path:
    """A campaign's folder, or the postmaster's for `postmaster`; a one-line error otherwise."""
    from pbem.commands._common import campaign_folder

    if args.campaign == POSTMASTER and not (args.root / POSTMASTER / "campaign.toml").exists():
        folder: Path = args.root / POSTMASTER
        if not folder.exists():
            raise UserError(f"no shared mailbox under {args.root} (no {folder})")
        return folder
    return campaign_folder(args)


def places(root: Path) -> list[Path]:
    from pbem.state.folders import discover

    found = list(discover(root))
    return found + ([root / POSTMASTER] if (root / POSTMASTER / "quarantine").exists() else [])
