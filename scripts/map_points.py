"""Write the centre points the map pictures use into the shipped territory maps (run once, and
again whenever a map's places change): `python3 scripts/map_points.py`.

Rift Valley is drawn from its own plan (rings round the Rift Maw, each listed clockwise from the
north, see the map's header); the standard Diplomacy map from approximate longitude and latitude
of each province's middle, projected flat. Points are map units, y growing downwards; the
pictures make each place the area of its Voronoi cell.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

MAPS = Path(__file__).resolve().parents[1] / "rules" / "maps"
HEADER = "# Centre points for the map pictures (written by scripts/map_points.py; map units, y down)."

# Rift Valley: (first id, count, radius) of each ring; T1 sits in the middle.
RIFT_RINGS = ((2, 6, 1.0), (8, 16, 2.05), (24, 32, 3.15))

# Standard map: longitude, latitude (degrees) near each province's middle.
EUROPE = {
    "ADR": (15.5, 43.0), "AEG": (25.0, 38.5), "ALB": (20.0, 41.0), "ANK": (33.0, 40.5), "APU": (16.5, 41.2),
    "ARM": (43.0, 40.0), "BAL": (18.0, 56.0), "BAR": (35.0, 72.5), "BEL": (4.5, 50.6), "BER": (13.4, 52.8),
    "BLA": (34.0, 43.5), "BOH": (14.5, 49.8), "BOT": (20.0, 62.0), "BRE": (-3.0, 48.0), "BUD": (19.5, 47.3),
    "BUL": (25.0, 42.7), "BUR": (4.8, 47.0), "CLY": (-4.8, 57.2), "CON": (28.5, 41.2), "DEN": (10.0, 56.0),
    "EAS": (32.0, 34.0), "EDI": (-2.6, 56.3), "ENG": (-2.5, 50.0), "FIN": (26.0, 63.0), "GAL": (23.0, 49.5),
    "GAS": (0.0, 44.5), "GRE": (22.0, 39.5), "HEL": (7.2, 54.6), "HOL": (5.5, 52.3), "ION": (18.0, 36.5),
    "IRI": (-6.5, 53.0), "KIE": (9.8, 53.0), "LON": (0.2, 51.6), "LVN": (25.0, 57.0), "LVP": (-3.2, 54.0),
    "LYO": (5.0, 42.2), "MAO": (-16.0, 45.0), "MAR": (5.0, 44.0), "MOS": (38.0, 55.0), "MUN": (11.0, 48.5),
    "NAF": (2.0, 33.5), "NAO": (-22.0, 57.0), "NAP": (15.8, 40.0), "NTH": (3.0, 56.0), "NWG": (5.0, 66.0),
    "NWY": (10.0, 61.0), "PAR": (2.3, 48.5), "PIC": (2.0, 50.2), "PIE": (7.8, 45.0), "POR": (-8.0, 40.0),
    "PRU": (20.0, 54.0), "ROM": (12.8, 42.0), "RUH": (7.5, 51.0), "RUM": (25.5, 45.5), "SER": (21.0, 44.0),
    "SEV": (36.0, 47.0), "SIL": (17.0, 51.0), "SKA": (10.5, 58.0), "SMY": (29.0, 38.5), "SPA": (-4.0, 40.5),
    "STP": (33.0, 62.0), "SWE": (15.0, 61.0), "SYR": (38.0, 36.0), "TRI": (15.0, 45.5), "TUN": (9.5, 35.0),
    "TUS": (11.0, 43.6), "TYR": (12.0, 47.2), "TYS": (11.5, 40.0), "UKR": (32.0, 49.0), "VEN": (12.0, 45.4),
    "VIE": (16.4, 48.0), "WAL": (-3.8, 52.0), "WAR": (21.0, 52.0), "WES": (-1.0, 38.0), "YOR": (-1.3, 54.0),
}


def rift_points() -> dict[str, tuple[float, float]]:
    points = {"T1": (0.0, 0.0)}
    for first, count, radius in RIFT_RINGS:
        for i in range(count):
            angle = 2 * math.pi * i / count          # clockwise from the north
            points[f"T{first + i}"] = (radius * math.sin(angle), -radius * math.cos(angle))
    return points


def europe_points() -> dict[str, tuple[float, float]]:
    squash = math.cos(math.radians(50))              # a degree of longitude at 50 N
    return {p: ((lon - 10) * squash, -lat) for p, (lon, lat) in EUROPE.items()}


def write(path: Path, points: dict[str, tuple[float, float]]) -> None:
    """Replace the file's geometry table (everything from its header down) with `points`."""
    text = path.read_text(encoding="utf-8")
    text = re.split(r"\n*" + re.escape(HEADER), text)[0].rstrip("\n")
    rows = "\n".join(f"{p} = [{x:.3f}, {y:.3f}]" for p, (x, y) in points.items())
    path.write_text(f"{text}\n\n{HEADER}\n[geometry.points]\n{rows}\n", encoding="utf-8")


def main() -> None:
    write(MAPS / "rift_valley.toml", rift_points())
    write(MAPS / "standard.toml", europe_points())


if __name__ == "__main__":
    main()
