"""Benchmark: what the forum costs a tick, for threads of growing length.

    python bench/forum.py            # threads of 100, 1,000 and 5,000 posts
    python bench/forum.py --quick    # 100 and 1,000

For each backend (the folder thread, and Discourse through its REST API against the
loopback server the tests use) and each thread length (half the posts by players, half by
the bot) it prints the median time of: an idle read (nothing new since the cursor), reading
20 new posts, publishing a report under a new key (the key is searched for among the posts
after the last recorded publication, as the engine does), the same publication again (a
retry after a crash: the post is found, nothing is written), and a publication with no
record at all (the whole thread searched), plus the HTTP requests each Discourse step makes.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pbem.forum.base import Forum, advance, with_marker
from pbem.forum.discourse import Credentials, DiscourseForum
from pbem.forum.folder import FolderForum, join_header
from tests.forum.discourse_server import DiscourseServer, DiscourseState

KEY = "k" * 64
REPORT = "# Turn 9: movement\n\n" + "\n".join(f"| R-{i} | T{i} | R-{i} M T{i + 1} |" for i in range(40))


def timed(step: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def folder_thread(root: Path, size: int) -> tuple[FolderForum, Callable[[int], None]]:
    forum = FolderForum(root / f"thread-{size}", bot="pbem")
    for n in range(1, size + 1):
        author = "pbem" if n % 2 else "alice"
        header = {"id": n, "author": author, "created": "2026-11-23T10:00:00Z", "in_reply_to": 0} | (
            {"key": f"old/{n}"} if author == "pbem" else {})
        (forum.path / f"{n:06d}-{author}.md").write_text(join_header(header, REPORT))

    def add(count: int) -> None:
        for i in range(count):
            (forum.path / f"new-{time.perf_counter_ns()}-{i}.md").write_text('+++\nauthor = "bob"\n+++\nSTATUS\n')
    return forum, add


def discourse_thread(state: DiscourseState, url: str, size: int) -> tuple[DiscourseForum, Callable[[int], None]]:
    topic = state.new_topic(f"thread {size}")
    for n in range(size):
        author = "pbem" if n % 2 else "alice"
        state.add_post(topic, author, with_marker(f"old/{n}", REPORT) if author == "pbem" else "STATUS")

    def add(count: int) -> None:
        for _ in range(count):
            state.add_post(topic, "bob", "STATUS")
    return DiscourseForum(url, topic.id, Credentials(KEY, "pbem")), add


def measure(name: str, forum: Forum, add: Callable[[int], None], requests: Callable[[], int] | None) -> None:
    cursor = {}
    for post in forum.fetch({}):
        cursor = advance(cursor, post)
    counted: list[str] = []

    def count(step: Callable[[], object]) -> Callable[[], object]:
        def run() -> object:
            before = requests() if requests else 0
            result = step()
            counted.append(str(requests() - before) if requests else "-")
            return result
        return run

    idle = timed(count(lambda: forum.fetch(cursor)), 5)
    idle_requests = counted[-1]

    def fetch_new() -> None:
        add(20)
        nonlocal cursor
        for post in forum.fetch(cursor):
            cursor = advance(cursor, post)
    new = timed(count(fetch_new), 5)
    new_requests = counted[-1]
    keys = iter(range(10**6))
    last = [cursor.get("thread", 0)]        # the engine's record of its last publication

    def publish_new() -> None:
        last[0] = forum.publish(f"bench/{next(keys)}", "t", REPORT, since=last[0]).number
    publish = timed(count(publish_new), 5)
    publish_requests = counted[-1]
    unbounded = timed(count(lambda: forum.publish(f"bench/{next(keys)}", "t", REPORT)), 3)
    unbounded_requests = counted[-1]
    again = timed(count(lambda: forum.publish("bench/0", "t", REPORT, since=last[0] - 10)), 5)
    again_requests = counted[-1]
    print(f"{name:<28} {idle:9.1f} ms ({idle_requests:>3}) {new:9.1f} ms ({new_requests:>3}) "
          f"{publish:9.1f} ms ({publish_requests:>3}) {again:9.1f} ms ({again_requests:>3}) "
          f"{unbounded:9.1f} ms ({unbounded_requests:>3})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    sizes = [100, 1000] if parser.parse_args().quick else [100, 1000, 5000]
    state = DiscourseState(KEY, {"pbem", "alice", "bob"})
    server = DiscourseServer(state)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    print(f"{'backend / thread length':<28} {'idle read':>15} {'20 new posts':>15} {'publish new':>15} "
          f"{'publish again':>15} {'no record':>15}    (HTTP requests)")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            measure(f"folder / {size}", *folder_thread(Path(tmp), size), None)
        for size in sizes:
            measure(f"discourse loopback / {size}", *discourse_thread(state, server.url, size),
                    lambda: len(state.requests))
    server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
