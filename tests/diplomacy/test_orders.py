"""Order notation: every spelling a player may use reads to one canonical form."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.kit.orders import AmbiguousOrder, IllegalOrder, InvalidOrder
from pbem.rulesets.diplomacy import Unit, adjudicate_movement, standard_board
from pbem.rulesets.diplomacy.orders import Order

BOARD = standard_board()

SPELLINGS = [
    ("A PAR - BUR", "movement", "A PAR - BUR"),
    ("a par-bur", "movement", "A PAR - BUR"),
    ("Army Paris -> Burgundy", "movement", "A PAR - BUR"),
    ("F NTH C A LON - BEL", "movement", "F NTH C A LON - BEL"),
    ("F North Sea convoys A London - Belgium", "movement", "F NTH C A LON - BEL"),
    ("A LON - BEL VIA CONVOY", "movement", "A LON - BEL VIA CONVOY"),
    ("A LON - BEL via", "movement", "A LON - BEL VIA CONVOY"),
    ("A MUN S A PAR - BUR", "movement", "A MUN S A PAR - BUR"),
    ("A MUN S PAR - BUR", "movement", "A MUN S PAR - BUR"),
    ("A MUN S A PAR", "movement", "A MUN S A PAR"),
    ("F POR S F MAO - SPA/NC", "movement", "F POR S F MAO - SPA/NC"),
    ("F POR S F MAO - Spain (north coast)", "movement", "F POR S F MAO - SPA/NC"),
    ("F SPA/SC - MAO", "movement", "F SPA/SC - MAO"),
    ("F spa(sc) - Mid-Atlantic Ocean", "movement", "F SPA/SC - MAO"),
    ("F Spain (south coast) - MAO", "movement", "F SPA/SC - MAO"),
    ("A BUR H", "movement", "A BUR H"),
    ("A MUN R BOH", "retreat", "A MUN R BOH"),
    ("A MUN - BOH", "retreat", "A MUN R BOH"),
    ("F KIE D", "retreat", "F KIE D"),
    ("BUILD A PAR", "adjustment", "BUILD A PAR"),
    ("A PAR B", "adjustment", "BUILD A PAR"),
    ("F KIE D", "adjustment", "F KIE D"),
    ("Remove F Kiel", "adjustment", "F KIE D"),
    ("WAIVE", "adjustment", "WAIVE"),
]


@pytest.mark.parametrize(("text", "phase", "canonical"), SPELLINGS)
def test_spellings_read_to_canonical_form(text: str, phase: str, canonical: str) -> None:
    order = Order.parse(text, BOARD, phase)
    assert str(order) == canonical
    assert Order.parse(str(order), BOARD, phase) == order


@pytest.mark.parametrize(
    ("text", "phase", "kind"),
    [
        ("A PAR - XYZZY", "movement", InvalidOrder),
        ("A PAR BUR", "movement", InvalidOrder),
        ("A PAR - Nort", "movement", AmbiguousOrder),
        ("A PAR S A MUN", "retreat", IllegalOrder),
        ("BUILD A PAR", "movement", IllegalOrder),
    ],
)
def test_problems_come_in_three_kinds(text: str, phase: str, kind: type[Exception]) -> None:
    with pytest.raises(kind):
        Order.parse(text, BOARD, phase)


def test_unknown_place_suggests_a_name() -> None:
    with pytest.raises(InvalidOrder) as info:
        Order.parse("A PAR - Burgundyy", BOARD)
    assert "BUR" in info.value.suggestion


def test_adjudication_terminates_on_random_input() -> None:
    """Random, often silly, orders never crash or loop; every unit ends somewhere once."""
    rng = random.Random(7)
    provinces = sorted(BOARD.provinces)
    words = ["-", "S", "C", "H", "VIA"] + provinces
    for _ in range(200):
        units = [Unit(rng.choice(sorted(BOARD.powers)), "A", p) for p in rng.sample(provinces, 30)
                 if BOARD.provinces[p].kind != "sea"]
        orders = [(u.power, f"A {u.loc} " + " ".join(rng.choice(words) for _ in range(rng.randint(1, 6))))
                  for u in units]
        result = adjudicate_movement(BOARD, units, orders)
        placed = [u.province for u in result.units] + [d.unit.province for d in result.dislodged]
        assert len(result.units) + len(result.dislodged) == len(units)
        assert len({u.province for u in result.units}) == len(result.units)
        assert len(placed) == len(units)


def test_command_prints_one_json_line_per_file(tmp_path: Path) -> None:
    files = []
    for n, (units, orders) in enumerate([
        (["England: F NTH", "France: A PIC"], {"England": ["F NTH - PIC"], "France": ["A PIC H"]}),
        (["Germany: A MUN"], {"Germany": ["A MUN - BOH"]}),
    ]):
        path = tmp_path / f"p{n}.toml"
        lines = [f"units = {json.dumps(units)}", "[orders]"]
        lines += [f"{power} = {json.dumps(o)}" for power, o in orders.items()]
        path.write_text("\n".join(lines) + "\n")
        files.append(str(path))
    out = subprocess.run([sys.executable, "-m", "pbem", "adjudicate", "--json", *files],
                         capture_output=True, text=True, check=True).stdout.splitlines()
    first, second = map(json.loads, out)
    assert first == {
        "orders": [
            {"power": "England", "order": "F NTH - PIC", "result": "invalid"},
            {"power": "France", "order": "A PIC H", "result": "succeeds"},
        ],
        "units": ["England: F NTH", "France: A PIC"],
        "dislodged": [],
        "disbanded": [],
    }
    assert second["units"] == ["Germany: A BOH"]
