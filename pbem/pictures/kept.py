"""A resolved stage's public map picture kept beside the game it shows:
`history/<turn>/stages/<stage>.svg` and `.png` next to `<stage>.toml`.

The tick draws and rasterises the picture once as the stage resolves, for its mails and posts,
and keeps it; `pbem render` and the archive site then read it instead of drawing the same
picture again (a rasterised map costs a few hundred milliseconds, and the site redraws every
turn at each turn's end). A kept picture older than its stage's game or than the campaign's
settings (a side's colour or name changed) is not used: the picture is drawn anew from the game.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pbem.pictures.picture import Picture
from pbem.state.store import write_atomic


def keep(picture: Picture, snapshot: Path) -> None:
    """Store `picture` beside `snapshot`, the stored game it was drawn from."""
    write_atomic(snapshot.with_suffix(".svg"), picture.svg)
    if picture.png:
        write_atomic(snapshot.with_suffix(".png"), picture.png)


def kept(snapshot: Path, name: str, raster: bool = True, settings: Sequence[Path] = ()) -> Picture | None:
    """The picture kept beside `snapshot`, named `name`, or None when there is none (or no PNG
    though `raster` asks for one), or it is older than the snapshot or any of the `settings` files."""
    svg, png = snapshot.with_suffix(".svg"), snapshot.with_suffix(".png")
    wanted = [svg, png] if raster else [svg]
    try:
        oldest = min(path.stat().st_mtime_ns for path in wanted)
        newest_source = max(path.stat().st_mtime_ns for path in [snapshot, *settings] if path.exists())
    except (FileNotFoundError, ValueError):
        return None
    if oldest < newest_source:
        return None
    try:
        return Picture(name, svg.read_text(encoding="utf-8"), png.read_bytes() if raster else b"")
    except (OSError, UnicodeDecodeError):
        return None
