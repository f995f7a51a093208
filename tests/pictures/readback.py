"""Reading a map picture back, as a player's eye would: the SVG's areas, pieces and arrows, and
the pixels of its PNG (a small PNG decoder, so the tests need no imaging library)."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass

SVG = "{http://www.w3.org/2000/svg}"


@dataclass
class Drawn:
    areas: dict[str, tuple[str, str]]          # place -> (owner, fill)
    pieces: list[tuple[str, str, str, str]]    # (id, place, owner, text), in drawing order
    arrows: list[tuple[str, str, str]]         # (from, to, class)
    clashes: list[tuple[str, str]]             # (place, class)
    labels: set[str]
    root: ET.Element

    def piece(self, ident: str) -> tuple[str, str, str]:
        """(place, owner, text) of the first piece called `ident`."""
        return next(p[1:] for p in self.pieces if p[0] == ident)


def read_svg(text: str) -> Drawn:
    root = ET.fromstring(text)
    areas, pieces, arrows, clashes = {}, [], [], []
    for g in root.iter(f"{SVG}g"):
        cls = g.get("class", "")
        if cls == "place":
            fill = next(p.get("fill", "") for p in g.findall(f"{SVG}path"))
            areas[g.get("data-place", "")] = (g.get("data-owner", ""), fill)
        elif cls.startswith("piece"):
            text_el = g.find(f"{SVG}text")
            pieces.append((g.get("data-id", ""), g.get("data-place", ""), g.get("data-owner", ""),
                           text_el.text if text_el is not None and text_el.text else ""))
        elif cls.startswith("move "):
            arrows.append((g.get("data-from", ""), g.get("data-to", ""), cls))
        elif cls.startswith("clash "):
            clashes.append((g.get("data-place", ""), cls))
    labels = {t.text or "" for t in root.iter(f"{SVG}text") if t.get("class") == "label"}
    return Drawn(areas, pieces, arrows, clashes, labels, root)


def centres(text: str) -> dict[str, tuple[float, float]]:
    """Each place's label position (just above its centre)."""
    root = ET.fromstring(text)
    return {t.get("data-place", ""): (float(t.get("x", 0)), float(t.get("y", 0)))
            for t in root.iter(f"{SVG}text") if t.get("class") == "label"}


@dataclass
class Image:
    width: int
    height: int
    rows: list[bytes]          # RGBA rows

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        row = self.rows[y]
        return (row[4 * x], row[4 * x + 1], row[4 * x + 2])


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height from a PNG's header, without decoding it."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def read_png(data: bytes) -> Image:
    """Decode a non-interlaced PNG: 8-bit RGBA or RGB (what resvg writes) or indexed, 1 to 8 bits
    a pixel (what the palette reduction writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header, palette = 8, b"", b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        header = chunk if kind == b"IHDR" else header
        palette = chunk if kind == b"PLTE" else palette
        idat += chunk if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    indexed = colour == 3 and depth in (1, 2, 4, 8)
    assert (indexed or (depth == 8 and colour in (2, 6))) and interlace == 0, (depth, colour, interlace)
    step = {6: 4, 2: 3, 3: 1}[colour]                  # bytes a pixel, as the filters count them
    size = (width * depth + 7) // 8 if indexed else width * step
    raw = zlib.decompress(idat)
    rows: list[bytes] = []
    previous = bytearray(size)
    for y in range(height):
        start = y * (size + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + size])
        _unfilter(kind, line, previous, step)
        rgba = _from_palette(line, depth, width, palette) if indexed else bytes(line) if step == 4 else _rgba(line)
        rows.append(rgba)
        previous = line
    return Image(width, height, rows)


def _unfilter(kind: int, line: bytearray, prev: bytearray, step: int) -> None:
    for i in range(len(line)):
        a = line[i - step] if i >= step else 0
        b = prev[i]
        c = prev[i - step] if i >= step else 0
        if kind == 1:
            line[i] = (line[i] + a) & 255
        elif kind == 2:
            line[i] = (line[i] + b) & 255
        elif kind == 3:
            line[i] = (line[i] + (a + b) // 2) & 255
        elif kind == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255


def _rgba(line: bytearray) -> bytes:
    return b"".join(bytes(line[i:i + 3]) + b"\xff" for i in range(0, len(line), 3))


def _from_palette(line: bytearray, depth: int, width: int, palette: bytes) -> bytes:
    colours = [palette[i:i + 3] + b"\xff" for i in range(0, len(palette), 3)]
    if depth == 8:
        return b"".join(colours[i] for i in line)
    per_byte, mask = 8 // depth, (1 << depth) - 1
    index = [(line[x // per_byte] >> (8 - depth * (x % per_byte + 1))) & mask for x in range(width)]
    return b"".join(colours[i] for i in index)


def hex_colour(rgb: tuple[int, int, int]) -> str:
    return "#" + "".join(f"{c:02x}" for c in rgb)
