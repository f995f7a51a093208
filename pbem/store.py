"""Files that survive crashes: atomic writes, a per-campaign lock, TOML helpers.

A write goes to a temporary file in the same folder, is fsync'd, and renamed
over the target, so readers see the old file or the new one, never half of
either. The lock is an advisory `flock` on `<campaign>/.lock`, held for a
whole tick, so overlapping cron runs wait for each other (or skip).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import tomli_w


class StoreError(RuntimeError):
    """A campaign file that cannot be read; names the file and the reason."""


def write_atomic(path: Path, data: bytes | str) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _fsync_dir(path.parent)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise StoreError(f"{path}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise StoreError(f"{path}: broken TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise StoreError(f"{path}: not UTF-8 text: {exc}") from exc


def write_toml(path: Path, data: Mapping[str, Any], header: str = "") -> None:
    text = tomli_w.dumps(dict(data), multiline_strings=True)
    write_atomic(path, (header + "\n" if header else "") + text)


class LockBusy(RuntimeError):
    """Another run holds the campaign lock."""


@contextlib.contextmanager
def campaign_lock(folder: Path, wait: bool = True) -> Iterator[None]:
    """Hold `<folder>/.lock` exclusively; with wait=False raise LockBusy at once."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a+") as fh:
        flags = fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(fh.fileno(), flags)
        except BlockingIOError as exc:
            raise LockBusy(f"{folder} is being processed by another run") from exc
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
