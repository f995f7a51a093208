"""Season roots live in a tmpfs when there is one: pbem fsyncs every write, and a season writes
thousands of files; the simulation checks what pbem does, not the disk."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture
def season_root() -> Iterator[Path]:
    scratch = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=scratch, prefix="pbem-season-") as tmp:
        yield Path(tmp)
