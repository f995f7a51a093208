"""PNG from a picture's SVG, by resvg (resvg-py: a wheel with no system libraries; MIT, on the
maintained Rust renderer), with the bundled DejaVu Sans only, so every machine draws the same.

The PNG keeps at most 256 colours (an indexed PNG, a third of the bytes of resvg's RGBA),
so a report mail with its map stays small. Rasterising costs half a second, and one stage's
picture goes to every player (and `pbem render`, the forum and a re-run tick draw it again), so
a process keeps the PNGs of the last few SVG texts it rasterised.
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from pathlib import Path

FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = [str(FONTS / "DejaVuSans.ttf"), str(FONTS / "DejaVuSans-Bold.ttf")]
COLOURS = 256          # an indexed PNG's most
KEPT = 32              # PNGs remembered, by SVG text: ~70 KB each


class PictureError(RuntimeError):
    """A picture that could not be made (one line, for the game master)."""


_done: OrderedDict[bytes, bytes] = OrderedDict()


def png(svg: str) -> bytes:
    """The SVG rasterised at its own size, on white, in at most 256 colours."""
    key = hashlib.sha256(svg.encode("utf-8")).digest()
    data = _done.get(key)
    if data is None:
        data = fewer_colours(rasterise(svg))
        _done[key] = data
        while len(_done) > KEPT:
            _done.popitem(last=False)
    _done.move_to_end(key)
    return data


def rasterise(svg: str) -> bytes:
    """resvg's own PNG (RGBA)."""
    import resvg_py

    try:
        data: bytes = resvg_py.svg_to_bytes(
            svg_string=svg, background="#ffffff", skip_system_fonts=True, font_files=FONT_FILES,
            font_family="DejaVu Sans", sans_serif_family="DejaVu Sans")
    except ValueError as exc:
        raise PictureError(f"the map picture could not be rasterised: {exc}") from exc
    return bytes(data)


def fewer_colours(data: bytes) -> bytes:
    """The PNG with a palette of its 256 commonest colours: the large flat areas, the owners'
    colours among them, keep their exact colour; only the rare anti-aliased edge pixels move to
    the nearest entry. No dithering: it would speckle the areas. Pillow reads and writes the
    PNG; the palette is chosen here because Pillow's own mapping to a palette is approximate."""
    import numpy as np
    from PIL import Image
    from scipy.spatial import cKDTree  # type: ignore[import-untyped]  # scipy ships no type hints

    with Image.open(io.BytesIO(data)) as image:
        pixels = np.asarray(image.convert("RGB"), dtype=np.uint32)
    keys = (pixels[..., 0] << 16) | (pixels[..., 1] << 8) | pixels[..., 2]
    colours, where, counts = np.unique(keys, return_inverse=True, return_counts=True)
    rgb = np.stack([(colours >> shift) & 255 for shift in (16, 8, 0)], axis=1)
    kept = rgb[np.argsort(-counts, kind="stable")[:COLOURS]]
    _, nearest = cKDTree(kept).query(rgb)          # a kept colour is its own nearest
    index = nearest.astype(np.uint8)[where.reshape(-1)]
    indexed = Image.frombytes("P", (pixels.shape[1], pixels.shape[0]), index.tobytes())
    indexed.putpalette(kept.astype(np.uint8).tobytes())
    out = io.BytesIO()
    indexed.save(out, format="PNG")
    return out.getvalue()
