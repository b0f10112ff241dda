"""Batches: batch() of GetOp / PutOp / SearchOp / ListNamespacesOp answers
one result per op in op order, reads see the store as it was before the
batch's puts, the last put to a key wins. LangGraph's store tests
(libs/checkpoint/tests/test_store.py for InMemoryStore,
libs/checkpoint-sqlite/tests/test_store.py for SqliteStore) on
RockpointStore, on RocksDB and in memory."""

from __future__ import annotations

from langgraph.store.base import (
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

from langgraph.store.rockpoint import RockpointStore


def test_batch_results_follow_op_order(store: RockpointStore) -> None:
    store.put(("test", "foo"), "key1", {"data": "value1"})
    store.put(("test", "bar"), "key2", {"data": "value2"})

    results = store.batch(
        [
            GetOp(("test", "foo"), "key1"),
            PutOp(("test", "bar"), "key2", {"data": "value2"}),
            SearchOp(("test",), filter={"data": "value1"}, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            GetOp(("test",), "key3"),
        ]
    )
    assert len(results) == 5
    first = results[0]
    assert isinstance(first, Item)
    assert (first.namespace, first.key, first.value) == (
        ("test", "foo"),
        "key1",
        {"data": "value1"},
    )
    assert results[1] is None
    assert [(i.key, i.value) for i in results[2]] == [("key1", {"data": "value1"})]
    assert ("test", "foo") in results[3] and ("test", "bar") in results[3]
    assert results[4] is None

    results = store.batch(
        [
            SearchOp(("test",), filter=None, limit=5, offset=0),
            GetOp(("test", "bar"), "key2"),
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=5, offset=0),
            PutOp(("test",), "key3", {"data": "value3"}),
            GetOp(("test", "foo"), "key1"),
        ]
    )
    assert len(results) == 5
    assert {i.key for i in results[0]} == {"key1", "key2"}
    assert results[1].value == {"data": "value2"}
    assert results[1].namespace == ("test", "bar")
    assert len(results[2]) == 2
    assert results[3] is None
    assert results[4].value == {"data": "value1"}
    assert store.get(("test",), "key3").value == {"data": "value3"}


def test_reads_in_a_batch_see_the_store_before_its_puts(store: RockpointStore) -> None:
    # rockpoint's Batch contract (store.h): every read sees the store as it
    # was before the batch, then the puts apply atomically. InMemoryStore
    # and SqliteStore behave the same way for get-then-put batches.
    results = store.batch(
        [PutOp(("a",), "k", {"v": 1}), GetOp(("a",), "k"), SearchOp(("a",))]
    )
    assert results == [None, None, []]
    assert store.get(("a",), "k").value == {"v": 1}


def test_batch_get_ops(store: RockpointStore) -> None:
    store.put(("test",), "key1", {"data": "value1"})
    store.put(("test",), "key2", {"data": "value2"})
    results = store.batch(
        [GetOp(("test",), "key1"), GetOp(("test",), "key2"), GetOp(("test",), "key3")]
    )
    assert [r.key if r else None for r in results] == ["key1", "key2", None]


def test_batch_put_ops(store: RockpointStore) -> None:
    results = store.batch(
        [
            PutOp(("test",), "key1", {"data": "value1"}),
            PutOp(("test",), "key2", {"data": "value2"}),
            PutOp(("test",), "key3", None),
        ]
    )
    assert results == [None, None, None]
    assert store.get(("test",), "key1").value == {"data": "value1"}
    assert store.get(("test",), "key2").value == {"data": "value2"}
    assert store.get(("test",), "key3") is None


def test_last_put_to_a_key_wins(store: RockpointStore) -> None:
    store.batch(
        [
            PutOp(("test",), "k", {"v": 1}),
            PutOp(("test",), "k", {"v": 2}),
            PutOp(("test",), "gone", {"v": 1}),
            PutOp(("test",), "gone", None),
        ]
    )
    assert store.get(("test",), "k").value == {"v": 2}
    assert store.get(("test",), "gone") is None


def test_batch_search_ops(store: RockpointStore) -> None:
    for namespace, key, value in [
        (("test", "foo"), "key1", {"data": "value1", "tag": "a"}),
        (("test", "bar"), "key2", {"data": "value2", "tag": "a"}),
        (("test", "baz"), "key3", {"data": "value3", "tag": "b"}),
    ]:
        store.put(namespace, key, value)
    results = store.batch(
        [
            SearchOp(("test",), filter={"tag": "a"}, limit=10, offset=0),
            SearchOp(("test",), filter=None, limit=2, offset=0),
            SearchOp(("test", "foo"), filter=None, limit=10, offset=0),
        ]
    )
    assert sorted(i.key for i in results[0]) == ["key1", "key2"]
    assert len(results[1]) == 2
    assert [i.namespace for i in results[2]] == [("test", "foo")]


def test_batch_list_namespaces_ops(store: RockpointStore) -> None:
    data = [
        (("test", "documents", "public"), "doc1"),
        (("test", "documents", "private"), "doc2"),
        (("test", "images", "public"), "img1"),
        (("prod", "documents", "public"), "doc3"),
    ]
    for namespace, key in data:
        store.put(namespace, key, {"content": key})
    results = store.batch(
        [
            ListNamespacesOp(match_conditions=None, max_depth=None, limit=10, offset=0),
            ListNamespacesOp(match_conditions=None, max_depth=2, limit=10, offset=0),
            ListNamespacesOp(
                match_conditions=(MatchCondition("suffix", ("public",)),),
                max_depth=None,
                limit=10,
                offset=0,
            ),
        ]
    )
    assert sorted(results[0]) == sorted(ns for ns, _ in data)
    assert results[1] == [
        ("prod", "documents"),
        ("test", "documents"),
        ("test", "images"),
    ]
    assert sorted(results[2]) == [
        ("prod", "documents", "public"),
        ("test", "documents", "public"),
        ("test", "images", "public"),
    ]
