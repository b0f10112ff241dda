"""Semantic search above exact_search_max_vectors: the engine's HNSW graph
(index["ann_index_config"]), built in the background and rebuilt on open,
must still honour prefixes, filters and limit / offset and find the nearest
items (recall@10); kind "flat" stays exact; index_stats(); bad
ann_index_config values."""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable

import pytest
from langgraph.store.base import PutOp

from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings, cosine

VectorStore = Callable[..., RockpointStore]


class _TableEmbeddings(CharEmbeddings):
    """ "v-N" -> a fixed random unit vector (seeded by N): well spread, so
    nearest neighbours are clear-cut."""

    def vector(self, text: str) -> list[float]:
        rng = random.Random(int(text.split("-")[1]))
        v = [rng.gauss(0.0, 1.0) for _ in range(self.dims)]
        norm = math.sqrt(sum(x * x for x in v))
        return [x / norm for x in v]


def _approximate_store(make_store, kind: str = "hnsw", **options) -> RockpointStore:
    table = _TableEmbeddings(dims=16)
    return make_store(
        index={
            "dims": 16,
            "embed": table,
            "fields": ["text"],
            "ann_index_config": {
                "kind": kind,
                "exact_search_max_vectors": 50,
                "m": 8,
                "ef_construction": 64,
                "ef_search": 32,
            },
        },
        **options,
    )


def _wait_approximate(store: RockpointStore, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not store.index_stats()["approximate_ready"]:
        assert time.monotonic() < deadline, store.index_stats()
        time.sleep(0.05)


def test_approximate_search(backend: str, make_store) -> None:
    # Above exact_search_max_vectors the engine answers from an HNSW graph
    # built in the background; answers must still honour the prefix, the
    # filter and limit/offset, and find the nearest items.
    store = _approximate_store(make_store)
    table = store.embeddings
    assert store.index_stats() == {"vectors": 0, "approximate_ready": False}
    n = 400
    store.batch(
        [
            PutOp(("a" if i % 2 else "b",), f"k{i}", {"text": f"v-{i}", "third": i % 3})
            for i in range(n)
        ]
    )
    _wait_approximate(store)
    assert store.index_stats()["vectors"] == n

    for i in range(0, n, 37):
        ns = ("a" if i % 2 else "b",)
        top = store.search(ns, query=f"v-{i}", limit=1)
        assert top[0].key == f"k{i}"
        assert top[0].score == pytest.approx(1.0, abs=1e-5)
        whole = store.search((), query=f"v-{i}", limit=1)
        assert whole[0].key == f"k{i}"

    # Recall@10 with a prefix and a filter, against exact cosine here.
    hits = total = 0
    for q in range(n, n + 20):
        query = table.vector(f"v-{q}")
        exact = sorted(
            (i for i in range(n) if i % 2 == 1 and i % 3 == 0),
            key=lambda i: -cosine(query, table.vector(f"v-{i}")),
        )[:10]
        got = store.search(("a",), query=f"v-{q}", filter={"third": 0}, limit=10)
        assert len(got) == 10
        assert all(r.namespace == ("a",) and r.value["third"] == 0 for r in got)
        scores = [r.score for r in got]
        assert scores == sorted(scores, reverse=True)
        hits += len({f"k{i}" for i in exact} & {r.key for r in got})
        total += 10
    assert hits / total >= 0.8

    # Deletes and updates are seen at once.
    store.delete(("b",), "k0")
    assert store.search(("b",), query="v-0", limit=1)[0].key != "k0"
    store.put(("b",), "k2", {"text": "v-0", "third": 2})
    assert store.search(("b",), query="v-0", limit=1)[0].key == "k2"
    assert store.index_stats()["vectors"] == n - 1


def test_approximate_index_is_rebuilt_on_open(backend: str, make_store) -> None:
    if backend == "memory":
        pytest.skip("a memory store ends with its process")
    store = _approximate_store(make_store)
    store.batch([PutOp(("a",), f"k{i}", {"text": f"v-{i}"}) for i in range(120)])
    _wait_approximate(store)
    store.close()
    again = _approximate_store(make_store)
    assert again.index_stats()["vectors"] == 120
    # Exact until the graph is rebuilt, approximate after: the same answers.
    before = [r.key for r in again.search(("a",), query="v-7", limit=3)]
    _wait_approximate(again)
    assert [r.key for r in again.search(("a",), query="v-7", limit=3)] == before
    assert before[0] == "k7"


def test_flat_index_is_always_exact(make_store) -> None:
    store = _approximate_store(make_store, kind="flat")
    store.batch([PutOp(("a",), f"k{i}", {"text": f"v-{i}"}) for i in range(120)])
    time.sleep(0.3)
    assert store.index_stats() == {"vectors": 120, "approximate_ready": False}
    assert store.search(("a",), query="v-42", limit=1)[0].key == "k42"


def test_index_stats_without_index(store: RockpointStore) -> None:
    assert store.index_stats() is None


def test_bad_ann_index_config(fake_embeddings: CharEmbeddings) -> None:
    base = {"dims": 4, "embed": fake_embeddings}
    for ann, error in [
        ({"kind": "ivfflat"}, ValueError),
        ({"m": 0}, ValueError),
        ({"ef_search": "64"}, ValueError),
        ({"lists": 10}, ValueError),
        ("hnsw", TypeError),
    ]:
        with pytest.raises(error):
            RockpointStore.memory(index={**base, "ann_index_config": ann})
