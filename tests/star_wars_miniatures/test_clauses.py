"""Every SWM clause of the catalog is named by a test (in its name, test_swm_<area>_<n>_..., or in
a `clause` mark). NOT_YET lists the clauses no test names yet: it may only shrink."""

from __future__ import annotations

import ast
import re
from pathlib import Path

HERE = Path(__file__).parent
IDS = (HERE / "clause_ids.txt").read_text().split()

NOT_YET: set[str] = set()


def named_by_tests() -> set[str]:
    found: set[str] = set()
    for path in HERE.glob("test_*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                if m := re.match(r"test_swm_([a-z]+)_(\d+)_", node.name):
                    found.add(f"SWM-{m[1].upper()}-{m[2]}")
                for dec in node.decorator_list:
                    if isinstance(dec, ast.Call) and getattr(dec.func, "attr", "") == "clause":
                        found |= {a.value for a in dec.args if isinstance(a, ast.Constant)}
    return found


def test_the_catalog_has_276_clauses() -> None:
    assert len(IDS) == 276 and len(set(IDS)) == 276


def test_every_clause_is_named_by_a_test_but_those_not_yet_covered() -> None:
    missing = set(IDS) - named_by_tests()
    assert missing == NOT_YET, f"newly covered (remove from NOT_YET): {sorted(NOT_YET - missing)}; " \
                               f"uncovered and not listed: {sorted(missing - NOT_YET)}"
