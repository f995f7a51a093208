"""`pbem render`: the pictures of a campaign's turns drawn again from history/, and one-line
errors for what cannot be drawn."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import cli
from pbem.rulesets import registry
from pbem.store import read_toml
from tests.pictures.readback import png_size, read_svg

CAMPAIGNS = {"daemon_rift": "rift-demo", "diplomacy": "dip-demo", "conquest": "coc-demo"}


@pytest.fixture(scope="module")
def demos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each demo played once; the campaign folders."""
    out = {}
    for system, name in CAMPAIGNS.items():
        root = tmp_path_factory.mktemp(system)
        assert cli.main(["demo", "--ruleset", system, str(root / "demo")]) == 0
        out[system] = root / "demo" / "campaigns" / name
    return out



@pytest.mark.parametrize("system", CAMPAIGNS)
def test_render_draws_every_turn_of_the_demo(system: str, demos: dict[str, Path], tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    folder = demos[system]
    assert cli.main(["render", str(folder), "--out", str(tmp_path)]) == 0
    turns = sorted(p.name for p in (folder / "history").iterdir() if p.name.isdigit())
    written = sorted(p.name for p in tmp_path.iterdir())
    assert written == sorted(f"{folder.name}-turn-{t}-start.{ext}" for t in turns for ext in ("png", "svg"))
    assert capsys.readouterr().out.count("\n") == len(written)
    for turn in turns:
        svg = (tmp_path / f"{folder.name}-turn-{turn}-start.svg").read_text()
        assert png_size((tmp_path / f"{folder.name}-turn-{turn}-start.png").read_bytes())[0] == 800
        owners = {p: o for p, (o, _) in read_svg(svg).areas.items() if o}
        assert owners == stored_owners(system, read_toml(folder / "history" / turn / "start.toml")["game"])


def stored_owners(system: str, game: dict[str, object]) -> dict[str, str]:
    if system == "daemon_rift":
        return dict(game["dr"]["control"])  # type: ignore[index]
    if system == "diplomacy":
        return dict(game["centers"])  # type: ignore[arg-type]
    tiles = game["conquest"]["tiles"]  # type: ignore[index]
    return {t: v["owner"] for t, v in tiles.items() if v["owner"]}


def test_render_one_turn_as_svg_only(demos: dict[str, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli.main(["render", str(demos["daemon_rift"]), "2", "--format", "svg", "--out", str(tmp_path)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["rift-demo-turn-002-start.svg"]


def test_render_the_campaign_as_it_stands(demos: dict[str, Path], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    assert cli.main(["render", str(demos["diplomacy"]), "--stage", "current", "--out", str(tmp_path)]) == 0
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".png", ".svg"]


@pytest.mark.parametrize(("args", "message"), [
    (["99"], "no stage 'start' kept for turn 99"),
    (["1", "--stage", "battles"], "no stage 'battles' kept for turn 1 "),
])
def test_what_cannot_be_drawn_is_one_line(args: list[str], message: str, demos: dict[str, Path],
                                          tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["render", str(demos["daemon_rift"]), *args, "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pbem: ") and message in err and err.count("\n") == 1


def test_a_rule_system_without_pictures_says_so(demos: dict[str, Path], tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(registry.RULESETS.extra, "conquest_no_pictures", "tests.pictures.picture_rulesets:NO_PICTURES")
    folder = tmp_path / "coc-demo"
    shutil.copytree(demos["conquest"], folder)
    settings = folder / "campaign.toml"
    settings.write_text(settings.read_text().replace('ruleset = "conquest"', 'ruleset = "conquest_no_pictures"'))
    assert cli.main(["render", str(folder), "1", "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert err.startswith("pbem: ") and "draw no map pictures" in err and err.count("\n") == 1


def test_a_rule_system_without_the_hook_is_not_even_loaded(demos: dict[str, Path]) -> None:
    from pbem.campaign import Campaign
    from pbem.pictures.picture import picture_of
    from pbem.rulesets.base import Context, Ruleset

    class Hookless(Ruleset):  # type: ignore[type-arg]
        def view(self, ctx: Context) -> Any:
            raise AssertionError("a rule system without pictures has its game loaded")

    camp = Campaign(demos["conquest"])
    assert picture_of(Hookless(), camp.settings, camp.state["game"], "x") is None
