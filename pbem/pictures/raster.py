"""PNG from a picture's SVG, by resvg (resvg-py: a wheel with no system libraries; MIT, on the
maintained Rust renderer), with the bundled DejaVu Sans only, so every machine draws the same.

The PNG keeps at most 256 colours (an indexed PNG, a third of the bytes of resvg's RGBA),
so a report mail with its map stays small. Rasterising costs half a second, and a tick run again
after a crash or `pbem render` draws the same SVG again, so a process keeps the PNGs of the last
SVG texts it rasterised.
"""

from __future__ import annotations

import hashlib
import io
from collections import OrderedDict
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = [str(FONTS / "DejaVuSans.ttf"), str(FONTS / "DejaVuSans-Bold.ttf")]
COLOURS = 256          # an indexed PNG's most
KEPT = 64              # PNGs remembered, by SVG text: ~70 KB each


class PictureError(RuntimeError):
    """A picture that could not be made (one line, for the game master)."""


_done: OrderedDict[bytes, bytes] = OrderedDict()


def png(svg: str) -> bytes:
    """The SVG rasterised at its own size, on white, in at most 256 colours."""
    key = hashlib.sha256(svg.encode("utf-8")).digest()
    data = _done.pop(key, None)
    if data is None:
        data = fewer_colours(rasterise(svg))
    _done[key] = data                              # the most recently used last
    while len(_done) > KEPT:
        _done.popitem(last=False)
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
    PNG; the palette is chosen here because Pillow's own mapping to a palette is approximate
    (one entry per 4x4x4 box of colours, so two flat colours in a box would merge)."""
    import numpy as np
    from PIL import Image

    with Image.open(io.BytesIO(data)) as image:
        rgba = image.convert("RGBA")               # resvg's own mode: no conversion
    counted = rgba.getcolors(rgba.width * rgba.height) or []
    counted.sort(key=itemgetter(0), reverse=True)
    colours = np.array([colour for _, colour in counted], dtype=np.uint8).reshape(-1, 4)[:, :3]
    kept = colours[:COLOURS]
    table = np.zeros(1 << 24, dtype=np.uint8)      # palette index by colour key: one gather maps every pixel
    table[_packed(colours)] = _nearest(kept, colours)
    index = table[np.frombuffer(rgba.tobytes(), dtype="<u4") & np.uint32(0xFFFFFF)]   # each pixel's key
    indexed = Image.frombytes("P", rgba.size, index.tobytes())
    indexed.putpalette(kept.tobytes())
    out = io.BytesIO()
    indexed.save(out, format="PNG")
    return out.getvalue()


def _nearest(kept: NDArray[np.uint8], colours: NDArray[np.uint8]) -> NDArray[np.intp]:
    """The index in `kept` of each colour's nearest kept colour (a kept colour is its own)."""
    import numpy as np

    if len(colours) <= len(kept):
        return np.arange(len(colours))
    from scipy.spatial import cKDTree  # type: ignore[import-untyped]  # scipy ships no type hints

    found: NDArray[np.intp] = cKDTree(kept.astype(np.float32)).query(colours[len(kept):].astype(np.float32))[1]
    return np.concatenate([np.arange(len(kept)), found])


def _packed(rgb: NDArray[np.uint8]) -> NDArray[np.uint32]:
    """Each colour's key, as an opaque RGBA pixel reads as a little-endian number less its alpha:
    red + green * 2**8 + blue * 2**16 (an array whose last axis is red, green, blue)."""
    import numpy as np

    wide = rgb.astype(np.uint32)
    packed: NDArray[np.uint32] = wide[..., 0] | (wide[..., 1] << np.uint32(8)) | (wide[..., 2] << np.uint32(16))
    return packed
