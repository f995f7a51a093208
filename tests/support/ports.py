"""Loopback ports for the test servers, never handed out twice in one process, and a start that
lost its port to another process tried again on a new one, naming the port that clashed.

A port is drawn by binding port 0 and reading back what the system gave; the socket is closed
before the server binds it, so another process (another xdist worker, a test of its own) may
take it meanwhile. All of one server's ports are drawn together, each socket held until the
last is bound, so the system cannot give the same port twice to one server.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Callable
from typing import TypeVar

HANDED_OUT: set[int] = set()
"""Every port this process has drawn: never handed out twice, so two servers of one test session
(or the IMAP and IMAPS ports of one Dovecot) cannot be given the same port."""
START_TRIES = 3

Server = TypeVar("Server")


class PortClash(RuntimeError):
    """A server could not bind a port drawn for it: another process took it meanwhile."""


def free_ports(count: int) -> list[int]:
    """`count` distinct ports free on 127.0.0.1 now: all bound at once, so the system cannot give
    one twice, and none handed out before in this process."""
    sockets: list[socket.socket] = []
    ports: list[int] = []
    try:
        while len(ports) < count:
            s = socket.socket()
            sockets.append(s)
            s.bind(("127.0.0.1", 0))
            if s.getsockname()[1] not in HANDED_OUT:
                ports.append(s.getsockname()[1])
        HANDED_OUT.update(ports)
        return ports
    finally:
        for s in sockets:
            s.close()


def free_port() -> int:
    return free_ports(1)[0]


def clashing_port(log: str, ports: list[int]) -> int | None:
    """The port a server's log says it could not bind ("listen(127.0.0.1, 35567) failed: Address
    already in use"), if it is one of `ports`."""
    for found in re.findall(r"(?:bind|listen)\([^,]*, (\d+)\) failed: Address already in use", log):
        if int(found) in ports:
            return int(found)
    return None


def start_on_a_free_port(start: Callable[[int], Server], what: str, *, port: int | None = None,
                         draw: Callable[[], int] = free_port, clashes: list[str] | None = None) -> Server:
    """`start(port)` on a drawn port; a start that cannot bind it (OSError, or aiosmtpd's
    RuntimeError wrapping one) is tried again on a new port, START_TRIES in all, each clash
    noted in `clashes`. A `port` given is tried once: a server restarted where it was."""
    for attempt in range(1, START_TRIES + 1):
        chosen = port or draw()
        try:
            return start(chosen)
        except (OSError, RuntimeError) as exc:
            clash = f"{what}: port {chosen} was taken by another process ({exc})"
            if clashes is not None:
                clashes.append(clash)
            if port or attempt == START_TRIES:
                raise PortClash(f"{clash}; tried {attempt} time(s)") from exc
    raise AssertionError("unreachable")
