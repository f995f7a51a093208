"""Property: whatever value of whatever type stands at a key pbem reads, loading the campaign
either works or ends in one SettingsError line naming the file and that key; never another
exception (which would stop the tick) and never a line break in the message."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pbem.state.campaign import Campaign, SettingsError
from pbem.state.store import read_toml
from tests.state.test_settings_validation import put_key
from tests.support.engine_helpers import dr_campaign

KEYS = {
    "campaign.toml": ["name", "title", "ruleset", "map", "address", "schedule", "schedule.orders", "schedule.timezone",
                      "schedule.at", "schedule.reminder", "gm", "gm.email", "gm.emails", "gm.secret", "gm.id",
                      "players", "players.0", "players.0.id", "players.0.email", "players.0.emails",
                      "players.0.secret", "players.0.name", "players.0.faction", "players.0.home", "players.0.forum",
                      "transport", "transport.inbox", "transport.inbox.type", "transport.inbox.path",
                      "transport.outbox", "transport.forum", "transport.forum.kind", "rules", "rules.movement",
                      "rules.movement.multiway_tie", "max_mail_bytes"],
    "state.toml": ["stage", "stage.deadline", "stage.opened", "stage.turn", "stage.kind", "stage.paused",
                   "stage.question", "stage.question.options", "stage.decisions", "submissions", "submissions.red",
                   "submissions.red.received", "journal", "replies", "replies.x", "gm_log", "forum", "forum.cursor",
                   "game"],
    "auth.toml": ["secrets", "secrets.red", "failures", "failures.x"],
}
SCALARS = st.one_of(st.integers(-2**40, 2**40), st.booleans(), st.floats(allow_nan=False, allow_infinity=False),
                    st.text(st.characters(blacklist_categories=("Cs",)), max_size=12),
                    st.sampled_from(["", "7d", "2026-11-23T09:00:00+00:00", "sha256:00", "a@b.c", "maildir",
                                     "rift_valley", "Europe/Berlin", "20:00", "gm"]))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text("abcdeforms", min_size=1, max_size=6), inner, max_size=3),
                      max_leaves=6)
CASES = st.sampled_from([(file, key) for file, keys in KEYS.items() for key in keys])


@settings(derandomize=True, max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(case=CASES, value=VALUES)
@example(case=("campaign.toml", "players.0"), value=[])     # a whole [[players]] entry replaced
def test_any_value_at_any_key_loads_or_is_one_settings_error_line(tmp_path: Path, case: tuple[str, str],
                                                                   value: Any) -> None:
    file, key = case
    folder = tmp_path / "campaigns" / "rift"
    if not folder.exists():
        dr_campaign(tmp_path)
        for name in KEYS:
            original = folder / name
            (tmp_path / name).write_bytes(original.read_bytes() if original.exists() else b"")
    for name in KEYS:
        (folder / name).write_bytes((tmp_path / name).read_bytes())
    data = read_toml(folder / file)
    put_key(key, value)(data)
    (folder / file).write_text(tomli_w.dumps(data))
    started = time.perf_counter()
    try:
        Campaign(folder)
    except SettingsError as exc:
        assert str(exc).startswith(f"{folder / file}: ") and "\n" not in str(exc), str(exc)
    assert time.perf_counter() - started < 2
