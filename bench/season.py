"""Season simulations over many seeds: `python bench/season.py [--seeds N] [--first S] [--quick] [SYSTEM ...]`.

Plays each registered rule system (or the ones named) to its end for seeds S..S+N-1 through the
tick, checking the invariants of tests/season/checks.py after every tick (tests/season/), and
prints one line per season: ticks, turns, mails, seconds, or the first invariant it broke.
Exits 1 when any season failed. Seasons run in a tmpfs (/dev/shm) when there is one.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.season.agents import AGENTS
from tests.season.driver import play


def one(system: str, seed: int, quick: bool = False) -> bool:
    start = time.perf_counter()
    scratch = "/dev/shm" if Path("/dev/shm").is_dir() else None
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        try:
            season = play(Path(tmp), system, seed, quick=quick)
        except AssertionError as exc:
            print(f"{system} seed {seed}: FAILED {time.perf_counter() - start:.1f}s\n  "
                  + str(exc).replace("\n", "\n  "), flush=True)
            return False
        except Exception:  # noqa: BLE001 - a harness or agent error: shown whole
            print(f"{system} seed {seed}: ERROR\n{traceback.format_exc()}", flush=True)
            return False
    print(f"{system} seed {seed}: ok, {season.ticks} ticks, turn {season.turns_seen[-1]}, "
          f"{len(season.outbox)} mails out, {season.mail_no} in, {time.perf_counter() - start:.1f}s", flush=True)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("systems", nargs="*", default=sorted(AGENTS))
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--first", type=int, default=100)
    parser.add_argument("--quick", action="store_true", help="the short seasons of the normal test suite")
    args = parser.parse_args()
    results = [
        one(system, seed, args.quick) for system in args.systems for seed in range(args.first, args.first + args.seeds)
    ]
    print(f"{results.count(True)} of {len(results)} seasons ok")
    return 0 if all(results) else 1


if __name__ == "__main__":
    raise SystemExit(main())
