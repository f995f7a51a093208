"""Benchmark: idle ticks, the cron job's usual run, as whole processes against `python3 -c pass`.

    python bench/idle.py                      # 10, 50, 200 and 1,000 campaigns, 5 runs each
    python bench/idle.py --sizes 10 50 --runs 7

Each size is a folder of Daemon Rift campaigns: one made with `pbem new` and ticked once, so its
welcome mails are out and its first stage is open with a deadline days ahead, then copied under
new names (the copies keep the files' times, so each is as idle as the first). Then `pbem tick --quiet`
runs as a fresh process (as cron starts it) with nothing to do: every inbox empty, nothing due,
nothing owed. The floor is the interpreter starting and stopping (`python3 -c pass`), timed in the
same loop, alternating with the ticks so that both see the same machine. Printed per size: the
median wall time of the tick, of the floor, their ratio (goal: within 5x at 50 campaigns), and the
cost of each further campaign (goal: under 1 ms), from the two largest sizes.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOW = "2026-12-01T12:00+00:00"
LATER = "2026-12-01T13:00+00:00"
GOAL_RATIO = 5.0
GOAL_PER_CAMPAIGN_MS = 1.0


def pbem(*args: str) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "pbem", *args], check=True, env=env, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def make_first(folder: Path) -> Path:
    """One idle campaign, made and ticked by pbem itself."""
    pbem("new", "idle-0000", "--root", str(folder), "--gm-email", "gm@example.org",
         "--player", "red,Alice,alice0000@example.org,Red,R", "--player", "blue,Bob,bob0000@example.org,Blue,B")
    pbem("tick", "--root", str(folder), "--now", NOW, "--quiet")
    return folder / "idle-0000"


def make_campaigns(first: Path, folder: Path, count: int) -> None:
    """`count` copies of `first`, each named and addressed apart; campaign.toml keeps its size
    and time, so the copy's idle record (.idle.toml) still holds."""
    for n in range(count):
        copy = folder / f"idle-{n:04d}"
        shutil.copytree(first, copy)
        settings = copy / "campaign.toml"
        times = settings.stat()
        text = settings.read_text().replace("idle-0000", copy.name)
        settings.write_text(text.replace("alice0000", f"alice{n:04d}").replace("bob0000", f"bob{n:04d}"))
        os.utime(settings, ns=(times.st_atime_ns, times.st_mtime_ns))


def timed(command: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + system) seconds of the command as a process."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, env=env, cwd=ROOT, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def measure(folder: Path, runs: int) -> tuple[tuple[float, float], tuple[float, float]]:
    """Median (wall, CPU) seconds of an idle tick and of the bare interpreter, alternating."""
    ticks, floors = [], []
    tick = [sys.executable, "-m", "pbem", "tick", "--root", str(folder), "--now", LATER, "--quiet"]
    for _ in range(runs):
        floors.append(timed([sys.executable, "-c", "pass"]))
        ticks.append(timed(tick))
    return ((statistics.median(t[0] for t in ticks), statistics.median(t[1] for t in ticks)),
            (statistics.median(f[0] for f in floors), statistics.median(f[1] for f in floors)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 50, 200, 1000])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    results: dict[int, float] = {}
    cpu: dict[int, float] = {}
    print(f"idle tick as a process against `python3 -c pass`, median of {args.runs} runs (goal: within "
          f"{GOAL_RATIO:g}x at 50 campaigns; each further campaign under {GOAL_PER_CAMPAIGN_MS:g} ms)")
    with tempfile.TemporaryDirectory(prefix="pbem-idle-") as tmp:
        first = make_first(Path(tmp) / "first")
        for size in sorted(args.sizes):
            folder = Path(tmp) / f"c{size}"
            make_campaigns(first, folder, size)
            (tick, tick_cpu), (floor, floor_cpu) = measure(folder, args.runs)
            results[size], cpu[size] = tick, tick_cpu
            goal = f"(goal within {GOAL_RATIO:g}x)" if size == 50 else ""
            print(f"  {size:5d} campaigns: tick {tick * 1000:7.1f} ms (CPU {tick_cpu * 1000:6.1f})   python3 -c pass "
                  f"{floor * 1000:6.1f} ms (CPU {floor_cpu * 1000:5.1f})   ratio {tick / floor:5.1f}x wall, "
                  f"{tick_cpu / floor_cpu:5.1f}x CPU {goal}", flush=True)
    if len(results) >= 2:
        per = statistics.linear_regression(list(results), list(results.values())).slope
        per_cpu = statistics.linear_regression(list(cpu), list(cpu.values())).slope
        print(f"  each further idle campaign (slope over the sizes): {per * 1000:.2f} ms wall, {per_cpu * 1000:.2f} ms "
              f"CPU (goal under {GOAL_PER_CAMPAIGN_MS:g} ms)")


if __name__ == "__main__":
    main()
