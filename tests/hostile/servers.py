"""Loopback servers for the hostile corpus: a Dovecot whose mailboxes can be made read-only (its
ACL plugin, rights re-read on every command), and an SMTP server that keeps every mail pbem
sends to anyone, so what went out can be checked whatever the recipient."""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from tests.mail.mailservers import Dovecot
from tests.support.ports import start_on_a_free_port

PASSWORD = "hostile-pw"
ALL_RIGHTS = "lrwstipekxa"


class AclDovecot(Dovecot):
    """Dovecot with a global ACL file: every user has every right until `read_only(user)`."""

    def __init__(self, users: Iterable[str]) -> None:
        acl_dir = Path(tempfile.mkdtemp(prefix="pbem-acl-"))
        os.chmod(acl_dir, 0o755)          # the mail processes (uid nobody when root) read it
        self.acl_file = acl_dir / "global-acl"
        self.rights = {user: ALL_RIGHTS for user in users}
        self._write_acl()
        super().__init__(users={user: PASSWORD for user in users}, extra_conf=(
            "mail_plugins = $mail_plugins acl\n"
            f"plugin {{\n  acl = vfile:{self.acl_file}:cache_secs=0\n}}\n"))

    def read_only(self, user: str) -> None:
        """From now on `user` may list and read its mailboxes, nothing else: SELECT says READ-ONLY."""
        self.rights[user] = "lr"
        self._write_acl()

    def _write_acl(self) -> None:
        self.acl_file.write_text("".join(f"* user={user} {rights}\n" for user, rights in self.rights.items()))
        os.chmod(self.acl_file, 0o644)

    def client(self, user: str) -> IMAPClient:
        client = IMAPClient("127.0.0.1", port=self.imap_port, ssl=False, timeout=10)
        client.login(user, PASSWORD)
        return client

    def append(self, user: str, raws: list[bytes]) -> tuple[list[int], dict[int, bytes]]:
        """Append in order; returns the indexes of the mails the server refused, and what it
        stored of each other one (Dovecot may mend bytes, and pbem reads what it stored)."""
        refused, uids = [], {}
        client = self.client(user)
        try:
            for index, raw in enumerate(raws):
                try:
                    answer = client.append("INBOX", raw)
                except IMAPClientError:
                    refused.append(index)
                    continue
                found = re.search(rb"APPENDUID \d+ (\d+)", answer)
                if found:
                    uids[index] = int(found.group(1))
            client.select_folder("INBOX", readonly=True)
            data = client.fetch(list(uids.values()), [b"BODY.PEEK[]"]) if uids else {}
        finally:
            client.logout()
        return refused, {index: bytes(data[uid][b"BODY[]"]) for index, uid in uids.items() if uid in data}

    def quarantine_folders(self, user: str) -> list[bytes]:
        """Every message in a folder of `user` whose name says quarantine."""
        client = self.client(user)
        found: list[bytes] = []
        try:
            for _, _, name in client.list_folders():
                if "quarantine" in str(name).lower():
                    client.select_folder(name, readonly=True)
                    uids = client.search("ALL")
                    data = client.fetch(uids, [b"BODY.PEEK[]"]) if uids else {}
                    found += [bytes(item[b"BODY[]"]) for item in data.values()]
        finally:
            client.logout()
        return found


class Sink:
    """An SMTP server on 127.0.0.1 that accepts any mail for anyone and keeps it."""

    def __init__(self) -> None:
        self.received: list[bytes] = []
        self.controller = start_on_a_free_port(self._started, "the SMTP sink")

    def _started(self, port: int) -> Controller:
        controller = Controller(self, hostname="127.0.0.1", port=port, ready_timeout=5)
        controller.start()
        return controller

    @property
    def port(self) -> int:
        return int(self.controller.port)

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append(bytes(envelope.original_content))
        return "250 OK"

    def stop(self) -> None:
        self.controller.stop()
