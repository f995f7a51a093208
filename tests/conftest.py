"""The suite runs on every CPU (pytest-xdist, `./scripts/test.sh` passes `-n auto --dist
loadgroup`). Tests are handed to the workers one by one, except that the tests of a module with
a module-scoped fixture of its own (a demo played once, mail servers with a hostile corpus) stay
together on one worker, so the fixture is made once and not once per worker."""

from __future__ import annotations

import pytest


@pytest.hookimpl(tryfirst=True)     # before xdist's own hook reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if _has_module_fixture(item):
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))


def _has_module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    if info is None:
        return False
    return any(d.scope == "module" and d.baseid.startswith("tests")
               for defs in info.name2fixturedefs.values() for d in defs)
