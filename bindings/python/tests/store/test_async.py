"""The async API: LangGraph's AsyncSqliteStore tests (test_async_store.py) on
RockpointStore, and that abatch keeps the event loop free."""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from langgraph.store.base import GetOp, Item, ListNamespacesOp, PutOp, SearchOp

from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings

VectorStore = Callable[..., RockpointStore]


async def test_large_batches_async(store: RockpointStore) -> None:
    n, m = 50, 10
    coros: list[Any] = []
    for j in range(m):
        ns = ("test", "foo", "bar", "baz", str(j % 2))
        for i in range(n):
            coros.append(store.aput(ns, f"key{i}", value={"foo": "bar" + str(i)}))
            coros.append(asyncio.create_task(store.aget(ns, f"key{i}")))
            coros.append(
                asyncio.create_task(
                    store.alist_namespaces(prefix=None, max_depth=j + 1)
                )
            )
            coros.append(asyncio.create_task(store.asearch(("test",))))
            coros.append(store.aput(ns, f"key{i}", value={"foo": "bar" + str(i)}))
            coros.append(store.adelete(ns, f"key{i}"))
    results = await asyncio.gather(*coros)
    assert len(results) == n * m * 6


async def test_abatch_order(store: RockpointStore) -> None:
    await store.aput(("test", "foo"), "key1", {"data": "value1"})
    await store.aput(("test", "bar"), "key2", {"data": "value2"})
    results = await store.abatch(
        [
            GetOp(("test", "foo"), "key1"),
            PutOp(("test", "bar"), "key2", {"data": "value2"}),
            SearchOp(("test",), filter={"data": "value1"}, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            GetOp(("test",), "key3"),
        ]
    )
    assert isinstance(results[0], Item) and results[0].value == {"data": "value1"}
    assert results[1] is None
    assert [i.key for i in results[2]] == ["key1"]
    assert sorted(results[3]) == [("test", "bar"), ("test", "foo")]
    assert results[4] is None

    results = await store.abatch(
        [
            SearchOp(("test",), filter=None, limit=5, offset=0),
            GetOp(("test", "bar"), "key2"),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
            PutOp(("test",), "key3", {"data": "value3"}),
            GetOp(("test", "foo"), "key1"),
        ]
    )
    assert len(results[0]) == 2
    assert results[1].value == {"data": "value2"}
    assert len(results[2]) == 2
    assert results[3] is None
    assert results[4].value == {"data": "value1"}
    assert (await store.aget(("test",), "key3")).value == {"data": "value3"}


async def test_batch_get_put_search_list(store: RockpointStore) -> None:
    results = await store.abatch(
        [
            PutOp(("test",), "key1", {"data": "value1"}),
            PutOp(("test",), "key2", {"data": "value2"}),
            PutOp(("test",), "key3", None),
        ]
    )
    assert results == [None, None, None]
    assert len(await store.asearch(("test",), limit=10)) == 2
    results = await store.abatch(
        [GetOp(("test",), "key1"), GetOp(("test",), "key2"), GetOp(("test",), "key3")]
    )
    assert [r.key if r else None for r in results] == ["key1", "key2", None]
    results = await store.abatch(
        [
            SearchOp(("test",), filter={"data": "value1"}, limit=10, offset=0),
            SearchOp(("test",), filter=None, limit=5, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
        ]
    )
    assert [i.key for i in results[0]] == ["key1"]
    assert len(results[1]) == 2
    assert results[2] == [("test",)]


async def test_vector_insert_and_update(vector_store: VectorStore) -> None:
    store = vector_store()
    for key, value in [
        ("doc1", {"text": "short text"}),
        ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}),
        ("doc4", {"description": "text in description field"}),
    ]:
        await store.aput(("test",), key, value)
    keys = [r.key for r in await store.asearch(("test",), query="long text")]
    assert "doc2" in keys and "doc3" in keys

    await store.aput(("test",), "doc1", {"text": "zany zebra Xerxes"})
    initial = await store.asearch(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    await store.aput(("test",), "doc1", {"text": "new text about dogs"})
    after = await store.asearch(("test",), query="Zany Xerxes")
    assert next(r.score for r in after if r.key == "doc1") < initial[0].score
    await store.aput(("test",), "doc5", {"text": "new text about dogs"}, index=False)
    top = await store.asearch(("test",), query="new text about dogs", limit=3)
    assert not any(r.key == "doc5" for r in top)


async def test_vector_search_with_filters_and_pages(vector_store: VectorStore) -> None:
    store = vector_store()
    for key, value in [
        ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
        ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
        ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
        ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
    ]:
        await store.aput(("test",), key, value)
    results = await store.asearch(("test",), query="apple", filter={"color": "red"})
    assert [r.key for r in results] == ["doc1", "doc2"]
    results = await store.asearch(
        ("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}}
    )
    assert len(results) == 3 and results[0].key == "doc4"
    page1 = await store.asearch(("test",), query="car", limit=2)
    page2 = await store.asearch(("test",), query="car", limit=2, offset=2)
    assert {r.key for r in page1}.isdisjoint({r.key for r in page2})
    assert len(await store.asearch(("test",), query="car", limit=10)) == 4
    for query in ["", None, "test " * 100, "test!@#$%^&*()"]:
        assert len(await store.asearch(("test",), query=query)) == 4


async def test_embed_with_path(vector_store: VectorStore) -> None:
    store = vector_store(["key0", "key1", "key3"])
    await store.aput(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    await store.aput(
        ("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"}
    )
    results = await store.asearch(("test",), query="xxx")
    assert results[0].score > 0.9 and results[1].score > 0.9
    results = await store.asearch(("test",), query="uuu")
    assert results[0].key == "doc2" and results[0].score > results[1].score
    results = await store.asearch(("test",), query="www")
    assert all(r.score < 0.9 for r in results)


async def test_basic_store_ops(vector_store: VectorStore) -> None:
    store = vector_store(["key0", "key1", "key3"])
    uid = uuid.uuid4().hex
    namespace = (uid, "test", "documents")
    assert await store.asearch((uid,)) == []
    await store.aput(namespace, "doc1", {"title": "Test Document"})
    item = await store.aget(namespace, "doc1")
    assert item is not None and item.namespace == namespace
    await asyncio.sleep(0.01)
    await store.aput(namespace, "doc1", {"title": "Updated"})
    updated = await store.aget(namespace, "doc1")
    assert updated.value == {"title": "Updated"}
    assert updated.updated_at > item.updated_at
    assert updated.created_at == item.created_at
    assert await store.aget((uid, "test", "other_documents"), "doc1") is None
    await store.aput(namespace, "doc2", {"title": "Another"})
    assert {i.key for i in await store.asearch((uid, "test"), limit=10)} == {
        "doc1",
        "doc2",
    }
    assert (uid, "test", "documents") in await store.alist_namespaces(
        prefix=(uid, "test")
    )
    await store.adelete(namespace, "doc1")
    await store.adelete(namespace, "doc2")
    assert await store.aget(namespace, "doc1") is None
    assert await store.asearch((uid, "test"), limit=10) == []


async def test_list_namespaces(store: RockpointStore) -> None:
    p = str(uuid.uuid4())
    test_namespaces = [
        (p, "test", "documents", "public", p),
        (p, "test", "documents", "private", p),
        (p, "test", "images", "public", p),
        (p, "prod", "documents", "some", "nesting", "public", p),
    ]
    for namespace in test_namespaces:
        await store.aput(namespace, "dummy", {"content": "dummy"})
    assert len(await store.alist_namespaces(prefix=(p, "test"))) == 3
    assert len(await store.alist_namespaces(suffix=("public", p))) == 3
    assert await store.alist_namespaces(suffix=("some", "*", "public", p)) == [
        test_namespaces[3]
    ]
    assert len(await store.alist_namespaces(prefix=(p,), limit=2)) == 2
    assert set(await store.alist_namespaces(prefix=(p,))) == set(test_namespaces)


async def test_namespace_segment_boundary(store: RockpointStore) -> None:
    for namespace in [
        ("foo",),
        ("foo", "child"),
        ("foobar",),
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
        ("user_1",),
        ("userX1",),
    ]:
        await store.aput(namespace, "k", {"v": 1})
    found = {i.namespace for i in await store.asearch(("foo",), limit=100)}
    assert found == {("foo",), ("foo", "child")}
    found = {i.namespace for i in await store.asearch(("user_1",), limit=100)}
    assert found == {("user_1",)}
    assert set(await store.alist_namespaces(suffix=["alice"], limit=100)) == {
        ("uid", "users", "alice")
    }


async def test_concurrent_vector_searches(vector_store: VectorStore) -> None:
    # LangGraph's version also gathers a put, a delete and a put of each key
    # at once, relying on AsyncBatchedBaseStore folding them into one batch
    # (the last wins). RockpointStore runs each call as its own batch, so
    # concurrent writes to one key land in any order: only the puts are kept.
    store = vector_store()
    colors = ["red", "blue", "green", "yellow", "purple"]
    things = ["apple", "car", "house", "book", "phone"]
    scores = [3.0, 3.5, 4.0, 4.5, 5.0]
    docs = [
        (
            f"doc{i}",
            {
                "text": f"{colors[i % 5]} {things[i % 5]}",
                "color": colors[i % 5],
                "score": scores[i % 5],
                "index": i,
            },
        )
        for i in range(50)
    ]
    await asyncio.gather(*[store.aput(("test",), k, v) for k, v in docs])
    queries: list[tuple[str, dict[str, Any]]] = [
        ("apple", {"color": "red"}),
        ("car", {"color": "blue"}),
        ("phone", {"score": {"$gt": 4.99}}),
        ("book", {"score": {"$lte": 3.5}}),
        ("house", {"index": {"$gt": 25}}),
        ("phone", {"index": {"$lte": 10}}),
    ]
    all_results = await asyncio.gather(
        *[store.asearch(("test",), query=q, filter=f) for q, f in queries]
    )
    for results, (query, filter_) in zip(all_results, queries, strict=True):
        assert results, (query, filter_)
        for r in results:
            if "color" in filter_:
                assert r.value["color"] == filter_["color"]
            if "score" in filter_:
                op, bound = next(iter(filter_["score"].items()))
                assert (
                    r.value["score"] > bound
                    if op == "$gt"
                    else r.value["score"] <= bound
                )
            if "index" in filter_:
                op, bound = next(iter(filter_["index"].items()))
                assert (
                    r.value["index"] > bound
                    if op == "$gt"
                    else r.value["index"] <= bound
                )


class _SlowNative:
    """Wraps the native store: batch() records its thread and takes 0.3 s."""

    def __init__(self, native: Any) -> None:
        self._native = native
        self.threads: list[threading.Thread] = []

    def batch(self, ops: Any, serde: Any) -> Any:
        self.threads.append(threading.current_thread())
        time.sleep(0.3)
        return self._native.batch(ops, serde)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._native, name)


async def test_abatch_runs_off_the_event_loop(store: RockpointStore) -> None:
    slow = _SlowNative(store._native)
    store._native = slow  # type: ignore[assignment]
    ticks = 0
    stop = asyncio.Event()

    async def heartbeat() -> None:
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            await asyncio.sleep(0.01)

    beat = asyncio.create_task(heartbeat())
    await store.aput(("loop",), "k", {"v": 1})
    item = await store.aget(("loop",), "k")
    stop.set()
    await beat
    assert item is not None and item.value == {"v": 1}
    assert slow.threads and all(t is not threading.main_thread() for t in slow.threads)
    assert ticks >= 20  # the loop kept running through 0.6 s of engine calls


async def test_async_embeddings_are_awaited(
    make_store: Callable[..., RockpointStore],
) -> None:
    fake = CharEmbeddings(dims=16)
    calls: list[str] = []

    async def aembed(texts: list[str]) -> list[list[float]]:
        calls.append("async")
        await asyncio.sleep(0)
        return [fake.vector(t) for t in texts]

    store = make_store(index={"dims": 16, "embed": aembed, "fields": ["text"]})
    await store.aput(("e",), "a", {"text": "alpha"})
    await store.aput(("e",), "b", {"text": "beta"})
    results = await store.asearch(("e",), query="alpha")
    assert results[0].key == "a"
    assert calls  # the async function embedded the documents and the query


async def test_async_context_manager(backend: str, tmp_path) -> None:
    if backend == "memory":
        store = RockpointStore.memory()
    else:
        store = RockpointStore.open(tmp_path / "s")
    async with store as s:
        await s.aput(("a",), "k", {"v": 1})
        assert (await s.aget(("a",), "k")).value == {"v": 1}
    assert store.closed
    if backend == "rocksdb":
        async with RockpointStore.open(tmp_path / "s") as again:
            assert (await again.aget(("a",), "k")).value == {"v": 1}


async def test_asweep_ttl(make_store: Callable[..., RockpointStore]) -> None:
    store = make_store(ttl={"default_ttl": 0.5 / 60})
    await store.aput(("t",), "k", {"v": 1})
    assert await store.asweep_ttl() == 0
    await asyncio.sleep(0.8)
    assert await store.aget(("t",), "k") is None
    assert await store.asweep_ttl() == 1


@pytest.mark.parametrize("method", ["aget", "asearch"])
async def test_closed_store_raises(store: RockpointStore, method: str) -> None:
    from langgraph.checkpoint.rockpoint import ClosedError

    store.close()
    with pytest.raises(ClosedError):
        if method == "aget":
            await store.aget(("a",), "k")
        else:
            await store.asearch(("a",))


async def test_sync_methods_inside_a_running_loop(store: RockpointStore) -> None:
    # AsyncSqliteStore refuses its sync methods on the event loop's thread
    # (InvalidStateError); RockpointStore is one class for both APIs, like
    # InMemoryStore, and its sync methods work anywhere (they block the
    # loop for the engine call, as any sync call would).
    store.put(("sync",), "k", {"v": 1})
    assert store.get(("sync",), "k").value == {"v": 1}
    assert (await store.aget(("sync",), "k")).value == {"v": 1}
    assert store.list_namespaces() == [("sync",)]
