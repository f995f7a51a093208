"""Files that survive crashes: atomic writes, writes of several files as one, a per-campaign
lock, TOML helpers.

A write goes to a temporary file in the same folder, is fsync'd, and renamed
over the target, so readers see the old file or the new one, never half of
either. Files that must change together (a campaign's state and its auth file)
are first written whole into one intent file, which `recover` rolls forward
after a crash, so a crash leaves either all of them old or all of them new.
Each file is fsync'd once; the fsync of the folders whose entries changed (what makes a rename
survive a power cut) is done at once, or, inside `batched_folder_syncs` (a tick), once per folder
at each `sync_folders()`: before anything leaves the machine (a mail marked done on the server,
mail handed to a transport, a post) and at the batch's end.
The lock is an advisory `flock` on `<campaign>/.lock`, held for a whole tick,
so overlapping cron runs wait for each other (or skip); whoever takes it first
finishes an interrupted write and sweeps the temporary files a kill left behind.
"""

from __future__ import annotations

import base64
import contextlib
import contextvars
import fcntl
import hashlib
import json
import os
import tempfile
import time
import tomllib
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import tomli_w

INTENT = ".write-intent.json"
"""The files of one write_together, whole, in the folder they belong to."""
LEFTOVER_AGE = 60.0
"""Seconds after which a temporary file of an atomic write is a leftover of a killed run:
every write finishes within it, and a campaign's writers all hold its lock."""


class StoreError(RuntimeError):
    """A campaign file that cannot be read; names the file and the reason."""


class WriteError(StoreError, OSError):
    """A file that could not be written (a full disk, a read-only folder): one line naming it.
    Nothing was replaced; the old file is intact."""


_unsynced: contextvars.ContextVar[set[Path] | None] = contextvars.ContextVar("unsynced", default=None)


@contextlib.contextmanager
def batched_folder_syncs() -> Iterator[None]:
    """Within it, the folder fsyncs of atomic writes wait for `sync_folders()` (and the end), so
    a folder that gets many files (the outgoing queue, history) is fsync'd once, not per file."""
    if _unsynced.get() is not None:
        yield
        return
    token = _unsynced.set(set())
    try:
        yield
    finally:
        sync_folders()
        _unsynced.reset(token)


def sync_folders() -> None:
    """Make the renames waiting in a batch durable: one fsync per folder."""
    waiting = _unsynced.get()
    while waiting:
        _sync_folder_now(waiting.pop())


_write_hook: contextvars.ContextVar[Callable[[Path], None] | None] = contextvars.ContextVar("write_hook", default=None)


@contextlib.contextmanager
def watching_writes(hook: Callable[[Path], None]) -> Iterator[None]:
    """Test seam: `hook(target)` runs before every atomic replace, once the new data is on
    disk in its temporary file; raising there is a kill between two writes."""
    token = _write_hook.set(hook)
    try:
        yield
    finally:
        _write_hook.reset(token)


def write_atomic(path: Path, data: bytes | str) -> None:
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = _write_temporary(path, raw)
    except OSError as exc:
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    hook = _write_hook.get()
    if hook is not None:
        hook(path)          # outside the clean-up below: a kill leaves the temporary file
    try:
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise WriteError(f"{path}: cannot write: {exc.strerror or exc}") from exc
    _fsync_dir(path.parent)


def _write_temporary(path: Path, raw: bytes) -> str:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp


def _fsync_dir(folder: Path) -> None:
    waiting = _unsynced.get()
    if waiting is not None:
        waiting.add(folder)
    else:
        _sync_folder_now(folder)


