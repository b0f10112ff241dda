"""Benchmark of RockpointStore against LangGraph's Python stores.

Subjects: RockpointStore on RocksDB with fsync (sync_writes) and without,
InMemoryStore, SqliteStore (a file in WAL mode, synchronous=FULL; sqlite-vec
for vectors) and PostgresStore (synchronous_commit=on; no vectors: pgvector
is not in Debian 12). Operations, each measured per call, with the subjects
interleaved in shuffled rounds:

- put: one new item per call, in one namespace;
- get: a random existing item of 10,000 in one namespace;
- search with a filter over those 10,000 items (10% match), limit 10;
- list_namespaces over 1,000 namespaces, limit 100;
- vector top-10 over 10,000 and 100,000 items of 384 dimensions (a fixed
  random embedding per text), with recall@10 against exact cosine search
  computed here with numpy.

Run through bench/python/run.sh stores (it starts PostgreSQL).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from bench import _commit, _fdatasync_floor  # noqa: E402
from langchain_core.embeddings import Embeddings  # noqa: E402
from langgraph.store.base import BaseStore, PutOp  # noqa: E402
from langgraph.store.memory import InMemoryStore  # noqa: E402
from langgraph.store.postgres import PostgresStore  # noqa: E402
from langgraph.store.rockpoint import RockpointStore  # noqa: E402
from langgraph.store.sqlite import SqliteStore  # noqa: E402

DIMS = 384
KINDS = 10
ITEMS_NS = ("bench", "items")


class TableEmbeddings(Embeddings):
    """A fixed unit vector per text ("doc-N" or "query-N"), drawn with a low
    intrinsic dimension, as sentence embeddings have: a random linear map of
    32-dimensional Gaussian points into 384 dimensions, plus 10% noise.
    (Uniform random 384-dimensional vectors, where every neighbour is about
    as far as any other, are the worst case of every graph index.)"""

    def __init__(self, docs: int, queries: int) -> None:
        rng = np.random.default_rng(7)
        latent = 32
        mapping = rng.standard_normal((latent, DIMS), dtype=np.float32)

        def draw(n: int) -> np.ndarray:
            points = rng.standard_normal((n, latent), dtype=np.float32) @ mapping
            noise = rng.standard_normal((n, DIMS), dtype=np.float32)
            return _unit(points + 0.1 * np.sqrt(latent) * noise)

        self.docs = draw(docs)
        self.queries = draw(queries)

    def _row(self, text: str) -> list[float]:
        # The text is "doc-N" (or a JSON value holding it: some stores embed
        # the field's JSON form).
        found = re.search(r"(doc|query)-(\d+)", text)
        if found is None:
            raise ValueError(f"no doc-N or query-N in {text!r}")
        table = self.docs if found.group(1) == "doc" else self.queries
        return table[int(found.group(2))].tolist()

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._row(t) for t in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._row(text)


def _unit(m: np.ndarray) -> np.ndarray:
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@dataclass
class Subject:
    name: str
    store: BaseStore


@contextmanager
def _subjects(
    work: Path, conninfo: str | None, index: dict | None, tag: str, vectors: bool
) -> Iterator[list[Subject]]:
    """The stores of one section, closed at exit."""
    with ExitStack() as stack:
        out = []
        rp = RockpointStore.open(str(work / f"rp-{tag}"), index=index)
        stack.callback(rp.close)
        out.append(Subject("rockpoint (fsync)", rp))
        if not vectors:
            rp_nosync = RockpointStore.open(
                str(work / f"rp-nosync-{tag}"), sync_writes=False
            )
            stack.callback(rp_nosync.close)
            out.append(Subject("rockpoint (no fsync)", rp_nosync))
        out.append(Subject("InMemoryStore", InMemoryStore(index=index)))
        conn = sqlite3.connect(
            str(work / f"sqlite-{tag}.db"), check_same_thread=False, isolation_level=None
        )
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        stack.callback(conn.close)
        sqlite = SqliteStore(conn, index=index)
        sqlite.setup()
        out.append(Subject("SqliteStore", sqlite))
        if conninfo and not vectors:
            pg = stack.enter_context(PostgresStore.from_conn_string(conninfo))
            pg.setup()
            with pg.conn.cursor() as cur:
                cur.execute("TRUNCATE store")
            out.append(Subject("PostgresStore", pg))
        yield out


def _value(i: int) -> dict[str, Any]:
    return {"text": f"doc-{i}", "kind": f"k{i % KINDS}", "n": i, "tags": ["a", "b"]}


def _load(store: BaseStore, ns: tuple[str, ...], n: int, chunk: int = 1000) -> None:
    for start in range(0, n, chunk):
        store.batch(
            [PutOp(ns, f"item-{i}", _value(i)) for i in range(start, min(n, start + chunk))]
        )


def _interleave(
    subjects: list[Subject],
    calls: int,
    rounds: int,
    op: Callable[[Subject, int], Any],
) -> dict[str, list[float]]:
    """µs per call of `op`, `calls` per subject, in `rounds` shuffled rounds."""
    times: dict[str, list[float]] = {s.name: [] for s in subjects}
    per_round = max(1, calls // rounds)
    i = 0
    for _ in range(rounds):
        order = subjects[:]
        random.shuffle(order)
        for subject in order:
            for j in range(per_round):
                start = time.perf_counter_ns()
                op(subject, i + j)
                times[subject.name].append((time.perf_counter_ns() - start) / 1000)
        i += per_round
    return times


Rows = list[tuple[str, str, float, float, str]]  # op, subject, median, p95, note


def _rows(op: str, times: dict[str, list[float]], notes: dict[str, str] | None = None) -> Rows:
    out = []
    for name, t in times.items():
        ordered = sorted(t)
        p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
        out.append((op, name, statistics.median(t), p95, (notes or {}).get(name, "")))
    return out


def _plain_sections(work: Path, conninfo: str | None, quick: bool) -> Rows:
    items = 2_000 if quick else 10_000
    namespaces = 200 if quick else 1_000
    calls = 200 if quick else 2_000
    rows: Rows = []
    with _subjects(work, conninfo, None, "plain", vectors=False) as subjects:
        for s in subjects:
            _load(s.store, ITEMS_NS, items)
            s.store.batch(
                [PutOp(("bench", "ns", f"{i:04d}"), "k", {"i": i}) for i in range(namespaces)]
            )
        rows += _rows(
            "put (one new item)",
            _interleave(
                subjects,
                calls,
                10,
                lambda s, i: s.store.put(("bench", "put"), f"p-{i}", _value(i)),
            ),
        )
        rng = random.Random(3)
        rows += _rows(
            f"get (of {items:,} items)",
            _interleave(
                subjects,
                calls,
                10,
                lambda s, i: s.store.get(ITEMS_NS, f"item-{rng.randrange(items)}"),
            ),
        )
        rows += _rows(
            f"search, filter, limit 10 (of {items:,} items)",
            _interleave(
                subjects,
                50 if quick else 200,
                10,
                lambda s, i: s.store.search(
                    ITEMS_NS, filter={"kind": f"k{i % KINDS}"}, limit=10
                ),
            ),
        )
        rows += _rows(
            f"list_namespaces, limit 100 (of {namespaces:,})",
            _interleave(
                subjects,
                50 if quick else 200,
                10,
                lambda s, i: s.store.list_namespaces(prefix=("bench", "ns"), limit=100),
            ),
        )
    return rows


def _wait_for_graph(store: RockpointStore) -> None:
    """Waits until the HNSW graph (built in the background above
    exact_search_max_vectors) serves, so queries measure it."""
    start = time.perf_counter()
    stats = store.index_stats()
    if stats is None or stats["vectors"] <= 20_000:
        return
    while not store.index_stats()["approximate_ready"]:
        time.sleep(0.2)
    print(f"  HNSW graph of {stats['vectors']:,} vectors built in "
          f"{time.perf_counter() - start:.1f} s", file=sys.stderr)


def _recall(found: list[Any], exact: list[str]) -> float:
    return len({item.key for item in found} & set(exact)) / len(exact)


def _vector_section(work: Path, n: int, queries: int) -> Rows:
    embed = TableEmbeddings(n, queries)
    index = {"dims": DIMS, "embed": embed, "fields": ["text"]}
    # Exact top-10 by cosine similarity (all vectors are unit length).
    exact = [
        [f"item-{j}" for j in np.argsort(-(embed.docs @ embed.queries[q]))[:10]]
        for q in range(queries)
    ]
    recalls: dict[str, list[float]] = {}
    with _subjects(work, None, index, f"vec{n}", vectors=True) as subjects:
        for s in subjects:
            start = time.perf_counter()
            _load(s.store, ITEMS_NS, n)
            print(f"  loaded {n:,} vectors into {s.name} in {time.perf_counter() - start:.1f} s",
                  file=sys.stderr)
            if isinstance(s.store, RockpointStore):
                _wait_for_graph(s.store)

        def query(s: Subject, i: int) -> None:
            q = i % queries
            found = s.store.search(ITEMS_NS, query=f"query-{q}", limit=10)
            recalls.setdefault(s.name, []).append(_recall(found, exact[q]))

        times = _interleave(subjects, queries, 2, query)
    notes = {name: f"recall@10 {statistics.mean(r):.3f}" for name, r in recalls.items()}
    return _rows(f"vector top-10 of {n:,} x {DIMS}", times, notes)


def _report(rows: Rows, floor: float, args: Any, elapsed: float) -> str:
    load = os.getloadavg()
    lines = [
        "# Python stores benchmark",
        "",
        f"`bench/python/run.sh stores{' --quick' if args.quick else ''}` at commit "
        f"{_commit()}; load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; "
        f"fdatasync floor {floor:.0f} µs (median of 200, 1 KB appends); "
        f"{elapsed:.0f} s.",
        "",
        "| operation | store | median µs | p95 µs | vs InMemoryStore | note |",
        "|---|---|---:|---:|---:|---|",
    ]
    by_op: dict[str, dict[str, float]] = {}
    for op, name, med, _, _ in rows:
        by_op.setdefault(op, {})[name] = med
    for op, name, med, p95, note in rows:
        mem = by_op[op].get("InMemoryStore")
        ratio = f"{med / mem:.2f}x" if mem else ""
        lines.append(f"| {op} | {name} | {med:,.0f} | {p95:,.0f} | {ratio} | {note} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--pg", help="libpq conninfo of the PostgreSQL server")
    parser.add_argument("--quick", action="store_true", help="a small run")
    parser.add_argument("--out", help="also write the table here")
    parser.add_argument(
        "--vectors",
        default="10000,100000",
        help="vector section sizes (comma-separated; empty: none)",
    )
    args = parser.parse_args()
    random.seed(11)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="rockpoint-storebench-") as tmp:
        work = Path(tmp)
        floor = _fdatasync_floor(work, 200)
        rows = _plain_sections(work, args.pg, args.quick)
        sizes = [int(x) for x in args.vectors.split(",") if x]
        if args.quick:
            sizes = [2_000]
        for n in sizes:
            rows += _vector_section(work, n, 20 if n <= 10_000 else 10)
    report = _report(rows, floor, args, time.perf_counter() - started)
    print(report)
    if args.out:
        Path(args.out).write_text(report)


if __name__ == "__main__":
    main()
