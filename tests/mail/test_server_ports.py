"""The test servers never flake on ports: every port drawn once per process, a server's ports
distinct, and a Dovecot, relay or sink start that lost a port to another process tried again on new ones, with
the port that clashed named (tests/support/ports.py, tests/mail/mailservers.py)."""

from __future__ import annotations

import smtplib
import socket

import pytest

from tests.mail.mailservers import Dovecot, free_ports, make_smtp_relay
from tests.support.ports import PortClash, start_on_a_free_port

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


def test_an_smtp_relay_start_that_lost_its_port_is_tried_again_on_a_new_one_naming_the_clash(
        dovecot: Dovecot) -> None:
    with socket.socket() as thief:        # the first port drawn is taken before the relay binds it
        thief.bind(("127.0.0.1", 0))
        thief.listen()
        held = thief.getsockname()[1]
        draws = iter([held, free_ports(1)[0]])
        clashes: list[str] = []
        relay = make_smtp_relay(dovecot, tls=False, draw=lambda: next(draws), clashes=clashes)
        try:
            assert relay.port != held
            assert len(clashes) == 1 and f"the SMTP relay: port {held} was taken" in clashes[0]
            with smtplib.SMTP("127.0.0.1", relay.port, timeout=5) as smtp:
                assert smtp.noop()[0] == 250
        finally:
            relay.stop()


def test_a_relay_restarted_on_a_port_another_process_holds_says_which_port() -> None:
    with socket.socket() as thief:
        thief.bind(("127.0.0.1", 0))
        thief.listen()
        held = thief.getsockname()[1]
        with pytest.raises(PortClash, match=f"port {held} was taken by another process"):
            start_on_a_free_port(lambda port: socket.create_server(("127.0.0.1", port)), "a server", port=held)