def _sync_folder_now(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# -- several files as one write ---------------------------------------------------


def write_together(folder: Path, files: Mapping[Path, bytes | str]) -> None:
    """Replace all `files` (inside `folder`) or none: a crash part-way is finished by the next
    `recover(folder)`. The intent file holds every new content with a digest; only once it is
    on disk are the files replaced one by one, then it is removed."""
    if len(files) == 1:
        [(path, data)] = files.items()
        write_atomic(path, data)
        return
    contents = {_inside(folder, path): _raw(data) for path, data in files.items()}
    write_atomic(folder / INTENT, _intent(contents))
    _sync_folder_now(folder)            # the intent is on disk before any file it names is replaced
    _apply(folder, contents)


def recover(folder: Path) -> str:
    """Finish or discard a write_together a crash interrupted; call it holding the folder's
    lock, before reading the files. Returns what was done ("" when nothing was pending)."""
    path = folder / INTENT
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return ""
    contents = _read_intent(text)
    if contents is None:
        _remove(path)
        return f"{path}: an unfinished write was discarded; the files are as before it"
    _apply(folder, contents)
    return f"{path}: an interrupted write was completed"


def _apply(folder: Path, contents: Mapping[str, bytes]) -> None:
    for name, raw in contents.items():
        write_atomic(folder / name, raw)
    _remove(folder / INTENT)


def _intent(contents: Mapping[str, bytes]) -> bytes:
    files = {name: base64.b64encode(raw).decode("ascii") for name, raw in contents.items()}
    body = json.dumps(files, sort_keys=True)
    return json.dumps({"sha256": hashlib.sha256(body.encode()).hexdigest(), "files": body}).encode()


def _read_intent(text: bytes) -> dict[str, bytes] | None:
    """The intent's files, or None when it is not whole (its digest does not match)."""
    try:
        record = json.loads(text)
        body = record["files"]
        if hashlib.sha256(body.encode()).hexdigest() != record["sha256"]:
            return None
        files = json.loads(body)
        return {_checked_name(name): base64.b64decode(data, validate=True) for name, data in files.items()}
    except (ValueError, KeyError, TypeError, AttributeError):
        return None


def _inside(folder: Path, path: Path) -> str:
    return _checked_name(str(Path(path).relative_to(folder)))


def _checked_name(name: str) -> str:
    if not name or Path(name).is_absolute() or ".." in Path(name).parts:
        raise ValueError(f"{name!r}: not a file inside the folder")
    return name


def _raw(data: bytes | str) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _remove(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    _fsync_dir(path.parent)


def sweep_leftovers(folder: Path, older_than: float = LEFTOVER_AGE) -> list[Path]:
    """Delete the temporary files of atomic writes (`.<name>.<random>.tmp`) under `folder`
    that a killed run left behind; returns them."""
    limit = time.time() - older_than
    gone: list[Path] = []
    for path in folder.rglob(".*.tmp"):
        with contextlib.suppress(OSError):
            if path.is_file() and path.stat().st_mtime <= limit:
                path.unlink()
                gone.append(path)
    return gone


# -- TOML -------------------------------------------------------------------------


def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise StoreError(f"{path}: file not found") from exc
    except tomllib.TOMLDecodeError as exc:
        raise StoreError(f"{path}: broken TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise StoreError(f"{path}: not UTF-8 text: {exc}") from exc


def toml_text(data: Mapping[str, Any], header: str = "") -> str:
    text = tomli_w.dumps(dict(data), multiline_strings=True)
    return (header + "\n" if header else "") + text


def write_toml(path: Path, data: Mapping[str, Any], header: str = "") -> None:
    write_atomic(path, toml_text(data, header))


# -- the lock ---------------------------------------------------------------------


class LockBusy(RuntimeError):
    """Another run holds the campaign lock."""


@contextlib.contextmanager
def campaign_lock(folder: Path, wait: bool = True) -> Iterator[None]:
    """Hold `<folder>/.lock` exclusively; with wait=False raise LockBusy at once. Once held,
    an interrupted write_together is finished and old temporary files are swept, so whoever
    reads the folder under the lock sees whole files."""
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / ".lock", "a+") as fh:
        flags = fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(fh.fileno(), flags)
        except BlockingIOError as exc:
            raise LockBusy(f"{folder} is being processed by another run") from exc
        try:
            recover(folder)
            sweep_leftovers(folder)
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
