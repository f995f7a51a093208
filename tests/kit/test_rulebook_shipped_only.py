"""`shipped_only_problems`: a key whose shipped value is the only reading played refuses an
override that changes it, in one line with the key, the value, the shipped value and why."""

from __future__ import annotations

from pathlib import Path

from pbem.kit.rulebook import load_rules, shipped_only_problems

WHY = {"home.swap": "a swap battle has no home side", "home.tiers": "own territories come first"}


def rules_dir(tmp_path: Path) -> Path:
    (tmp_path / "toy.toml").write_text('[home]\nswap = "none"\ntiers = ["own", "other"]\nbonus = 300\n',
                                       encoding="utf-8")
    return tmp_path


def test_the_shipped_values_and_other_keys_pass(tmp_path: Path) -> None:
    where = rules_dir(tmp_path)
    book = load_rules("toy", {"home": {"bonus": 100, "swap": "none"}}, where)
    assert shipped_only_problems("toy", book, WHY, where) == []


def test_each_changed_key_is_refused_in_one_line_naming_value_shipped_value_and_why(tmp_path: Path) -> None:
    where = rules_dir(tmp_path)
    book = load_rules("toy", {"home": {"swap": "attacker", "tiers": ["other"]}}, where)
    assert shipped_only_problems("toy", book, WHY, where) == [
        'rules: home.swap = "attacker" is not played: pbem plays only the shipped reading ("none") because '
        "a swap battle has no home side; remove the override",
        'rules: home.tiers = ["other"] is not played: pbem plays only the shipped reading (["own", "other"]) '
        "because own territories come first; remove the override"]
