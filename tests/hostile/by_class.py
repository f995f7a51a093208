"""Run the hostile corpus one class at a time (each beside the healthy campaigns, from Maildirs)
and print which classes still break something, and how:

    python3 -m tests.hostile.by_class [--limit SECONDS] [CLASS-PREFIX ...]

The tests run the whole corpus at once, where the first mail that stops a tick hides the rest;
this shows every class's own result. A tick longer than --limit (default 20 s) is cut short
and reported as a stall.
"""

from __future__ import annotations

import argparse
import signal
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

from tests.hostile.harness import (
    Mail,
    Run,
    check_on_file,
    check_resolved,
    check_ticks,
    delivery,
    fate_problems,
    local_outgoing,
    make_site,
    outgoing_problems,
    play,
)
from tests.hostile.test_hostile_maildir import drop, maildir


class Stalled(BaseException):
    """A tick ran past the limit (a BaseException, so that Run.tick does not record it as the
    tick's own error and carry on)."""


@contextmanager
def limit(seconds: int) -> Iterator[None]:
    def stop(signum: int, frame: FrameType | None) -> None:
        raise Stalled(f"tick still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def problems_of(mails: list[Mail], seconds: int) -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "campaigns"
        root.mkdir()
        make_site(root, maildir)
        drop(root, mails)
        run, on_file = Run(root), list[str]()
        try:
            with limit(seconds * 7):
                play(run, on_file=lambda r: on_file.extend(check_on_file(r)))
        except Stalled as exc:
            return [str(exc)]
        outgoing = local_outgoing(root, root.parent / "outbox")
        return (check_ticks(run) + on_file + check_resolved(run) + fate_problems(mails, outgoing, root)
                + outgoing_problems(outgoing))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("prefixes", nargs="*")
    args = parser.parse_args(argv)
    mails = delivery()
    healthy = [m for m in mails if m.name.startswith("healthy-")]
    kinds = dict.fromkeys(m.kind for m in mails if not m.name.startswith("healthy-"))
    failing = 0
    for kind in kinds:
        if args.prefixes and not any(kind.startswith(p) for p in args.prefixes):
            continue
        mine = [m for m in mails if m.kind == kind]
        problems = problems_of(healthy[:1] + mine + healthy[1:], args.limit)
        failing += bool(problems)
        print(f"{'FAIL' if problems else 'ok  '} {kind} ({len(mine)} mails)", flush=True)
        for problem in dict.fromkeys(p[:160] for p in problems[:6]):
            print(f"       {problem}", flush=True)
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
