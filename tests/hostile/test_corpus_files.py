"""The committed hostile corpus is exactly what tests/hostile/make_corpus.py writes, and holds
every class the issue lists with at least 100 mails."""

from __future__ import annotations

from pathlib import Path

from tests.hostile.make_corpus import CORPUS, build, kind_of, write

ISSUE_CLASSES = ("subject-linebreak-raw", "subject-linebreak-q", "surrogate-subject-utf-7", "surrogate-body-utf-7",
                 "surrogate-subject-unicode_escape", "surrogate-subject-raw_unicode_escape", "nul-header",
                 "nested-multipart-980", "campaign-line", "unknown-tag", "rift-long-move-1000",
                 "conquest-event-repeat-1000", "conquest-event-line-100k", "battle-result-dashes", "markdown-phish",
                 "secret-outside", "message-id-outlook", "message-id-missing", "no-sender", "reused-message-id",
                 "forged-sender", "auto-bounce", "auto-vacation", "auto-list", "oversize", "broken-mime",
                 "forged-forum-id-folder", "forged-forum-id-discourse", "header-injection-from")
"""Every class the issue lists, as a part of some corpus file's name."""


def test_regenerating_the_corpus_gives_the_committed_files(tmp_path: Path) -> None:
    write(tmp_path)
    fresh = {p.name: p.read_bytes() for p in tmp_path.glob("*.eml")}
    committed = {p.name: p.read_bytes() for p in CORPUS.glob("*.eml")}
    assert sorted(fresh) == sorted(committed)
    assert [name for name in fresh if fresh[name] != committed[name]] == []


def test_the_corpus_has_every_class_and_at_least_100_mails() -> None:
    names = list(build())
    assert len(names) >= 100
    assert [c for c in ISSUE_CLASSES if not any(c in name for name in names)] == []
    assert [name for name in names if not kind_of(name)] == []
