"""TTL: LangGraph's SqliteStore TTL tests (test_ttl.py) on RockpointStore.

One difference throughout: rockpoint never returns an expired item, swept or
not (LangGraph's TTLConfig omit_expired=True, always); SqliteStore returns
expired items until a sweep deletes them. So these tests check "gone" both
before and after sweep_ttl(), and sweep_ttl() counts what it deleted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import time
from collections.abc import Callable

import pytest

from langgraph.store.rockpoint import RockpointStore

StoreFactory = Callable[..., RockpointStore]

SECOND = 1 / 60  # in minutes


# TTL is decided in the engine's front, above both backends (the C++
# contract suite checks it on memory and RocksDB with an injected clock).
# These tests wait on the real clock, so they run once, on RocksDB.
@pytest.fixture
def backend() -> str:
    return "rocksdb"


def test_ttl_basic(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 1 * SECOND})
    store.put(("test",), "item1", {"value": "test"})
    item = store.get(("test",), "item1")
    assert item is not None and item.value["value"] == "test"
    time.sleep(1.5)
    assert store.get(("test",), "item1") is None  # expired: never returned
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item1") is None
    assert store.sweep_ttl() == 0


def test_ttl_refresh_on_read(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 2 * SECOND, "refresh_on_read": True})
    store.put(("test",), "item1", {"value": "test"})
    time.sleep(1.0)
    assert store.sweep_ttl() == 0
    assert store.get(("test",), "item1", refresh_ttl=True) is not None
    time.sleep(1.2)  # 2.2 s after the put, 1.2 s after the refresh
    assert store.sweep_ttl() == 0
    assert store.get(("test",), "item1") is not None  # refreshes again
    time.sleep(2.5)
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item1") is None


def test_read_without_refresh(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 2 * SECOND, "refresh_on_read": True})
    store.put(("test",), "item1", {"value": "test"})
    time.sleep(1.0)
    assert store.get(("test",), "item1", refresh_ttl=False) is not None
    assert store.search(("test",), refresh_ttl=False)
    time.sleep(1.2)
    assert store.get(("test",), "item1", refresh_ttl=False) is None


def test_refresh_on_read_off_by_default_in_config(make_store: StoreFactory) -> None:
    # ttl={"refresh_on_read": False}: reads never refresh (refresh_ttl=None
    # follows the config), as SqliteStore.
    store = make_store(ttl={"default_ttl": 2 * SECOND, "refresh_on_read": False})
    store.put(("test",), "item1", {"value": "test"})
    time.sleep(1.0)
    assert store.get(("test",), "item1") is not None
    time.sleep(1.2)
    assert store.get(("test",), "item1") is None


def test_ttl_sweeper(make_store: StoreFactory) -> None:
    store = make_store(
        ttl={"default_ttl": 1 * SECOND, "sweep_interval_minutes": 0.25 * SECOND}
    )
    future = store.start_ttl_sweeper()
    # A second start returns a future of the sweeper already running.
    assert not store.start_ttl_sweeper().done()
    store.put(("test",), "item1", {"value": "test"})
    store.put(("test",), "keep", {"value": "test"}, ttl=None)
    assert store.get(("test",), "item1") is not None
    time.sleep(1.8)
    assert store.get(("test",), "item1") is None
    # The sweeper deleted it: nothing is left to sweep.
    assert store.sweep_ttl() == 0
    assert store.get(("test",), "keep") is not None
    assert store.stop_ttl_sweeper(timeout=5)
    assert future.result(timeout=5) is None
    assert store.stop_ttl_sweeper()  # not running: True


def test_sweeper_without_ttl_config(store: RockpointStore) -> None:
    future = store.start_ttl_sweeper()
    assert future.done() and future.result() is None
    assert store.stop_ttl_sweeper()


def test_cancelling_the_sweeper_future_stops_it(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 1, "sweep_interval_minutes": 1})
    future = store.start_ttl_sweeper()
    assert isinstance(future, concurrent.futures.Future)
    assert future.cancel()
    assert store.stop_ttl_sweeper(timeout=5)


def test_close_stops_the_sweeper(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 1, "sweep_interval_minutes": 1})
    store.start_ttl_sweeper()
    thread = store._ttl_sweeper_thread
    assert thread is not None and thread.is_alive()
    store.close()
    assert not thread.is_alive()


def test_ttl_custom_value(make_store: StoreFactory) -> None:
    store = make_store()
    store.put(("test",), "item1", {"value": "short"}, ttl=1 * SECOND)
    store.put(("test",), "item2", {"value": "long"}, ttl=3 * SECOND)
    store.put(("test",), "item3", {"value": "forever"})  # no default: never
    time.sleep(1.5)
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item1") is None
    assert store.get(("test",), "item2") is not None
    time.sleep(2.0)  # item2 was refreshed by the get at ~1.5 s
    assert store.get(("test",), "item2", refresh_ttl=False) is not None
    time.sleep(1.6)
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item2") is None
    assert store.get(("test",), "item3") is not None


def test_ttl_override_default(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 5 * SECOND})
    store.put(("test",), "item1", {"value": "override"}, ttl=1 * SECOND)
    store.put(("test",), "item2", {"value": "default"})
    store.put(("test",), "item3", {"value": "permanent"}, ttl=None)
    time.sleep(1.5)
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item1") is None
    assert store.get(("test",), "item2", refresh_ttl=False) is not None
    assert store.get(("test",), "item3") is not None
    time.sleep(4.0)
    assert store.sweep_ttl() == 1
    assert store.get(("test",), "item2") is None
    assert store.get(("test",), "item3") is not None


def test_search_with_ttl(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 1 * SECOND})
    store.put(("test",), "item1", {"value": "apple"})
    store.put(("test",), "item2", {"value": "banana"})
    assert [r.key for r in store.search(("test",), filter={"value": "apple"})] == [
        "item1"
    ]
    time.sleep(1.5)
    assert store.search(("test",), filter={"value": "apple"}) == []
    assert store.search(("test",)) == []
    assert store.sweep_ttl() == 2


def test_search_refreshes_what_it_returns(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 3 * SECOND, "refresh_on_read": True})
    namespace = ("docs", "user1")
    store.put(namespace, "item1", {"text": "content1", "id": 1})
    store.put(namespace, "item2", {"text": "content2", "id": 2})
    time.sleep(1.5)
    found = store.search(namespace, filter={"id": 1}, refresh_ttl=True)
    assert [r.key for r in found] == ["item1"]
    time.sleep(1.8)  # 3.3 s: item2 expired, item1 refreshed at 1.5 s
    assert store.sweep_ttl() == 1
    assert store.get(namespace, "item1", refresh_ttl=False) is not None
    assert store.get(namespace, "item2", refresh_ttl=False) is None
    time.sleep(1.5)  # 4.8 s: item1 expired at 4.5 s
    assert store.get(namespace, "item1", refresh_ttl=False) is None


def test_put_restarts_the_ttl(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 2 * SECOND, "refresh_on_read": False})
    store.put(("t",), "k", {"v": 1})
    time.sleep(1.2)
    store.put(("t",), "k", {"v": 2})
    time.sleep(1.2)  # 2.4 s after the first put, 1.2 s after the second
    assert store.get(("t",), "k").value == {"v": 2}
    # ttl=None on a later put makes it permanent.
    store.put(("t",), "k", {"v": 3}, ttl=None)
    time.sleep(2.2)
    assert store.get(("t",), "k").value == {"v": 3}


def test_ttl_survives_reopen(backend: str, make_store: StoreFactory) -> None:
    if backend == "memory":
        pytest.skip("a memory store ends with its process")
    store = make_store()
    store.put(("t",), "short", {"v": 1}, ttl=1 * SECOND)
    store.put(("t",), "long", {"v": 1}, ttl=60)
    store.close()
    time.sleep(1.3)
    again = make_store()
    assert again.get(("t",), "short") is None
    assert again.get(("t",), "long") is not None
    assert again.sweep_ttl() == 1


def test_bad_ttl_values(make_store: StoreFactory, store: RockpointStore) -> None:
    for ttl in [0, -1, "soon"]:
        with pytest.raises((ValueError, TypeError)):
            make_store(ttl={"default_ttl": ttl}, name="bad")
    for ttl in [0, -5, float("nan"), float("inf")]:
        with pytest.raises(ValueError):
            store.put(("t",), "k", {"v": 1}, ttl=ttl)
    with pytest.raises(TypeError):
        store.put(("t",), "k", {"v": 1}, ttl="1")  # type: ignore[arg-type]
    assert store.get(("t",), "k") is None


async def test_async_ttl_basic(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 1 * SECOND})
    await store.aput(("test",), "item1", {"value": "test"})
    item = await store.aget(("test",), "item1")
    assert item is not None and item.value["value"] == "test"
    await asyncio.sleep(1.5)
    assert await store.aget(("test",), "item1") is None
    assert await store.asweep_ttl() == 1


async def test_async_ttl_refresh(make_store: StoreFactory) -> None:
    store = make_store(ttl={"default_ttl": 2 * SECOND, "refresh_on_read": True})
    await store.aput(("test",), "item1", {"value": "test"})
    await asyncio.sleep(1.0)
    assert await store.aget(("test",), "item1", refresh_ttl=True) is not None
    await asyncio.sleep(1.2)
    assert await store.aget(("test",), "item1") is not None
    await asyncio.sleep(2.5)
    assert await store.aget(("test",), "item1") is None


async def test_async_ttl_sweeper(make_store: StoreFactory) -> None:
    store = make_store(
        ttl={"default_ttl": 1 * SECOND, "sweep_interval_minutes": 0.25 * SECOND}
    )
    store.start_ttl_sweeper()
    await store.aput(("test",), "item1", {"value": "test"})
    assert await store.aget(("test",), "item1") is not None
    await asyncio.sleep(1.8)
    assert await store.aget(("test",), "item1") is None
    assert await store.asweep_ttl() == 0
    assert store.stop_ttl_sweeper(timeout=5)
