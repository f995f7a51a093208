"""PNG from a picture's SVG, by resvg (svg2png-py: a wheel with no system libraries; MIT, on the
maintained Rust renderer), with the bundled DejaVu Sans only, so every machine draws the same.

resvg hands back the raw pixels, which are reduced here to at most 256 colours and written once
as an indexed PNG (a third of the bytes of an RGBA one), so a report mail with its map stays
small and no PNG is encoded and decoded on the way. A tick run again after a crash or
`pbem render` draws the same SVG again, so a process keeps the PNGs of the last SVG texts it
rasterised.
"""

from __future__ import annotations

import ctypes
import functools
import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray
    from PIL import Image

FONTS = Path(__file__).resolve().parent / "fonts"
FONT_FILES = [str(FONTS / "DejaVuSans.ttf"), str(FONTS / "DejaVuSans-Bold.ttf")]
# A copy of the regular face with only the common characters (scripts/subset_fonts.py): resvg
# reopens a font's file for every glyph it draws, which costs far less for a small file. Only
# the title is bold, and a bold copy could not be used: for a character missing from it resvg
# falls back to the first face that has it, whatever its weight.
COMMON_FONT_FILE = str(FONTS / "DejaVuSans-Common.ttf")
COLOURS = 256          # an indexed PNG's most
KEPT = 64              # PNGs remembered, by SVG text: ~70 KB each
WHITE = (255, 255, 255, 255)
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3   # glibc's mallopt parameters (malloc.h)


class PictureError(RuntimeError):
    """A picture that could not be made (one line, for the game master)."""


class Raster(NamedTuple):
    """resvg's pixels: `rgba` holds width x height pixels of 4 bytes, red first, row by row.
    They are drawn on opaque white, so every alpha is 255 (premultiplying changes nothing)."""

    width: int
    height: int
    rgba: bytes


_done: OrderedDict[bytes, bytes] = OrderedDict()
_TABLE_LOCK = threading.Lock()   # the index table is shared by every call (pbem table serves pictures from threads)


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


def rasterise(svg: str) -> Raster:
    """The SVG's pixels at its own size, on white."""
    import svg2png_py  # type: ignore[import-untyped]  # ships a stub but no py.typed

    _keep_freed_memory()
    try:
        rgba, width, height = svg2png_py.svg_to_rgba(svg, _fonts(), bg_color=WHITE, options=_options())
    except RuntimeError as exc:
        raise PictureError(f"the map picture could not be rasterised: {exc}") from exc
    return Raster(width, height, bytes(rgba))


@functools.cache
def _fonts() -> Any:
    """The bundled fonts, read once per process (resvg's font database, shared by every call).
    The common copy comes first, so resvg picks it for regular "DejaVu Sans"; for a character it
    lacks resvg falls back to the whole regular face, the next with that character."""
    import svg2png_py

    fonts = svg2png_py.FontDatabase()
    for path in [COMMON_FONT_FILE, *FONT_FILES]:
        fonts.load_font_file(path)
    return fonts


@functools.cache
def _keep_freed_memory() -> None:
    """Have glibc keep the memory a picture frees for the next one. Each picture allocates a few
    blocks of 2.5 MB (resvg's canvas, its copy, the palette's arrays); by default glibc hands the
    freed ones back to the kernel and the next picture takes a page fault for each of their
    pages again, a tenth of the picture path. Blocks under 8 MB now come from the heap, and up
    to 32 MB of freed heap stays with the process, which a tick ends soon anyway. Elsewhere
    than glibc (musl, macOS) there is no `mallopt` and nothing changes."""
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (AttributeError, OSError):
        return
    mallopt(M_MMAP_THRESHOLD, 8 << 20)
    mallopt(M_TRIM_THRESHOLD, 32 << 20)


@functools.cache
def _options() -> Any:
    import svg2png_py

    return svg2png_py.RenderOptions(font_family="DejaVu Sans")


def fewer_colours(raster: Raster) -> bytes:
    """The pixels as an indexed PNG with a palette of their 256 commonest colours: the large flat
    areas, the owners' colours among them, keep their exact colour; only the rare anti-aliased
    edge pixels move to a near entry. No dithering: it would speckle the areas. The palette is
    chosen here because Pillow's own choice and mapping are approximate (one entry per 4x4x4 box
    of colours, so two flat colours in a box would merge). Only the rare colours are mapped by
    Pillow: its entry is within a few steps of the nearest, found at a hundredth of the cost of
    an exact search."""
    import numpy as np
    from PIL import Image

    keys = np.frombuffer(raster.rgba, dtype="<u4") & np.uint32(0xFFFFFF)     # each pixel's colour key
    found, counts = np.unique(keys, return_counts=True)
    found = found[np.argsort(-counts, kind="stable")]                        # commonest first; ties by key
    colours = _unpacked(found)
    palette = Image.new("P", (1, 1))
    palette.putpalette(colours[:COLOURS].tobytes())
    rows = np.empty((raster.height, raster.width + 1), dtype=np.uint8)        # each row: filter 0, its indices
    rows[:, 0] = 0
    with _TABLE_LOCK:
        table = _index_table()
        table[found] = _entries(colours, palette)
        np.take(table, keys.reshape(raster.height, raster.width), out=rows[:, 1:])
    return _indexed_png(raster.width, raster.height, colours[:COLOURS].tobytes(), rows.tobytes())


@functools.cache
def _index_table() -> NDArray[np.uint8]:
    """Palette index by colour key, so one gather maps every pixel. Only the entries of the
    picture's own colours are written and read, so the table is never cleared, and it is kept
    (16 MB) for the process: a new one costs a page fault for each page its colours touch, a
    fifth of the palette step."""
    import numpy as np

    return np.empty(1 << 24, dtype=np.uint8)


def _entries(colours: NDArray[np.uint8], palette: Image.Image) -> NDArray[np.uint8]:
    """Each colour's palette entry: the first COLOURS are the palette itself, in order; each
    other one goes to a near entry by Pillow's mapping."""
    import numpy as np
    from PIL import Image

    rare = np.ascontiguousarray(colours[COLOURS:])
    if not len(rare):
        return np.arange(len(colours), dtype=np.uint8)
    strip = Image.frombuffer("RGB", (len(rare), 1), rare.tobytes(), "raw", "RGB", 0, 1)
    mapped = np.frombuffer(strip.quantize(palette=palette, dither=Image.Dither.NONE).tobytes(), dtype=np.uint8)
    return np.concatenate([np.arange(COLOURS, dtype=np.uint8), mapped])


def _indexed_png(width: int, height: int, palette: bytes, rows: bytes) -> bytes:
    """An 8-bit indexed PNG of the given palette (red, green, blue a colour) and rows (each a
    filter byte, then an index a pixel). libdeflate compresses as well as zlib at the same level
    in under half the time; the four chunks are all a viewer needs."""
    import deflate

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)   # 8 bits, indexed, deflate, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"PLTE", palette)
            + chunk(b"IDAT", bytes(deflate.zlib_compress(rows, 6))) + chunk(b"IEND", b""))


def _unpacked(keys: NDArray[np.uint32]) -> NDArray[np.uint8]:
    """Each colour key (as an opaque RGBA pixel reads as a little-endian number less its alpha:
    red + green * 2**8 + blue * 2**16) as a row of red, green, blue."""
    import numpy as np

    return np.stack([keys, keys >> np.uint32(8), keys >> np.uint32(16)], axis=1).astype(np.uint8)
