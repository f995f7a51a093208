"""Property tests: whatever a dropped post file holds and whatever JSON a Discourse site
answers, reading the forum files or reads every post, or fails with one ForumError."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.forum.base import ForumError, advance
from pbem.forum.discourse import Credentials, DiscourseForum
from pbem.forum.folder import FolderForum

HEADER_VALUES = st.one_of(st.integers(-5, 10**12), st.text(max_size=12), st.booleans(), st.none(),
                          st.lists(st.integers(), max_size=2))
HEADERS = st.dictionaries(st.sampled_from(["author", "id", "in_reply_to", "title", "created", "key", "x"]),
                          HEADER_VALUES, max_size=5)


def header_text(header: dict[str, Any]) -> str:
    lines = []
    for key, value in header.items():
        if value is None:
            lines.append(f"{key} = ")          # broken TOML on purpose
        elif isinstance(value, str):
            lines.append(f"{key} = {value!r}".replace("'", '"'))
        else:
            lines.append(f"{key} = {str(value).lower()}")
    return "+++\n" + "\n".join(lines) + "\n+++\nSTATUS\n"


@settings(derandomize=True, max_examples=30, deadline=None)
@given(st.lists(st.one_of(HEADERS.map(header_text).map(str.encode), st.binary(max_size=80)), min_size=1,
                max_size=4),
       st.lists(st.sampled_from(["a.md", "000001-x.md", "000002-y.md", "zz.md", "000009-q.md"]), min_size=4,
                max_size=4))
def test_every_dropped_file_is_filed_and_read_once_and_nothing_raises(files: list[bytes], names: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        forum = FolderForum(Path(tmp) / "thread")
        written = {}
        for data, name in zip(files, names, strict=False):
            written[name] = data
        for name, data in written.items():
            (forum.path / name).write_bytes(data)
        start = time.perf_counter()
        posts = forum.fetch({})
        assert time.perf_counter() - start < 2.0
        assert len(posts) == len(written) and len({p.id for p in posts}) == len(posts)
        cursor: dict[str, int] = {}
        for post in posts:
            cursor = advance(cursor, post)
        assert forum.fetch(cursor) == [] and not forum.skipped


JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-3, 200), st.text(max_size=5)),
                    lambda inner: st.one_of(st.lists(inner, max_size=3),
                                            st.dictionaries(st.sampled_from(
                                                ["post_stream", "stream", "posts", "id", "post_number", "raw",
                                                 "username", "topic_list", "topics", "highest_post_number",
                                                 "per_page", "title", "action"]), inner, max_size=4)),
                    max_leaves=12)


class Scripted(DiscourseForum):
    """A DiscourseForum whose every answer is a given JSON object (no network)."""

    def __init__(self, answers: list[Any]) -> None:
        super().__init__("http://127.0.0.1:9", 5, Credentials("k", "pbem_bot"))
        self.answers = answers

    def _request(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        answer = self.answers.pop(0) if self.answers else {}
        if not isinstance(answer, dict):
            raise ForumError("not an object")      # what the real _request does with a non-object
        return answer


@settings(derandomize=True, max_examples=80, deadline=None)
@given(st.lists(JSON, min_size=1, max_size=6))
def test_any_json_answer_either_reads_or_is_a_forum_error(answers: list[Any]) -> None:
    for call in ("fetch", "publish"):
        forum = Scripted(list(answers))
        try:
            if call == "fetch":
                forum.fetch({})
            else:
                forum.publish("turn-1/x", "t", "text")
        except ForumError:
            pass
