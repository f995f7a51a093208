"""PNG from a picture's SVG, by resvg (resvg-py: a wheel with no system libraries; MIT, on the
maintained Rust renderer), with the bundled DejaVu Sans only, so every machine draws the same."""

from __future__ import annotations

from pathlib import Path

FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = [str(FONTS / "DejaVuSans.ttf"), str(FONTS / "DejaVuSans-Bold.ttf")]


class PictureError(RuntimeError):
    """A picture that could not be made (one line, for the game master)."""


def png(svg: str) -> bytes:
    """The SVG rasterised at its own size, on white."""
    import resvg_py

    try:
        data: bytes = resvg_py.svg_to_bytes(
            svg_string=svg, background="#ffffff", skip_system_fonts=True, font_files=FONT_FILES,
            font_family="DejaVu Sans", sans_serif_family="DejaVu Sans")
    except ValueError as exc:
        raise PictureError(f"the map picture could not be rasterised: {exc}") from exc
    return bytes(data)
