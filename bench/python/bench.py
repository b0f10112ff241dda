"""Benchmark of RockpointSaver against LangGraph's Python savers.

One workload (workload.py) through every saver (savers.py), interleaved: for
each operation, rounds in which every saver, in a shuffled order, runs a
batch. Reports per (operation, saver): median and p99 latency, and the
ratios of rockpoint to each other saver of the same durability class, then
checks the targets. Run through bench/python/run.sh (it starts PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import workload  # noqa: E402
from langgraph.checkpoint.rockpoint import RockpointSaver  # noqa: E402
from savers import Subject, make_subjects  # noqa: E402

Samples = dict[tuple[str, str, str], list[float]]  # (op, saver, class) -> µs
CHAT = f"chat, {workload.CHAT_TURNS} turns (one conversation)"

# Targets against InMemorySaver (no-fsync class), by operation name prefix:
# (prefix, highest allowed ratio, strict: the ratio must be below it).
INMEMORY_TARGETS = (
    ("put", 2.0, False),
    ("get_tuple by id", 2.0, False),
    ("get_tuple latest", 1.0, True),
    ("list(", 1.0, True),
    ("delta history", 1.0, True),
    ("graph step", 1.15, False),
    ("chat", 1.15, False),
)


def _measure(
    op_name: str,
    subjects: list[Subject],
    ops: dict[int, Callable[[], Any]],
    count: Callable[[Subject], int],
    rounds: int,
    samples: Samples,
) -> None:
    rng = random.Random(op_name)
    for _ in range(rounds):
        order = list(range(len(subjects)))
        rng.shuffle(order)
        for i in order:
            subject, op = subjects[i], ops[i]
            n = max(1, count(subject) // rounds)
            refill = getattr(op, "refill", None)
            if refill:
                refill(n)
            out = samples.setdefault((op_name, subject.name, subject.durability), [])
            for _ in range(n):
                start = time.perf_counter_ns()
                op()
                out.append((time.perf_counter_ns() - start) / 1000)


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def _hop(saver: RockpointSaver) -> dict[str, float]:
    """The cost of running a call off the event loop: a thread-pool hop, the
    same get_tuple inline, and aget_tuple (native workers, eventfd)."""
    executor = ThreadPoolExecutor(max_workers=4)
    config = {"configurable": {"thread_id": "hop", "checkpoint_ns": ""}}

    async def run() -> dict[str, float]:
        loop = asyncio.get_running_loop()
        out: dict[str, list[float]] = {
            "executor hop (no-op)": [],
            "get_tuple inline": [],
            "aget_tuple (native worker, eventfd)": [],
        }
        for _ in range(2000):
            t = time.perf_counter_ns()
            await loop.run_in_executor(executor, int)
            out["executor hop (no-op)"].append((time.perf_counter_ns() - t) / 1000)
            t = time.perf_counter_ns()
            saver.get_tuple(config)
            out["get_tuple inline"].append((time.perf_counter_ns() - t) / 1000)
            t = time.perf_counter_ns()
            await saver.aget_tuple(config)
            out["aget_tuple (native worker, eventfd)"].append(
                (time.perf_counter_ns() - t) / 1000
            )
        return {k: statistics.median(v) for k, v in out.items()}

    chain = workload.Chain(saver, "hop")
    chain.put(chain.prepare({"state": "x" * 1024}))
    try:
        return asyncio.run(run())
    finally:
        executor.shutdown()


def _fdatasync_floor(work: Path, n: int) -> float:
    """Median µs of appending 1 KB to a file and fdatasync-ing it: the floor
    of one durable commit on this file system."""
    path = work / "fdatasync-probe"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        times = []
        for _ in range(n):
            start = time.perf_counter_ns()
            os.write(fd, b"x" * 1024)
            os.fdatasync(fd)
            times.append((time.perf_counter_ns() - start) / 1000)
        return statistics.median(times)
    finally:
        os.close(fd)


def _commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pg", help="libpq conninfo of the PostgreSQL server")
    parser.add_argument("--quick", action="store_true", help="a small run (seconds)")
    parser.add_argument("--out", default=str(Path(__file__).parent / "results.md"))
    args = parser.parse_args()
    args.load_before = os.getloadavg()[0]
    scale = 0.1 if args.quick else 1.0
    if args.quick:
        workload.THREAD_LENGTH = 100
    rounds = 5 if args.quick else 10

    def count(write: bool, slow: bool = False) -> Callable[[Subject], int]:
        def n(subject: Subject) -> int:
            if slow:
                base = 40 if subject.name in ("inmemory", "rockpoint") else 10
            elif write and subject.durability == "fsync":
                base = 300
            else:
                base = 3000
            return max(rounds, int(base * scale))

        return n

    work = Path(tempfile.mkdtemp(prefix="rockpoint-pybench-"))
    subjects = make_subjects(work, args.pg)
    samples: Samples = {}
    started = time.time()
    for channels in (1, 10):
        ops = {i: workload.setup_put(s.saver, channels) for i, s in enumerate(subjects)}
        name = f"put 1 KB, {channels} channel{'s' if channels > 1 else ''}"
        _measure(name, subjects, ops, count(True), rounds, samples)
    ops = {i: workload.setup_put_writes(s.saver) for i, s in enumerate(subjects)}
    _measure("put_writes 2 x 512 B", subjects, ops, count(True), rounds, samples)
    print(
        f"bench: writes done ({time.time() - started:.0f} s); building threads",
        file=sys.stderr,
    )
    reads = {}
    for i, s in enumerate(subjects):
        thread, ids = workload.build_long_thread(s.saver)
        reads[i] = workload.setup_reads(s.saver, thread, ids)
    for op_name in reads[0]:
        ops = {i: reads[i][op_name] for i in reads}
        _measure(op_name, subjects, ops, count(False), rounds, samples)
    ops = {i: workload.setup_delta(s.saver) for i, s in enumerate(subjects)}
    _measure(
        "delta history, 1,000 ancestors",
        subjects,
        ops,
        count(False, slow=True),
        rounds,
        samples,
    )
    ops = {i: workload.setup_graph_step(s.saver) for i, s in enumerate(subjects)}
    _measure("graph step (3-node invoke)", subjects, ops, count(True), rounds, samples)
    ops = {i: workload.setup_chat(s.saver) for i, s in enumerate(subjects)}
    _measure(
        CHAT, subjects, ops, lambda _: max(rounds, int(30 * scale)), rounds, samples
    )
    floor = _fdatasync_floor(work, 50 if args.quick else 300)
    hop = _hop(
        next(
            s.saver
            for s in subjects
            if s.name == "rockpoint" and s.durability == "fsync"
        )
    )
    elapsed = time.time() - started
    for s in subjects:
        s.close()

    report = _report(samples, hop, floor, elapsed, args)
    print(report)
    below = _below_floor(samples, floor)
    if below:
        # A durable write cannot take less than one fdatasync: the run is
        # wrong (a write that did not sync, or a floor measured under other
        # load), and its table is not kept.
        for op, saver, median in below:
            print(
                f"bench: ERROR: {op}, {saver} (fsync): median {median:,.1f} µs "
                f"is below the fdatasync floor {floor:,.1f} µs",
                file=sys.stderr,
            )
        sys.exit(1)
    Path(args.out).write_text(report)


def _below_floor(samples: Samples, floor: float) -> list[tuple[str, str, float]]:
    """The fsync-class puts (one synced write each) whose median is below
    the floor."""
    out = []
    for (op, saver, klass), values in samples.items():
        median = statistics.median(values)
        if klass == "fsync" and op.startswith("put") and median < floor:
            out.append((op, saver, median))
    return out


def _inmemory_target(op: str, med: dict[tuple[str, str, str], float]) -> list[str]:
    """The line judging `op` against InMemorySaver, if it has a target."""
    rp = med.get((op, "rockpoint", "no-fsync"))
    mem = med.get((op, "inmemory", "no-fsync"))
    rule = next((t for t in INMEMORY_TARGETS if op.startswith(t[0])), None)
    if rp is None or mem is None or rule is None:
        return []
    _, limit, strict = rule
    r = rp / mem
    met = r < limit if strict else r <= limit
    goal = "faster than inmemory" if strict else f"within {limit:g}x of inmemory"
    return [f"- {op}: {goal}: {'met' if met else 'MISSED'} ({r:.2f})"]


def _report(
    samples: Samples, hop: dict[str, float], floor: float, elapsed: float, args: Any
) -> str:
    med = {k: statistics.median(v) for k, v in samples.items()}
    lines = [
        f"Run: {time.strftime('%Y-%m-%d %H:%M')} at {_commit()}, {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, "
        f"{'quick' if args.quick else 'full'}, {elapsed:.0f} s, load before "
        f"{args.load_before:.2f}; command: `bench/python/run.sh"
        f"{' --quick' if args.quick else ''}`. Latencies in µs "
        "(median / p99 of single calls); ratio = rockpoint's median / the saver's "
        "median in the same durability class (< 1: rockpoint is faster).",
        "",
        "| operation | class | saver | median µs | p99 µs | rockpoint ratio |",
        "|---|---|---|---:|---:|---:|",
    ]
    ops = list(dict.fromkeys(k[0] for k in samples))
    for op in ops:
        for klass in ("fsync", "no-fsync"):
            rp = med.get((op, "rockpoint", klass))
            for saver in ("rockpoint", "inmemory", "sqlite", "postgres"):
                key = (op, saver, klass)
                if key not in samples:
                    continue
                ratio = (
                    "" if saver == "rockpoint" or rp is None else f"{rp / med[key]:.2f}"
                )
                lines.append(
                    f"| {op} | {klass} | {saver} | {med[key]:,.1f} | "
                    f"{_p99(samples[key]):,.1f} | {ratio} |"
                )
    lines += ["", "Targets:", ""]
    for op in ops:
        for klass in ("fsync", "no-fsync"):
            rp = med.get((op, "rockpoint", klass))
            for other in ("sqlite", "postgres"):
                if rp is not None and (op, other, klass) in med:
                    r = rp / med[(op, other, klass)]
                    lines.append(
                        f"- {op}, {klass}: faster than {other}: {'met' if r < 1 else 'MISSED'} ({r:.2f})"
                    )
        lines += _inmemory_target(op, med)
    lines += [
        "",
        f"fdatasync floor (1 KB append + fdatasync, same file system): {floor:,.1f} µs median.",
    ]
    lines += [
        "",
        "Async hop (rockpoint, RocksDB store, medians in µs): "
        + ", ".join(f"{k} {v:.1f}" for k, v in hop.items()),
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
