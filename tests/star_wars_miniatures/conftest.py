"""Star Wars Miniatures tests: the shipped rule book and the example catalog."""

from __future__ import annotations

import pytest

from pbem.kit.rulebook import RuleBook
from pbem.rulesets.star_wars_miniatures import rules
from pbem.rulesets.star_wars_miniatures.catalog import Catalog
from tests.star_wars_miniatures import helpers


@pytest.fixture
def book() -> RuleBook:
    return rules.load()


@pytest.fixture
def cat() -> Catalog:
    return helpers.catalog()
