"""Inboxes: a real Maildir and a real folder of .eml files on disk."""

from __future__ import annotations

import mailbox
import os
from pathlib import Path

import pytest

from pbem.mail.inbox import EmlFolderInbox, MaildirInbox, open_inbox


def mail(n: int) -> bytes:
    return f"From: p{n}@example.org\nMessage-ID: <m{n}@example.org>\n\nR-{n} H\n".encode()


def age(path: Path, seconds: int) -> None:
    os.utime(path, ns=(seconds * 10**9, seconds * 10**9))


def maildir_file(root: Path, key: str) -> Path:
    (found,) = [p for p in root.glob("*/*") if p.name.split(":")[0] == key]
    return found


@pytest.fixture
def maildir(tmp_path: Path) -> tuple[Path, list[str]]:
    """A Maildir holding three messages whose mtimes run opposite to their delivery order."""
    root = tmp_path / "inbox"
    box = mailbox.Maildir(root, create=True)
    keys = [box.add(mail(n)) for n in range(3)]
    for seconds, key in zip((300, 200, 100), keys, strict=True):
        age(maildir_file(root, key), seconds)
    return root, keys


def test_maildir_items_come_oldest_first(maildir: tuple[Path, list[str]]) -> None:
    root, keys = maildir
    items = list(MaildirInbox(root).items())
    assert [item.key for item in items] == keys[::-1]
    assert items[0].raw == mail(2)


def test_maildir_mark_done_moves_to_cur_with_seen_flag(maildir: tuple[Path, list[str]]) -> None:
    root, keys = maildir
    inbox = MaildirInbox(root)
    inbox.mark_done(keys[0])
    assert maildir_file(root, keys[0]) == root / "cur" / f"{keys[0]}:2,S"
    assert keys[0] not in [item.key for item in inbox.items()]


def test_maildir_mark_done_is_idempotent(maildir: tuple[Path, list[str]]) -> None:
    root, keys = maildir
    inbox = MaildirInbox(root)
    inbox.mark_done(keys[1])
    inbox.mark_done(keys[1])
    inbox.mark_done("no-such-key")
    assert maildir_file(root, keys[1]).name == f"{keys[1]}:2,S"
    assert [item.key for item in inbox.items()] == [keys[2], keys[0]]


def test_maildir_reads_unseen_cur_mail_and_keeps_other_flags(tmp_path: Path) -> None:
    root = tmp_path / "inbox"
    box = mailbox.Maildir(root, create=True)
    flagged, seen = mailbox.MaildirMessage(mail(1)), mailbox.MaildirMessage(mail(2))
    for message, flags in ((flagged, "F"), (seen, "S")):
        message.set_subdir("cur")
        message.set_flags(flags)
    flagged_key, _ = box.add(flagged), box.add(seen)
    inbox = MaildirInbox(root)
    assert [item.key for item in inbox.items()] == [flagged_key]
    inbox.mark_done(flagged_key)
    assert maildir_file(root, flagged_key).name == f"{flagged_key}:2,FS"


def test_missing_maildir_is_created(tmp_path: Path) -> None:
    assert list(MaildirInbox(tmp_path / "new-inbox").items()) == []
    assert (tmp_path / "new-inbox" / "tmp").is_dir()


def test_eml_folder_orders_by_mtime_then_name_and_ignores_other_files(tmp_path: Path) -> None:
    for name, seconds in [("b.eml", 100), ("a.eml", 100), ("c.EML", 50), ("notes.txt", 10)]:
        (tmp_path / name).write_bytes(mail(len(name)))
        age(tmp_path / name, seconds)
    assert [item.key for item in EmlFolderInbox(tmp_path).items()] == ["c.EML", "a.eml", "b.eml"]


def test_eml_mark_done_moves_to_processed_and_is_idempotent(tmp_path: Path) -> None:
    (tmp_path / "a.eml").write_bytes(mail(1))
    (tmp_path / "b.eml").write_bytes(mail(2))
    inbox = EmlFolderInbox(tmp_path)
    inbox.mark_done("a.eml")
    inbox.mark_done("a.eml")
    inbox.mark_done("gone.eml")
    assert (tmp_path / "processed" / "a.eml").read_bytes() == mail(1)
    assert [item.key for item in inbox.items()] == ["b.eml"]


def test_eml_mark_done_refuses_paths(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match=r"not an \.eml file name"):
        EmlFolderInbox(tmp_path).mark_done("../campaign.toml")


def test_open_inbox_resolves_relative_paths_against_base(tmp_path: Path) -> None:
    inbox = open_inbox({"type": "maildir", "path": "inbox"}, tmp_path)
    assert isinstance(inbox, MaildirInbox) and inbox.path == tmp_path / "inbox"
    absolute = tmp_path / "elsewhere"
    eml = open_inbox({"type": "eml", "path": str(absolute)}, tmp_path / "campaign")
    assert isinstance(eml, EmlFolderInbox) and eml.path == absolute


def test_open_inbox_rejects_unknown_types_clearly(tmp_path: Path) -> None:
    with pytest.raises(
        ValueError, match="unknown inbox type 'pop3'; expected one of: maildir, eml"
    ):
        open_inbox({"type": "pop3", "path": "x"}, tmp_path)
    with pytest.raises(ValueError, match="needs a path"):
        open_inbox({"type": "eml"}, tmp_path)
