"""The DATC (Diplomacy Adjudicator Test Cases), sections 6.A to 6.J, as data.

Each file in `datc/` is one case in the position format plus what must come of
it; `[[next]]` phases continue from the outcome of the phase before (a retreat
phase from the movement that dislodged the units) unless they list `units`.
This harness turns every file into one test named after the case, e.g.
`test_datc_6_c_3`, or `test_datc_6_g_8_edition_2_4` for the earlier edition's
ruling.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pbem.rulesets.diplomacy.position import Position, adjudicate, position_from_data
from pbem.rulesets.diplomacy.results import PhaseResult

CASES = Path(__file__).parent / "datc"
_POSITION_KEYS = ("variant", "phase", "units", "dislodged", "contested", "centers", "orders")


def run_case(path: Path) -> None:
    case = tomllib.loads(path.read_text(encoding="utf-8"))
    edition = case.get("edition", "3.0")
    previous: PhaseResult | None = None
    for n, step in enumerate([case, *case.get("next", [])]):
        position = _position(step, edition, previous)
        result = adjudicate(position)
        _check(result, step.get("expect", {}), f"{case['id']} phase {n + 1} ({position.phase})")
        previous = result


def _position(step: dict[str, Any], edition: str, previous: PhaseResult | None) -> Position:
    data = {k: step[k] for k in _POSITION_KEYS if k in step}
    position = position_from_data({**data, "edition": edition})
    if previous is not None and "units" not in step:
        position.units = list(previous.units)
        position.dislodged = list(previous.dislodged)
        position.contested = list(previous.contested)
    return position


def _check(result: PhaseResult, expect: dict[str, Any], where: str) -> None:
    assert sorted(map(str, result.units)) == sorted(expect["units"]), f"{where}: units"
    for key in ("dislodged", "disbanded", "contested"):
        if key in expect:
            got = sorted(map(str, getattr(result, key)))
            assert got == sorted(expect[key]), f"{where}: {key}"
    got_results: dict[str, list[str]] = {}
    for r in result.orders:
        got_results.setdefault(r.power, []).append(r.result)
    for power, wanted in expect.get("results", {}).items():
        assert got_results.get(power, []) == wanted, f"{where}: results of {power} {result.orders}"


def _make_test(path: Path) -> Callable[[], None]:
    def test() -> None:
        run_case(path)

    test.__doc__ = f"DATC case from {path.name}"
    return test


for _path in sorted(CASES.glob("*.toml")):
    _name = "test_datc_" + _path.stem
    globals()[_name] = _make_test(_path)
    globals()[_name].__name__ = _name
