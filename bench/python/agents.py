"""Many agents at once: N concurrent LangGraph graphs with durability "sync".

Each agent invokes the 3-node graph of workload.build_step_graph on a
thread_id of its own, again and again, for a fixed window. Agents run as OS
threads (graph.invoke) or as asyncio tasks (graph.ainvoke). Every saver is
measured at each concurrency in one interleaved run (the savers' order is
shuffled per level). For each (mode, agents, saver) it reports:
- graph invokes per second;
- the ratio to InMemorySaver at the same concurrency;
- errors (an invoke that raised);
- fsyncs per saver write: fdatasync and fsync calls on the whole machine
  during the window (`perf stat -a`, so PostgreSQL's server counts too),
  divided by the put and put_writes calls the invokes made.

Durable savers: RockpointSaver (sync_writes), SqliteSaver / AsyncSqliteSaver
(WAL, synchronous=FULL), PostgresSaver / AsyncPostgresSaver
(synchronous_commit=on, a connection pool). InMemorySaver is the reference.
Run through bench/python/run.sh agents (it starts PostgreSQL).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))

import workload  # noqa: E402
from bench import _commit, _fdatasync_floor  # noqa: E402
from langgraph.checkpoint.memory import InMemorySaver  # noqa: E402
from langgraph.checkpoint.postgres import PostgresSaver  # noqa: E402
from langgraph.checkpoint.postgres.aio import AsyncPostgresSaver  # noqa: E402
from langgraph.checkpoint.rockpoint import RockpointSaver  # noqa: E402
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver  # noqa: E402
from psycopg.rows import dict_row  # noqa: E402
from psycopg_pool import AsyncConnectionPool, ConnectionPool  # noqa: E402
from savers import _sqlite  # noqa: E402

INPUT = {"x": 0, "log": ""}
POOL_MAX = 32  # PostgreSQL connections per saver


@dataclass
class Window:
    invokes: int = 0
    errors: int = 0
    first_error: str = ""
    seconds: float = 0.0
    fsyncs: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, error: BaseException | None) -> None:
        with self.lock:
            if error is None:
                self.invokes += 1
                return
            self.errors += 1
            if not self.first_error:
                self.first_error = f"{type(error).__name__}: {error}"[:200]


class FsyncCounter:
    """fdatasync + fsync calls on the machine while running (perf stat -a);
    None when perf cannot count them here."""

    EVENTS = "syscalls:sys_enter_fdatasync,syscalls:sys_enter_fsync"

    def __enter__(self) -> FsyncCounter:
        self.count: int | None = None
        try:
            self._perf: subprocess.Popen[str] | None = subprocess.Popen(
                ["perf", "stat", "-a", "-x", ",", "-e", self.EVENTS],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError:
            self._perf = None
        time.sleep(0.3)  # perf attaches to every CPU
        return self

    def __exit__(self, *exc: object) -> None:
        if self._perf is None:
            return
        self._perf.send_signal(signal.SIGINT)
        _, err = self._perf.communicate()
        counts = [
            line.split(",")[0] for line in err.splitlines() if "sys_enter_" in line
        ]
        # perf stat prints its counts and re-raises the SIGINT.
        if len(counts) == 2 and all(c.isdigit() for c in counts):
            self.count = sum(int(c) for c in counts)


def _run_threads(graph: Any, agents: int, seconds: float) -> Window:
    window = Window()
    start = threading.Barrier(agents + 1)
    stop = threading.Event()

    def agent() -> None:
        config = workload._config(f"agent-{uuid.uuid4()}")
        start.wait()
        while not stop.is_set():
            try:
                graph.invoke(INPUT, config, durability="sync")
                window.record(None)
            except Exception as error:  # noqa: BLE001 - counted and shown
                window.record(error)

    threads = [threading.Thread(target=agent) for _ in range(agents)]
    for thread in threads:
        thread.start()
    with FsyncCounter() as fsyncs:
        started = time.perf_counter()
        start.wait()
        time.sleep(seconds)
        stop.set()
        for thread in threads:
            thread.join()
        window.seconds = time.perf_counter() - started
    window.fsyncs = fsyncs.count
    return window


async def _run_tasks(graph: Any, agents: int, seconds: float) -> Window:
    window = Window()
    stop = asyncio.Event()

    async def agent() -> None:
        config = workload._config(f"agent-{uuid.uuid4()}")
        while not stop.is_set():
            try:
                await graph.ainvoke(INPUT, config, durability="sync")
                window.record(None)
            except Exception as error:  # noqa: BLE001 - counted and shown
                window.record(error)

    with FsyncCounter() as fsyncs:
        started = time.perf_counter()
        tasks = [asyncio.create_task(agent()) for _ in range(agents)]
        await asyncio.sleep(seconds)
        stop.set()
        await asyncio.gather(*tasks)
        window.seconds = time.perf_counter() - started
    window.fsyncs = fsyncs.count
    return window


def _writes_per_invoke() -> float:
    """put + put_writes calls of one invoke of the step graph."""

    class Counting(InMemorySaver):
        calls = 0

        def put(self, *args: Any, **kwargs: Any) -> Any:
            Counting.calls += 1
            return super().put(*args, **kwargs)

        def put_writes(self, *args: Any, **kwargs: Any) -> None:
            Counting.calls += 1
            super().put_writes(*args, **kwargs)

    graph = workload.build_step_graph(Counting())
    for _ in range(10):
        graph.invoke(INPUT, workload._config("count"), durability="sync")
    return Counting.calls / 10


# ---- the savers, per mode: name -> (open, close) -------------------------

Opened = tuple[Any, Callable[[], Any]]


def thread_savers(work: Path, pg: str | None) -> dict[str, Callable[[], Opened]]:
    def rockpoint() -> Opened:
        saver = RockpointSaver.open(str(work / f"rp-{uuid.uuid4()}"), sync_writes=True)
        return saver, saver.close

    def sqlite() -> Opened:
        return _sqlite(work / f"{uuid.uuid4()}.sqlite", "FULL")

    def postgres() -> Opened:
        pool = ConnectionPool(
            pg,
            max_size=POOL_MAX,
            kwargs={
                "autocommit": True,
                "prepare_threshold": 0,
                "row_factory": dict_row,
                "options": "-c synchronous_commit=on",
            },
        )
        saver = PostgresSaver(pool)
        saver.setup()
        return saver, pool.close

    savers = {
        "rockpoint": rockpoint,
        "inmemory": lambda: (InMemorySaver(), lambda: None),
        "sqlite": sqlite,
    }
    if pg:
        savers["postgres"] = postgres
    return savers


def async_savers(work: Path, pg: str | None) -> dict[str, Callable[[], Any]]:
    async def rockpoint() -> Opened:
        saver = RockpointSaver.open(str(work / f"rp-{uuid.uuid4()}"), sync_writes=True)
        return saver, saver.aclose

    async def inmemory() -> Opened:
        async def nothing() -> None:
            return None

        return InMemorySaver(), nothing

    async def sqlite() -> Opened:
        import aiosqlite

        conn = await aiosqlite.connect(str(work / f"{uuid.uuid4()}.sqlite"))
        await conn.execute("PRAGMA journal_mode=WAL")
        await conn.execute("PRAGMA synchronous=FULL")
        saver = AsyncSqliteSaver(conn)
        await saver.setup()
        return saver, conn.close

    async def postgres() -> Opened:
        pool = AsyncConnectionPool(
            pg,
            max_size=POOL_MAX,
            open=False,
            kwargs={
                "autocommit": True,
                "prepare_threshold": 0,
                "row_factory": dict_row,
                "options": "-c synchronous_commit=on",
            },
        )
        await pool.open()
        saver = AsyncPostgresSaver(pool)
        await saver.setup()
        return saver, pool.close

    savers = {"rockpoint": rockpoint, "inmemory": inmemory, "sqlite": sqlite}
    if pg:
        savers["postgres"] = postgres
    return savers


Results = dict[tuple[str, int, str], Window]  # (mode, agents, saver)


def _schedule(levels: list[int], names: list[str], seed: str) -> list[tuple[int, str]]:
    """(agents, saver) in the order measured: every saver at each level, in
    an order shuffled per level."""
    rng = random.Random(seed)
    order = []
    for agents in levels:
        shuffled = list(names)
        rng.shuffle(shuffled)
        order += [(agents, name) for name in shuffled]
    return order


def measure_threads(
    work: Path, pg: str | None, levels: list[int], seconds: float, out: Results
) -> None:
    savers = thread_savers(work, pg)
    for agents, name in _schedule(levels, list(savers), "threads"):
        saver, close = savers[name]()
        try:
            graph = workload.build_step_graph(saver)
            graph.invoke(INPUT, workload._config("warm-up"), durability="sync")
            out[("threads", agents, name)] = _run_threads(graph, agents, seconds)
        finally:
            close()
        print(f"agents: threads {agents} {name} done", file=sys.stderr)


async def measure_tasks(
    work: Path, pg: str | None, levels: list[int], seconds: float, out: Results
) -> None:
    savers = async_savers(work, pg)
    for agents, name in _schedule(levels, list(savers), "asyncio"):
        saver, close = await savers[name]()
        try:
            graph = workload.build_step_graph(saver)
            await graph.ainvoke(INPUT, workload._config("warm-up"), durability="sync")
            out[("asyncio", agents, name)] = await _run_tasks(graph, agents, seconds)
        finally:
            await close()
        print(f"agents: asyncio {agents} {name} done", file=sys.stderr)


def report(
    results: Results, writes_per_invoke: float, floor: float, command: str
) -> str:
    load = os.getloadavg()
    lines = [
        f"Run: {time.strftime('%Y-%m-%d %H:%M')} at {_commit()}, "
        f"{os.cpu_count()} cores, load before {load[0]:.2f}; command: `{command}`. "
        f'Graph: 3 nodes, durability "sync", {writes_per_invoke:g} saver writes '
        f"per invoke. fdatasync floor: {floor:,.0f} µs median. Ratio: invokes/s "
        "over InMemorySaver's at the same concurrency and mode.",
        "",
        "| mode | agents | saver | invokes/s | ratio to inmemory | errors | fsyncs per write |",
        "|---|---:|---|---:|---:|---:|---:|",
    ]
    for (mode, agents, name), window in sorted(results.items()):
        rate = window.invokes / window.seconds
        memory = results.get((mode, agents, "inmemory"))
        ratio = memory.invokes / memory.seconds if memory else 0.0
        writes = window.invokes * writes_per_invoke
        fsyncs = (
            "n/a"
            if window.fsyncs is None or writes == 0
            else f"{window.fsyncs / writes:.2f}"
        )
        lines.append(
            f"| {mode} | {agents} | {name} | {rate:,.1f} | "
            f"{rate / ratio if ratio else 0:.2f} | {window.errors} | {fsyncs} |"
        )
    errors = [
        f"- {mode} {agents} {name}: {window.first_error}"
        for (mode, agents, name), window in sorted(results.items())
        if window.errors
    ]
    if errors:
        lines += ["", "First error of each run with errors:", "", *errors]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pg", help="libpq conninfo of the PostgreSQL server")
    parser.add_argument("--agents", default="1,8,32,128", help="concurrency levels")
    parser.add_argument("--seconds", type=float, default=5.0, help="per window")
    parser.add_argument("--modes", default="threads,asyncio")
    parser.add_argument("--out", default=str(Path(__file__).parent / "agents.md"))
    args = parser.parse_args()
    levels = [int(n) for n in args.agents.split(",")]
    modes = args.modes.split(",")
    work = Path(tempfile.mkdtemp(prefix="rockpoint-agents-"))
    floor = _fdatasync_floor(work, 200)
    results: Results = {}
    if "threads" in modes:
        measure_threads(work, args.pg, levels, args.seconds, results)
    if "asyncio" in modes:
        asyncio.run(measure_tasks(work, args.pg, levels, args.seconds, results))
    command = "bench/python/run.sh agents " + " ".join(
        a for a in sys.argv[1:] if not a.startswith("--pg") and "host=" not in a
    )
    text = report(results, _writes_per_invoke(), floor, command.strip())
    print(text)
    Path(args.out).write_text(text)


if __name__ == "__main__":
    main()
