"""A rule system's own per-player fields (`Ruleset.player_fields`): given at `pbem new` as
`field=value`, checked through the rule system, kept in campaign.toml and read as `Player.extras`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomli_w

from pbem.cli import main
from pbem.gm.creation import NewPlayer
from pbem.kit.players import PlayerField, field_problems, one_word, unknown_fields, with_defaults
from pbem.rulesets import registry
from pbem.rulesets.base import Ruleset
from pbem.state.campaign import Campaign, SettingsError
from pbem.state.store import read_toml


def new(root: Path, ruleset: str, *players: str) -> int:
    args = ["new", "camp", "--root", str(root), "--ruleset", ruleset, "--gm-email", "gm@test.localhost"]
    return main([*args, *(arg for spec in players for arg in ("--player", spec))])


def entries(root: Path) -> list[dict[str, Any]]:
    return list(read_toml(root / "camp" / "campaign.toml")["players"])


def test_a_field_given_at_pbem_new_is_kept_and_read_back_as_extras(tmp_path: Path) -> None:
    assert new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R,home=3",
               "blue,Bob,bob@test.localhost,home = 1,Blue,B") == 0
    assert [(e["faction_name"], e["faction"], e["home"]) for e in entries(tmp_path)] == \
        [("Red", "R", "3"), ("Blue", "B", "1")]
    red, blue = Campaign(tmp_path / "camp").settings.players
    assert red.extras == {"home": "3"} and red.home == "3" and blue.home == "1"


def test_a_field_not_given_takes_the_rule_systems_default_for_the_seat(tmp_path: Path) -> None:
    assert new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R", "blue,Bob,bob@test.localhost") == 0
    assert [e["home"] for e in entries(tmp_path)] == ["1", "2"]


def test_a_system_without_fields_writes_none(tmp_path: Path) -> None:
    assert new(tmp_path, "diplomacy", "eng,Ann,ann@test.localhost,England", "fra,Bob,bob@test.localhost,France") == 0
    assert all("home" not in e for e in entries(tmp_path))
    assert all(p.extras == {} and p.home == "" for p in Campaign(tmp_path / "camp").settings.players)


@pytest.mark.parametrize(("ruleset", "spec", "says"), [
    ("diplomacy", "eng,Ann,ann@test.localhost,England,home=1",
     "--player 1 ('eng'): home: Diplomacy has no player field 'home'; it takes none"),
    ("daemon_rift", "red,Ann,ann@test.localhost,Red,R,hoem=2",
     "--player 1 ('red'): hoem: Daemon Rift has no player field 'hoem'; its fields: home (the key of one of"),
    ("daemon_rift", "red,Ann,ann@test.localhost,Red,R,home=north keep",
     "--player 1 ('red'): home: 'north keep' is not one word; expected the key of one of the map's home realms"),
    ("daemon_rift", "red,Ann,ann@test.localhost,Red,R,home=",
     "--player 1 ('red'): home: missing; expected the key of one of the map's home realms"),
    ("daemon_rift", "red,Ann,ann@x.org,Red,R,Extra,home=2",
     "--player 1: 'red,Ann,ann@x.org,Red,R,Extra,home=2': expected id,Name,email[,Faction[,token prefix]]"
     "[,field=value...]"),
])
def test_a_field_the_rule_system_refuses_is_one_line_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], ruleset: str, spec: str, says: str) -> None:
    assert new(tmp_path, ruleset, spec, "bob,Bob,bob@test.localhost,Blue,B") == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"pbem new: {says}"), lines
    assert list(tmp_path.iterdir()) == []


def test_a_value_only_the_map_can_judge_is_refused_by_the_rule_system_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert new(tmp_path, "daemon_rift", "red,Ann,ann@test.localhost,Red,R,home=99") == 2
    assert "home '99' is not on the map" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


# -- campaign.toml -----------------------------------------------------------------------------
def rewrite(root: Path, change: Any) -> None:
    path = root / "camp" / "campaign.toml"
    data = read_toml(path)
    change(data["players"])
    path.write_text(tomli_w.dumps(data))


def test_an_older_campaign_toml_still_loads(tmp_path: Path) -> None:
    assert new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R,home=3") == 0
    rewrite(tmp_path, lambda players: players[0].update(home=5))          # a number, as older files have it
    assert Campaign(tmp_path / "camp").settings.players[0].extras == {"home": "5"}
    assert new(tmp_path / "dip", "diplomacy", "eng,Ann,ann@test.localhost,England") == 0
    rewrite(tmp_path / "dip", lambda players: players[0].update(home="1"))  # written by every system before
    assert Campaign(tmp_path / "dip" / "camp").settings.players[0].home == "1"


def test_campaign_toml_fields_are_checked_through_the_rule_system(tmp_path: Path) -> None:
    assert new(tmp_path, "daemon_rift", "red,Alice,alice@test.localhost,Red,R") == 0
    rewrite(tmp_path, lambda players: players[0].pop("home"))
    with pytest.raises(SettingsError, match=r"campaign.toml: players\[0\].home: missing; expected the key"):
        Campaign(tmp_path / "camp")
    rewrite(tmp_path, lambda players: players[0].update(home=["1"]))
    with pytest.raises(SettingsError, match=r"players\[0\].home: found a list; expected text or a whole number"):
        Campaign(tmp_path / "camp")


# -- a new rule system declares its own, touching nothing else ---------------------------------
COLOUR_FIELDS = {
    "colour": PlayerField("red, green or blue",
                          check=lambda v: "" if v in ("red", "green", "blue") else f"{v!r} is no colour",
                          default=lambda seat: ("red", "green", "blue")[seat % 3]),
    "motto": PlayerField("a few words"),
    "banner": PlayerField("one word for the banner", check=one_word),
}


class Colours(Ruleset[Any, Any]):
    name = "colours"
    title = "Colours"
    player_fields = COLOUR_FIELDS


def test_a_new_systems_fields_are_read_checked_and_defaulted_by_its_declaration() -> None:
    colours = Colours()
    player = NewPlayer.parse("ann,Ann,ann@test.localhost,banner=Hawk,motto=Never yield")
    assert player.extras == {"banner": "Hawk", "motto": "Never yield"}
    assert player.fields(colours, 1) == {"colour": "green", "banner": "Hawk", "motto": "Never yield"}
    assert player.field_problems(colours, 0) == []
    bad = NewPlayer.parse("bob,Bob,bob@test.localhost,colour=mauve,size=9")
    assert bad.field_problems(colours, 0) == [
        "size: Colours has no player field 'size'; its fields: colour (red, green or blue); motto (a few words); "
        "banner (one word for the banner)",
        "colour: 'mauve' is no colour; expected red, green or blue",
        "banner: missing; expected one word for the banner",
    ]


def test_the_field_helpers_on_their_own() -> None:
    fields = {"home": PlayerField("a realm", check=one_word, default=lambda seat: str(seat + 1))}
    assert with_defaults(fields, {}, 4) == {"home": "5"} and with_defaults(fields, {"home": "x"}, 4) == {"home": "x"}
    assert with_defaults({"motto": PlayerField("words")}, {}, 0) == {}       # an empty default is left out
    assert field_problems(fields, {"home": "a\x07b"}) == [
        "home: 'a\\x07b' holds the control character U+0007; remove it; expected a realm"]
    assert unknown_fields({}, {"x": "1"}, "Chess") == ["x: Chess has no player field 'x'; it takes none"]


def test_the_shipped_systems_declare_their_fields() -> None:
    assert list(registry.get("daemon_rift").player_fields) == ["home"]
    assert dict(registry.get("diplomacy").player_fields) == {} and dict(registry.get("conquest").player_fields) == {}
