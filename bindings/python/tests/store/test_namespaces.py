"""list_namespaces: prefix / suffix conditions and wildcards, max_depth,
limit / offset, labels with metacharacters or newlines, and the namespace
checks of reads. LangGraph's store tests
(libs/checkpoint/tests/test_store.py for InMemoryStore,
libs/checkpoint-sqlite/tests/test_store.py for SqliteStore) on
RockpointStore, on RocksDB and in memory."""

from __future__ import annotations

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    SearchOp,
)

from langgraph.store.rockpoint import RockpointStore


def test_list_namespaces_basic(store: RockpointStore) -> None:
    namespaces = [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
        ("admin", "users", "789"),
    ]
    for i, ns in enumerate(namespaces):
        store.put(ns, f"id_{i}", {"data": f"value_{i:02d}"})

    assert store.list_namespaces(prefix=("a", "b")) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(suffix=("f",)) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert store.list_namespaces(prefix=("a",), suffix=("f",)) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), limit=2) == [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
    ]
    assert store.list_namespaces(prefix=("a", "b"), offset=2) == [
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
    ]
    assert store.list_namespaces(prefix=("a", "*", "f")) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
    ]
    assert store.list_namespaces(suffix=("*", "f")) == [
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
    ]
    assert store.list_namespaces(prefix=("nonexistent",)) == []
    assert store.list_namespaces(prefix=("users", "123")) == [("users", "123")]


def test_list_namespaces_with_wildcards(store: RockpointStore) -> None:
    for i, ns in enumerate(
        [
            ("users", "123"),
            ("users", "456"),
            ("users", "789", "settings"),
            ("admin", "users", "789"),
            ("guests", "123"),
            ("guests", "456", "preferences"),
        ]
    ):
        store.put(ns, f"id_{i}", {"data": i})
    assert store.list_namespaces(prefix=("users", "*")) == [
        ("users", "123"),
        ("users", "456"),
        ("users", "789", "settings"),
    ]
    assert store.list_namespaces(suffix=("*", "preferences")) == [
        ("guests", "456", "preferences")
    ]
    assert store.list_namespaces(prefix=("*", "users"), suffix=("*", "settings")) == []
    store.put(("admin", "users", "settings", "789"), "foo", {"data": "some_val"})
    assert store.list_namespaces(prefix=("*", "users"), suffix=("settings", "*")) == [
        ("admin", "users", "settings", "789")
    ]


def test_list_namespaces_pagination(store: RockpointStore) -> None:
    for i in range(20):
        store.put(("namespace", f"sub_{i:02d}"), f"id_{i:02d}", {"data": i})
    for offset in (0, 5, 15):
        assert store.list_namespaces(prefix=("namespace",), limit=5, offset=offset) == [
            ("namespace", f"sub_{i:02d}") for i in range(offset, offset + 5)
        ]
    assert store.list_namespaces(prefix=("namespace",), offset=20) == []


def test_list_namespaces_max_depth(store: RockpointStore) -> None:
    for i, ns in enumerate(
        [
            ("a", "b", "c", "d"),
            ("a", "b", "c", "e"),
            ("a", "b", "f"),
            ("a", "g"),
            ("h", "i", "j", "k"),
        ]
    ):
        store.put(ns, f"id_{i}", {"data": i})
    assert store.list_namespaces(max_depth=2) == [("a", "b"), ("a", "g"), ("h", "i")]
    assert store.list_namespaces(max_depth=1) == [("a",), ("h",)]
    # Deduplicated before limit and offset.
    assert store.list_namespaces(max_depth=2, limit=1, offset=1) == [("a", "g")]


def test_list_namespaces_no_conditions_and_empty(store: RockpointStore) -> None:
    assert store.list_namespaces() == []
    namespaces = [("a", "b"), ("c", "d"), ("e", "f", "g")]
    for i, ns in enumerate(namespaces):
        store.put(ns, f"id_{i}", {"data": i})
    assert store.list_namespaces() == namespaces
    # A namespace is listed while it holds an item.
    for i, ns in enumerate(namespaces):
        store.delete(ns, f"id_{i}")
    assert store.list_namespaces() == []


