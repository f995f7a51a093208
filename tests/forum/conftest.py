"""Fixtures for forum tests: a real loopback Discourse-like server, a folder thread."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.forum.discourse_server import DiscourseServer, DiscourseState, serving

API_KEY = "k" * 64
BOT = "pbem_bot"


@pytest.fixture
def discourse() -> Iterator[DiscourseServer]:
    state = DiscourseState(API_KEY, {BOT, "alice", "bob", "mallory", "gm_dave", "system"})
    with serving(DiscourseServer(state)) as server:
        yield server
