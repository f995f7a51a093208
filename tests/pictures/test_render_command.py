"""`pbem render`: the pictures of a campaign's turns drawn again from history/, and one-line
errors for what cannot be drawn."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from pbem import cli
from pbem.rulesets import registry
from pbem.state.store import read_toml
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



def stored(folder: Path, turn: str) -> dict[str, Path]:
    """The stages `pbem render` should draw for a turn: start, then each resolved one in order."""
    stages = sorted((folder / "history" / turn / "stages").glob("*.toml"),
                    key=lambda p: read_toml(p)["resolved"]["generation"])
    return {"start": folder / "history" / turn / "start.toml", **{p.stem: p for p in stages}}


@pytest.mark.parametrize("system", CAMPAIGNS)
def test_render_draws_every_stored_stage_of_every_turn(system: str, demos: dict[str, Path], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    folder = demos[system]
    assert cli.main(["render", str(folder), "--out", str(tmp_path)]) == 0
    turns = sorted(p.name for p in (folder / "history").iterdir() if p.name.isdigit())
    wanted = [f"{folder.name}-turn-{t}-{stage}.{ext}" for t in turns for stage in stored(folder, t)
              for ext in ("svg", "png")]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(wanted)
    assert capsys.readouterr().out.splitlines() == [str(tmp_path / name) for name in wanted]
    assert any("-orders." in n or "-movement." in n or "-conquest." in n for n in wanted)
    for turn in turns:
        for stage, path in stored(folder, turn).items():
            svg = (tmp_path / f"{folder.name}-turn-{turn}-{stage}.svg").read_text()
            assert png_size((tmp_path / f"{folder.name}-turn-{turn}-{stage}.png").read_bytes())[0] == 800
            owners = {p: o for p, (o, _) in read_svg(svg).areas.items() if o}
            assert owners == stored_owners(system, read_toml(path)["game"])


def stored_owners(system: str, game: dict[str, object]) -> dict[str, str]:
    if system == "daemon_rift":
        return dict(game["dr"]["control"])  # type: ignore[index]
    if system == "diplomacy":
        return dict(game["centers"])  # type: ignore[arg-type]
    tiles = game["conquest"]["tiles"]  # type: ignore[index]
    return {t: v["owner"] for t, v in tiles.items() if v["owner"]}


@pytest.mark.parametrize(("system", "turn", "stage"), [("daemon_rift", "002", "orders"),
                                                       ("diplomacy", "002", "movement"),
                                                       ("conquest", "002", "conquest")])
def test_a_stage_is_drawn_with_what_it_did(system: str, turn: str, stage: str, demos: dict[str, Path],
                                           tmp_path: Path) -> None:
    folder = demos[system]
    args = ["render", str(folder), str(int(turn)), "--stage", stage, "--format", "svg", "--out", str(tmp_path)]
    assert cli.main(args) == 0
    assert [p.name for p in tmp_path.iterdir()] == [f"{folder.name}-turn-{turn}-{stage}.svg"]
    game = read_toml(folder / "history" / turn / "stages" / f"{stage}.toml")["game"]
    last = (game["conquest"] if system == "conquest" else game)["last"]
    got = read_svg((tmp_path / f"{folder.name}-turn-{turn}-{stage}.svg").read_text())
    assert last["moves"], "the demo's stage moved nothing"
    assert got.arrows == [(m["start"], m["end"], f"move {m['kind']} {'succeeded' if m['succeeded'] else 'failed'}")
                          for m in last["moves"]]
    assert got.clashes[:len(last["clashes"])] == [(c["place"], f"clash {c['kind']}") for c in last["clashes"]]


def test_render_one_turn_as_svg_only(demos: dict[str, Path], tmp_path: Path) -> None:
    folder = demos["daemon_rift"]
    assert cli.main(["render", str(folder), "2", "--format", "svg", "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"rift-demo-turn-002-{stage}.svg" for stage in stored(folder, "002"))


def test_a_stage_resolved_twice_in_a_turn_keeps_both(demos: dict[str, Path], tmp_path: Path) -> None:
    """The demo's Yellow list is approved after the first list window closes: turn 1 resolves `lists` twice."""
    assert list(stored(demos["daemon_rift"], "001")) == ["start", "lists", "lists-2", "orders"]
    assert cli.main(["render", str(demos["daemon_rift"]), "1", "--stage", "lists-2", "--out", str(tmp_path)]) == 0


def test_render_the_campaign_as_it_stands(demos: dict[str, Path], tmp_path: Path) -> None:
    assert cli.main(["render", str(demos["diplomacy"]), "--stage", "current", "--out", str(tmp_path)]) == 0
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".png", ".svg"]


@pytest.mark.parametrize(("args", "message"), [
    (["99"], "no turn 99 in "),
    (["99"], "; turns kept: 1-"),
    (["1", "--stage", "battles"], "no stage 'battles' kept for turn 1; stages kept: start, lists, lists-2, orders"),
    (["--stage", "bogus"], "no stage 'bogus' kept in any turn; stages kept: battles, lists, lists-2, orders, start"),
])
def test_what_cannot_be_drawn_is_one_line_naming_what_is_kept(args: list[str], message: str, demos: dict[str, Path],
                                                              tmp_path: Path,
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
    from pbem.pictures.picture import picture_of
    from pbem.rulesets.base import Context, Ruleset
    from pbem.state.campaign import Campaign

    class Hookless(Ruleset):  # type: ignore[type-arg]
        def view(self, ctx: Context) -> Any:
            raise AssertionError("a rule system without pictures has its game loaded")

    camp = Campaign(demos["conquest"])
    assert picture_of(Hookless(), camp.settings, camp.state["game"], "x") is None


def test_render_reads_the_picture_the_tick_kept_as_the_stage_resolved(demos: dict[str, Path], tmp_path: Path) -> None:
    folder = demos["daemon_rift"]
    stages = folder / "history" / "001" / "stages"
    assert cli.main(["render", str(folder), "1", "--stage", "orders", "--out", str(tmp_path)]) == 0
    assert (tmp_path / f"{folder.name}-turn-001-orders.png").read_bytes() == (stages / "orders.png").read_bytes()
    assert (tmp_path / f"{folder.name}-turn-001-orders.svg").read_text() == (stages / "orders.svg").read_text()


def test_a_kept_picture_older_than_the_settings_is_drawn_again(demos: dict[str, Path], tmp_path: Path) -> None:
    folder = shutil.copytree(demos["daemon_rift"], tmp_path / "copy" / "rift-demo")
    stages = folder / "history" / "001" / "stages"
    (stages / "orders.svg").write_text((stages / "orders.svg").read_text().replace("</svg>", "<!-- kept --></svg>"))
    assert cli.main(["render", str(folder), "1", "--stage", "orders", "--out", str(tmp_path / "a"),
                     "--format", "svg"]) == 0
    assert "<!-- kept -->" in (tmp_path / "a" / f"{folder.name}-turn-001-orders.svg").read_text()
    settings = folder / "campaign.toml"
    later = (stages / "orders.svg").stat().st_mtime + 10
    os.utime(settings, (later, later))
    assert cli.main(["render", str(folder), "1", "--stage", "orders", "--out", str(tmp_path / "b"),
                     "--format", "svg"]) == 0
    assert "<!-- kept -->" not in (tmp_path / "b" / f"{folder.name}-turn-001-orders.svg").read_text()
