"""Mail settings that cannot work are refused with the key and the reason, before any mail moves."""

from __future__ import annotations

from pathlib import Path

import pytest
import tomli_w

from pbem.mail.connection import ServerSpec
from pbem.mail.imap import PORTS
from pbem.mail.inbox import open_inbox
from pbem.mail.outbox import open_transport
from pbem.tick.engine import tick
from tests.mail.conftest import T0, make_campaign


def test_plain_imap_is_refused_for_a_remote_host(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="allowed only for a server on this machine"):
        ServerSpec.read({"host": "imap.example.org", "tls": "none", "user": "u", "password_env": "X"},
                        tmp_path, "imap", PORTS)


def test_a_password_in_the_settings_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="do not put the password in the settings"):
        open_inbox({"type": "imap", "host": "127.0.0.1", "user": "u", "password": "secret"}, tmp_path)


def test_every_problem_is_named_at_once(tmp_path: Path) -> None:
    with pytest.raises(ValueError) as caught:
        open_transport({"type": "smtp", "tls": "ssl", "user": "u", "port": "many"}, tmp_path)
    text = str(caught.value)
    assert "host: required" in text and "tls: 'ssl' is not one of" in text
    assert "password_env or password_file: required" in text and "port: expected a non-negative number" in text


def test_a_campaign_with_a_password_in_its_settings_is_not_processed(tmp_path: Path) -> None:
    inbox = {"type": "imap", "host": "127.0.0.1", "tls": "none", "user": "u", "password": "hunter2"}
    camp = make_campaign(tmp_path / "campaigns", transport={"inbox": inbox})
    log = tick(camp.folder.parent, T0)
    assert any("rift: NOT PROCESSED" in line and "transport.inbox: password: do not put" in line
               for line in log.lines)


def test_a_shared_mailbox_needs_its_address(tmp_path: Path) -> None:
    root = tmp_path / "campaigns"
    root.mkdir()
    (root / "pbem.toml").write_text(tomli_w.dumps({"transport": {"inbox": {"type": "maildir", "path": "mail"}}}))
    make_campaign(tmp_path / "elsewhere")                  # created outside, then moved in
    (tmp_path / "elsewhere" / "rift").rename(root / "rift")
    log = tick(root, T0)
    assert any("NOT PROCESSED" in line and "address: required with a shared [transport.inbox]" in line
               for line in log.lines)


def test_a_broken_postmaster_state_stops_the_shared_mailbox_not_the_tick(tmp_path: Path) -> None:
    root = tmp_path / "campaigns"
    root.mkdir()
    settings = {"address": "orders@pbem.test", "transport": {"inbox": {"type": "maildir", "path": "mail"}}}
    (root / "pbem.toml").write_text(tomli_w.dumps(settings))
    (root / "postmaster").mkdir()
    (root / "postmaster" / "state.toml").write_text("journal = [broken\n")
    make_campaign(root)
    log = tick(root, T0)
    assert any("pbem.toml: NOT PROCESSED: shared mailbox" in line and "broken TOML" in line for line in log.lines)
    assert any(line.startswith("rift: ") and "could not be read" in line for line in log.lines)
