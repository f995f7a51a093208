"""Text options take only the choices their comment in rules/<system>.toml lists (pbem.kit.rulebook)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.kit.rulebook import RULES_DIR, RulesError, choices, load_rules

SAMPLE = '''\
[movement]
mode = "a"                  # default: "a" | "b" | "c" (the third is slow)
name = "Rift"               # free text: no choices listed
[[movement.band]]
kind = "x"                  # "x" | "y": a whole list is overridden at once
[repair]
rounding = "none"           # default; | "up" | "down"
scope = "all" # default; "all" castles of the victim | "tile" the tile only
'''


@pytest.fixture
def rules_dir(tmp_path: Path) -> Path:
    (tmp_path / "sample.toml").write_text(SAMPLE, encoding="utf-8")
    return tmp_path


def test_choices_are_read_from_the_comments_with_the_shipped_value(rules_dir: Path) -> None:
    assert choices(rules_dir / "sample.toml") == {
        "movement.mode": ("a", "b", "c"),
        "repair.rounding": ("none", "up", "down"),
        "repair.scope": ("all", "tile"),
    }


def test_a_listed_choice_is_taken_and_free_text_stays_free(rules_dir: Path) -> None:
    book = load_rules("sample", {"movement": {"mode": "c", "name": "Other"}, "repair": {"rounding": "up"}},
                      rules_dir=rules_dir)
    assert (book["movement.mode"], book["movement.name"], book["repair.rounding"]) == ("c", "Other", "up")


def test_a_value_outside_the_choices_is_refused_naming_key_and_choices(rules_dir: Path) -> None:
    with pytest.raises(RulesError) as err:
        load_rules("sample", {"movement": {"mode": "d"}, "repair": {"rounding": "sideways", "scope": "tile"}},
                   rules_dir=rules_dir)
    assert err.value.problems == [
        "rules: 'movement.mode' cannot be 'd'; choose one of \"a\", \"b\", \"c\"",
        "rules: 'repair.rounding' cannot be 'sideways'; choose one of \"none\", \"up\", \"down\"",
    ]


def test_every_daemon_rift_option_with_listed_choices_is_checked() -> None:
    """Every `"a" | "b"` comment of rules/daemon_rift.toml gives its key a checked set of choices."""
    text = (RULES_DIR / "daemon_rift.toml").read_text(encoding="utf-8")
    listed = {m.group(1) for m in re.finditer(r'^(\w+)\s*=\s*"[^"]*"\s*#.*"\s*\|\s*"', text, re.MULTILINE)}
    found = choices(RULES_DIR / "daemon_rift.toml")
    assert listed == {key.rsplit(".", 1)[1] for key in found}
    for key, allowed in found.items():
        section, name = key.split(".")
        for value in allowed:
            load_rules("daemon_rift", {section: {name: value}})
        with pytest.raises(RulesError, match=re.escape(f"{key!r} cannot be 'nonsense'; choose one of")):
            load_rules("daemon_rift", {section: {name: "nonsense"}})


@pytest.mark.clause("DR-REP-3")
def test_dr_rep_3_wound_cost_rounding_refuses_an_unknown_way_of_rounding() -> None:
    with pytest.raises(RulesError) as err:
        load_rules("daemon_rift", {"repair": {"wound_cost_rounding": "ceiling"}})
    assert err.value.problems == [("rules: 'repair.wound_cost_rounding' cannot be 'ceiling'; "
                                   'choose one of "none", "up", "down", "nearest"')]


def test_one_rule_book_per_overrides_and_its_tables_cannot_be_changed_through_a_lookup() -> None:
    from pbem.kit.rulebook import load_rules

    book = load_rules("daemon_rift", {"movement": {"multiway_tie": "gm"}})
    assert load_rules("daemon_rift", {"movement": {"multiway_tie": "gm"}}) is book
    assert load_rules("daemon_rift") is not book
    table = book["terrain.battle.clear"]
    table["pieces_min"] = 99
    assert book["terrain.battle.clear"]["pieces_min"] != 99
