"""The engine's `[stage]` record is a typed dataclass read and written in one place
(pbem/stages/record.py), round-tripping through TOML with the stored form unchanged."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pbem.stages.record import Question, StageRecord
from pbem.state.store import read_toml, write_toml

STORED = {"kind": "orders", "title": "Turn 3: orders", "turn": 3, "opened": "2026-11-23T09:00:00+00:00",
          "deadline": "2026-11-30T20:00:00+00:00", "reminded": False, "force": False, "paused": False,
          "generation": 4}


def test_the_stored_form_round_trips_unchanged(tmp_path: Any) -> None:
    state: dict[str, Any] = {"stage": dict(STORED)}
    record = StageRecord.read(state)
    assert record.turn == 3 and record.due == datetime(2026, 11, 30, 20, tzinfo=UTC) and not record.held
    record.write(state)
    assert state["stage"] == STORED                   # no empty question, decisions or paused_at written
    write_toml(tmp_path / "state.toml", state)
    assert StageRecord.read(read_toml(tmp_path / "state.toml")) == record


def test_a_question_and_decisions_are_stored_and_dropped_again() -> None:
    state: dict[str, Any] = {"stage": dict(STORED)}
    record = StageRecord.read(state)
    record.question = Question("tie-T25", "Who takes T25?", ["R-1", "B-1"])
    record.write(state)
    assert state["stage"]["question"] == {"key": "tie-T25", "text": "Who takes T25?", "options": ["R-1", "B-1"]}
    again = StageRecord.read(state)
    assert again.waiting and again.held
    again.question, again.decisions["tie-T25"] = Question(), "B-1"
    again.write(state)
    assert "question" not in state["stage"] and state["stage"]["decisions"] == {"tie-T25": "B-1"}


def test_keys_written_by_hand_are_kept_and_no_stage_reads_as_not_started() -> None:
    state: dict[str, Any] = {"stage": {**STORED, "note": "moved by hand"}}
    record = StageRecord.read(state)
    record.paused, record.paused_at = True, "2026-11-24T10:00:00+00:00"
    record.write(state)
    assert state["stage"]["note"] == "moved by hand" and state["stage"]["paused_at"] == "2026-11-24T10:00:00+00:00"
    empty = StageRecord.read({})
    assert not empty.started and empty.due is None


def test_a_stage_record_edited_wrong_by_hand_is_named_before_it_is_read() -> None:
    from pbem.state.statecheck import state_problems

    bad = {"stage": {**STORED, "generation": "four", "paused_at": "yesterday"}}
    problems = state_problems(bad)
    assert any(p.startswith("stage.generation: found") for p in problems)
    assert any(p.startswith("stage.paused_at: found") for p in problems)


def test_ready_and_wait_are_stored_only_while_someone_said_them_and_checked_when_edited_by_hand() -> None:
    from pbem.state.statecheck import state_problems

    state: dict[str, Any] = {"stage": dict(STORED)}
    record = StageRecord.read(state)
    record.ready, record.wait = ["red"], ["blue"]
    record.write(state)
    assert (state["stage"]["ready"], state["stage"]["wait"]) == (["red"], ["blue"])
    assert StageRecord.read(state) == record and not state_problems(state)
    record.ready, record.wait = [], []
    record.write(state)
    assert state["stage"] == STORED
    bad = {"stage": {**STORED, "wait": "blue"}, "submissions": {"red": {"payload": {}, "rejected": "one"}}}
    problems = state_problems(bad)
    assert any(p.startswith("stage.wait: found") for p in problems), problems
    assert any(p.startswith("submissions.red.rejected: found") for p in problems), problems