def test_list_namespaces_counts_items(store: RockpointStore) -> None:
    store.put(("ns",), "a", {"v": 1})
    store.put(("ns",), "b", {"v": 1})
    store.put(("ns",), "a", {"v": 2})  # an update adds no item
    store.delete(("ns",), "a")
    assert store.list_namespaces() == [("ns",)]
    store.delete(("ns",), "b")
    assert store.list_namespaces() == []


def test_list_namespaces_filters(store: RockpointStore) -> None:
    test_namespaces = [
        ("test", "documents", "public"),
        ("test", "documents", "private"),
        ("test", "images", "public"),
        ("test", "images", "private"),
        ("prod", "documents", "public"),
        ("prod", "documents", "private"),
    ]
    for namespace in test_namespaces:
        store.put(namespace, "dummy", {"content": "dummy"})
    assert sorted(store.list_namespaces()) == sorted(test_namespaces)
    test_prefix = store.list_namespaces(prefix=["test"])
    assert len(test_prefix) == 4 and all(ns[0] == "test" for ns in test_prefix)
    public = store.list_namespaces(suffix=["public"])
    assert len(public) == 3 and all(ns[-1] == "public" for ns in public)
    assert all(len(ns) <= 2 for ns in store.list_namespaces(max_depth=2))
    assert len(store.list_namespaces(limit=3)) == 3


def test_list_namespaces_segment_boundary(store: RockpointStore) -> None:
    for namespace in [
        ("foo",),
        ("foo", "child"),
        ("foobar",),
        ("foobar", "baz"),
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
        ("uid", "a", "b", "alice"),
    ]:
        store.put(namespace, "k", {"v": 1})
    assert set(store.list_namespaces(prefix=["foo"], limit=100)) == {
        ("foo",),
        ("foo", "child"),
    }
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == {
        ("uid", "users", "alice"),
        ("uid", "a", "b", "alice"),
    }
    assert set(store.list_namespaces(prefix=["uid", "*", "alice"], limit=100)) == {
        ("uid", "users", "alice")
    }
    assert set(store.list_namespaces(prefix=["uid"], limit=100)) == {
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
        ("uid", "a", "b", "alice"),
    }


def test_namespace_labels_with_trailing_newline(store: RockpointStore) -> None:
    store.put(("users", "alice"), "k", {"v": 1})
    store.put(("users", "alice\n"), "k", {"v": 2})
    assert set(store.list_namespaces(suffix=["alice"], limit=100)) == {
        ("users", "alice")
    }
    assert set(store.list_namespaces(prefix=["users", "alice"], limit=100)) == {
        ("users", "alice")
    }
    assert store.get(("users", "alice\n"), "k").value == {"v": 2}


def test_list_namespaces_metacharacter_labels(store: RockpointStore) -> None:
    pairs = [
        ("star*", "starX"),
        ("q?m", "qXm"),
        ("br[ack]et", "brXacXket"),
        ("user_1", "userX1"),
        ("a%b", "axxb"),
        ("plus+", "plusX"),
        ("back\\slash", "backXslash"),
        ("dollar$", "dollarX"),
    ]
    for label, decoy in pairs:
        store.put((label,), "k", {"v": 1})
        store.put((decoy,), "k", {"v": 1})
        store.put((label, "child"), "k", {"v": 1})
    for label, decoy in pairs:
        found = set(store.list_namespaces(prefix=[label], limit=100))
        assert found == {(label,), (label, "child")}
        assert (decoy,) not in found
        assert set(store.list_namespaces(prefix=[label, "child"], limit=100)) == {
            (label, "child")
        }
        assert set(store.list_namespaces(suffix=[label], limit=100)) == {(label,)}
        assert (
            set(store.list_namespaces(prefix=["*", "child"], suffix=[label], limit=100))
            == set()
        )


def test_namespace_validation_on_reads(store: RockpointStore) -> None:
    # BaseStore checks labels before the batch; ops handed to batch() are
    # checked by the store (validate_op_namespace), with the same error.
    for bad in [("a.b",), ("",), ("a", 1)]:
        with pytest.raises(InvalidNamespaceError):
            store.get(bad, "k")  # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.search(bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.list_namespaces(prefix=bad)  # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.batch([GetOp(bad, "k")])  # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.batch([SearchOp(bad)])  # type: ignore[arg-type]
        with pytest.raises(InvalidNamespaceError):
            store.batch(
                [ListNamespacesOp(match_conditions=(MatchCondition("suffix", bad),))]  # type: ignore[arg-type]
            )
