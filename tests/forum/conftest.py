"""Fixtures for forum tests: a real loopback Discourse-like server, a folder thread."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest

from tests.forum.discourse_server import DiscourseServer, DiscourseState

API_KEY = "k" * 64
BOT = "pbem_bot"


@pytest.fixture
def discourse() -> Iterator[DiscourseServer]:
    state = DiscourseState(API_KEY, {BOT, "alice", "bob", "mallory", "gm_dave", "system"})
    server = DiscourseServer(state)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
