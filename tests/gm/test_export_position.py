"""`pbem export-position`: at every stage a season reaches, the campaign exported as a position
and imported into a fresh campaign resolves its next tick exactly as the campaign itself does
(same reports, same dice, same game), for every rule system (tests/support/roundtrip.py)."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import pytest

from pbem.cli import main
from pbem.gm.creation import create
from pbem.state.campaign import Campaign
from tests.season.agents import AGENTS, STEP_CHOICES
from tests.season.driver import draw_script, gm_acts, players_act
from tests.season.harness import Season
from tests.support.engine_helpers import PLAYERS, SECRETS, T0, dr_campaign
from tests.support.roundtrip import Trip, round_trip

UNKEPT = {"diplomacy": (".last:",), "conquest": (".conquest.last:",),
          "daemon_rift": (".last:", ".postbattle.", ".nmr:"),
          "mighty_kingdoms": (".mighty_kingdoms.month.", ".mighty_kingdoms.battle.", ".mighty_kingdoms.winter.income."),
          "star_wars_miniatures": (".star_wars_miniatures.last.", ".star_wars_miniatures.pick_order:",
                                   ".star_wars_miniatures.totals")}
"""What a position does not hold, per rule system: the picture marks of the resolution before the
export (what the map of that resolution drew; the next resolution draws its own); Daemon Rift's
post-battle record and the factions that sent no orders, of the turn before, already reported
and set afresh as the orders resolve; a
Mighty Kingdoms month's orders and battles, kept for the picture until the next month's start,
and a winter's Gather income, reported as the position's W1 opened; Star Wars Miniatures' setup pick
order and last initiative totals (used only as they are rolled)."""


def season_round_trips(root: Path, system: str, seed: int) -> list[Trip]:
    """A quick season of `system`, each tick first taken through a round trip."""
    agent = AGENTS[system](quick=True)
    season = Season(root, system, seed, agent.setup)
    script, answered, trips = draw_script(season), set[tuple[object, ...]](), []
    while not season.stage().over and season.ticks < agent.max_ticks:
        players_act(season, agent, answered)
        gm_acts(season, agent, script)
        step = season.rng.choice(STEP_CHOICES)
        trips.append(round_trip(root, root.parent / f"trip-{season.ticks}", season.now + step, season.ruleset,
                                UNKEPT.get(system, ())))
        season.tick(step)
    return trips


SEEDS = (1, *range(2, 2 + int(os.environ.get("PBEM_ROUNDTRIP_SEEDS", "0"))))
"""Seed 1 in the normal suite; `PBEM_ROUNDTRIP_SEEDS=N` plays N more of every rule system."""


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("system", ["conquest", "daemon_rift", "diplomacy", "mighty_kingdoms", "star_wars_miniatures"])
def test_every_stage_of_a_season_round_trips_through_a_position(tmp_path: Path, system: str, seed: int) -> None:
    trips = season_round_trips(tmp_path / "season", system, seed)
    exported = [t for t in trips if t.exported]
    assert len({t.title for t in exported if t.resolved}) >= 3, [(t.title, t.exported, t.resolved) for t in trips]
    wrong = [f"{t.title}: {d}" for t in exported for d in t.differences]
    assert not wrong, "\n".join(wrong[:40])


def test_export_position_writes_the_file_import_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp = dr_campaign(tmp_path / "one")
    out = tmp_path / "rift.toml"
    assert main(["export-position", str(camp.folder), "--out", str(out)]) == 0
    assert f"position written to {out}" in capsys.readouterr().out
    data = tomllib.loads(out.read_text(encoding="utf-8"))
    assert (data["turn"], data["phase"]) == (1, "orders") and set(data["tokens"]) == set(Campaign(camp.folder).state[
        "game"]["dr"]["tokens"])
    other = dr_campaign(tmp_path / "two")
    assert main(["import", str(other.folder), str(out), "--force"]) == 0
    assert Campaign(other.folder).state["game"]["dr"]["tokens"] == Campaign(camp.folder).state["game"]["dr"]["tokens"]


def test_a_stage_the_format_cannot_hold_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    camp, _ = create(tmp_path / "campaigns", "rift", "daemon_rift", "rift_valley", list(PLAYERS), "gm@test.localhost",
                     T0, fixed_secrets=SECRETS)          # window 0: the army lists
    assert main(["export-position", str(camp.folder)]) == 2
    err = capsys.readouterr().err
    assert err == ("pbem export-position: rift: the campaign is at its lists window: a Daemon Rift position is "
                   "written while the orders window is open\n")
