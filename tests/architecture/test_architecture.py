"""The backbone's layout (docs/architecture.md): no import circle between two of its modules,
no module too long to read, and every package saying what it holds and what it may import.

The layers themselves are import-linter contracts in pyproject.toml, run by the test command."""

from __future__ import annotations

from pathlib import Path

import grimp
import networkx as nx
import pytest

PBEM = Path(__file__).resolve().parents[2] / "pbem"
RULE_SYSTEMS = ("daemon_rift", "diplomacy", "conquest", "mighty_kingdoms", "wandering_tribes")
LONGEST = 400


def backbone(module: str) -> bool:
    """Every module of pbem but a rule system's own (those are checked by their contracts)."""
    parts = module.split(".")
    return not (len(parts) > 2 and parts[1] == "rulesets" and parts[2] in RULE_SYSTEMS)


@pytest.fixture(scope="module")
def imports() -> nx.DiGraph:
    """Every import between pbem's modules, those inside functions and under TYPE_CHECKING too."""
    graph = grimp.build_graph("pbem", exclude_type_checking_imports=False)
    found = nx.DiGraph()
    for module in graph.modules:
        found.add_edges_from((module, other) for other in graph.find_modules_directly_imported_by(module))
    return found


def test_no_two_backbone_modules_import_each_other_in_a_circle(imports: nx.DiGraph) -> None:
    circles = [sorted(c) for c in nx.strongly_connected_components(imports.subgraph(filter(backbone, imports)))
               if len(c) > 1]
    assert circles == []


def test_a_package_imports_no_module_of_a_package_that_imports_it_back(imports: nx.DiGraph) -> None:
    package = {m: ".".join(m.split(".")[:2]) for m in imports}
    packages = nx.DiGraph((package[a], package[b]) for a, b in imports.edges
                          if package[a] != package[b] and "pbem" not in (package[a], package[b]))
    assert [sorted(c) for c in nx.strongly_connected_components(packages) if len(c) > 1] == []


def test_no_backbone_module_is_longer_than_four_hundred_lines() -> None:
    long = {str(path.relative_to(PBEM)): n for path in PBEM.rglob("*.py")
            if backbone("pbem." + ".".join(path.relative_to(PBEM).with_suffix("").parts))
            and (n := len(path.read_text(encoding="utf-8").splitlines())) > LONGEST}
    assert long == {}


def test_every_package_says_what_it_holds_and_what_it_may_import() -> None:
    silent = [str(init.parent.relative_to(PBEM)) for init in PBEM.glob("*/__init__.py")
              if "May import" not in init.read_text(encoding="utf-8")]
    assert silent == []
