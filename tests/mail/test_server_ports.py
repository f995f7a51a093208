"""The test servers never flake on ports: every port drawn once per process, a server's ports
distinct, and a Dovecot start that lost a port to another process tried again on new ones, with
the port that clashed named (tests/mail/mailservers.py)."""

from __future__ import annotations

import socket

import pytest

from tests.mail.mailservers import Dovecot, free_ports

pytestmark = pytest.mark.mailserver


def test_ports_drawn_together_or_apart_are_never_the_same() -> None:
    drawn = free_ports(3) + free_ports(3) + free_ports(1)
    assert len(drawn) == len(set(drawn)) == 7


def test_a_dovecot_start_that_lost_a_port_is_tried_again_on_new_ports_naming_the_clash() -> None:
    server = Dovecot({"a@pbem.test": "pw"})
    held = server.imaps_port
    with socket.socket() as thief:        # another process took the port between drawing and binding
        thief.bind(("127.0.0.1", held))
        thief.listen()
        try:
            server.start()
            assert server.imaps_port != held and len({server.imap_port, server.imaps_port, server.lmtp_port}) == 3
            assert len(server.clashes) == 1 and f"port {held} " in server.clashes[0]
            with socket.create_connection(("127.0.0.1", server.imap_port), timeout=5) as imap:
                assert imap.recv(64).startswith(b"* OK")
        finally:
            server.cleanup()
