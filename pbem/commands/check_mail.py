"""`pbem check-mail [--root DIR]`: log in to every mailbox and mail server the campaigns use,
change nothing, and say what was found (a first check after editing the transport settings)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", type=Path, default=Path("campaigns"), help="campaigns directory or one campaign folder")


def run(args: argparse.Namespace) -> int:
    from pbem.state.campaign import SettingsError, load_settings
    from pbem.state.folders import discover
    from pbem.state.site import site_of
    from pbem.state.store import StoreError

    setups: list[tuple[str, str, dict[str, Any], Path]] = []     # (who, "inbox"/"outbox", spec, base)
    try:
        site = site_of(args.root)
    except (StoreError, ValueError) as exc:
        print(f"pbem.toml: {exc}")
        return 1
    if site and site.inbox:
        setups.append(("pbem.toml", "inbox", site.inbox, site.postmaster))
    if site and site.outbox:
        setups.append(("pbem.toml", "outbox", site.outbox, site.postmaster))
    failed = False
    for folder in discover(args.root):
        try:
            settings = load_settings(folder)
        except (SettingsError, StoreError) as exc:
            print(f"{folder.name}: {exc}")
            failed = True
            continue
        for kind, spec in (("inbox", settings.inbox), ("outbox", settings.outbox)):
            if not (site and spec in (site.inbox, site.outbox)):
                setups.append((folder.name, kind, spec, folder))
    for who, kind, spec, base in setups:
        ok, text = _check(kind, spec, base)
        print(f"{who}: {kind}: {text}")
        failed = failed or not ok
    return 1 if failed else 0


def _check(kind: str, spec: dict[str, Any], base: Path) -> tuple[bool, str]:
    from pbem.mail.connection import MailUnavailable
    from pbem.mail.inbox import open_inbox
    from pbem.mail.outbox import open_transport

    try:
        opened = open_inbox(spec, base) if kind == "inbox" else open_transport(spec, base)
        check = getattr(opened, "check", None)
        if check is not None:
            return True, str(check())
        if kind == "inbox":
            new = len(list(opened.items()))  # type: ignore[union-attr]  # an inbox here: `kind` says so
            return True, f"{spec.get('type')} at {spec.get('path')}: {new} new"
        return True, f"{spec.get('type')} at {spec.get('path')}"
    except (ValueError, MailUnavailable, OSError) as exc:
        return False, f"NOT OK: {exc}"
