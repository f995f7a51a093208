"""Every clause of the catalog (shared/rules/wandering_tribes.md) is named by a test of this folder,
in a `clause` marker or in a test's name (test_wt_mov_3_...)."""

from __future__ import annotations

import re
from pathlib import Path

CATALOG = Path(__file__).resolve().parents[3] / "shared" / "rules" / "wandering_tribes.md"   # ../shared of the repo
HERE = Path(__file__).parent


def catalog_ids() -> list[str]:
    return re.findall(r"^- (WT-[A-Z]+-\d+):", CATALOG.read_text(encoding="utf-8"), re.M)


def named_ids() -> set[str]:
    text = "".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py") if p.name != Path(__file__).name)
    named = set(re.findall(r"WT-[A-Z]+-\d+", text))
    named |= {f"WT-{a.upper()}-{n}" for a, n in re.findall(r"def test_wt_([a-z]+)_(\d+)_", text)}
    return named


def test_the_catalog_has_213_clauses() -> None:
    ids = catalog_ids()
    assert len(ids) == len(set(ids)) == 213


def test_every_wt_clause_is_named_by_a_test() -> None:
    missing = [c for c in catalog_ids() if c not in named_ids()]
    assert missing == []
