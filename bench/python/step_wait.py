"""Where a graph step's wall time goes, by saver: on the CPU, waiting for
a CPU, or asleep.

For each saver this runs N invokes of bench.py's 3-node graph (LangGraph's
default durability, "async": the step's puts run on a LangGraph background
thread) and reads the scheduler's own accounting of the process's threads
(/proc/self/task/*/schedstat: time on a CPU, time runnable but waiting for
one) before and after. Per invoke it prints the wall time, the calling
thread's time on a CPU, its time waiting for a CPU, and the rest of its
wall time, asleep (blocked on the GIL, a lock or a future), and the CPU
time of every other thread (the process's CPU time minus the calling
thread's, so threads that ended count too; os.times has a 10 ms tick, so
this column is coarse). Savers alternate in rounds, so a load change
hits all alike.

    build/python-venv/bin/python bench/python/step_wait.py [--invokes 1000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import workload
from bench import _commit


def _schedstat(tid: int) -> tuple[int, int]:
    """(ns on a CPU, ns waiting for a CPU) of one thread of this process."""
    fields = Path(f"/proc/self/task/{tid}/schedstat").read_text().split()
    return int(fields[0]), int(fields[1])


def _process_cpu_ns() -> int:
    """User + system time of the whole process, exited threads included
    (LangGraph's executor threads may end within an invoke)."""
    times = os.times()
    return int((times.user + times.system) * 1e9)


def _savers() -> dict[str, object]:
    from langgraph.checkpoint.memory import InMemorySaver
    from langgraph.checkpoint.rockpoint import RockpointSaver

    path = Path(tempfile.mkdtemp(prefix="rockpoint-wait-")) / "store"
    return {
        "inmemory": InMemorySaver(),
        "rockpoint": RockpointSaver.open(str(path), sync_writes=False),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--invokes", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    main_tid = threading.get_native_id()
    ops = {name: workload.setup_graph_step(s) for name, s in _savers().items()}
    for op in ops.values():
        for _ in range(20):
            op()
    per_round = max(1, args.invokes // args.rounds)
    rows: dict[str, list[tuple[float, ...]]] = {name: [] for name in ops}
    for _ in range(args.rounds):
        for name, op in ops.items():
            cpu0, queue0 = _schedstat(main_tid)
            process0, wall0 = _process_cpu_ns(), time.perf_counter_ns()
            for _ in range(per_round):
                op()
            wall = time.perf_counter_ns() - wall0
            cpu1, queue1 = _schedstat(main_tid)
            cpu, queue = cpu1 - cpu0, queue1 - queue0
            others = _process_cpu_ns() - process0 - cpu
            rows[name].append(
                tuple(
                    v / per_round / 1e6
                    for v in (wall, cpu, queue, wall - cpu - queue, others)
                )
            )
    print(
        f"Per invoke, ms (median of {args.rounds} rounds of {per_round} "
        f"invokes; at {_commit()}, load before {os.getloadavg()[0]:.2f}):\n"
    )
    print(
        "| saver | wall | calling thread on CPU | waiting for a CPU | asleep "
        "| other threads' CPU |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for name, values in rows.items():
        medians = [statistics.median(column) for column in zip(*values)]
        print(f"| {name} | " + " | ".join(f"{m:.3f}" for m in medians) + " |")


if __name__ == "__main__":
    main()
