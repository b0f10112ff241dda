"""Items: put / get / delete, timestamps, values that round-trip with their
types, exact keys, and the namespaces a put refuses (empty, an empty label,
a dot or NUL in a label, the root "langgraph"). LangGraph's store tests
(libs/checkpoint/tests/test_store.py for InMemoryStore,
libs/checkpoint-sqlite/tests/test_store.py for SqliteStore) on
RockpointStore, on RocksDB and in memory."""

from __future__ import annotations

import time
from datetime import timezone

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    PutOp,
)

from langgraph.store.rockpoint import RockpointStore


def test_basic_store_ops(store: RockpointStore) -> None:
    namespace = ("test", "documents")
    value = {"title": "Test Document", "content": "Hello, World!"}
    store.put(namespace, "doc1", value)
    item = store.get(namespace, "doc1")
    assert item is not None
    assert (item.namespace, item.key, item.value) == (namespace, "doc1", value)
    assert item.created_at.tzinfo is not None
    assert item.created_at.utcoffset() == timezone.utc.utcoffset(None)
    assert item.created_at == item.updated_at

    time.sleep(0.01)
    updated = {"title": "Updated Document", "content": "Hello, Updated!"}
    store.put(namespace, "doc1", updated)
    again = store.get(namespace, "doc1")
    assert again.value == updated
    # created_at is kept by an update; updated_at moves on.
    assert again.created_at == item.created_at
    assert again.updated_at > item.updated_at

    assert store.get(("test", "other_documents"), "doc1") is None
    store.delete(namespace, "doc1")
    assert store.get(namespace, "doc1") is None
    store.delete(namespace, "doc1")  # deleting nothing is fine


def test_values_round_trip_with_their_types(store: RockpointStore) -> None:
    import datetime
    import uuid

    when = datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.timezone.utc)
    ident = uuid.UUID("12345678-1234-5678-1234-567812345678")
    value = {
        "none": None,
        "yes": True,
        "no": False,
        "int": -(2**63),
        "float": 1.0,
        "nan_free": 2.5,
        "text": "héllo \u2603",
        "bytes": b"\x00\xff",
        "list": [1, "two", [3.0, {"four": 4}]],
        "nested": {"a": {"b": {"c": []}}},
        "when": when,
        "uuid": ident,
        "int_keys": {1: "one"},
        "big": 2**64 - 1,
    }
    store.put(("types",), "k", value)
    back = store.get(("types",), "k").value
    assert back == value
    assert type(back["yes"]) is bool and type(back["float"]) is float
    assert type(back["int"]) is int
    # Tuples read back as lists, as with the JSON stores.
    store.put(("types",), "t", {"pair": (1, 2)})
    assert store.get(("types",), "t").value == {"pair": [1, 2]}


def test_get_and_delete_outside_storable_namespaces(store: RockpointStore) -> None:
    # No item lives in () or under "langgraph": reads find nothing and
    # deletes do nothing, as in InMemoryStore.
    assert store.get(("langgraph", "foo"), "bar") is None
    assert store.get((), "bar") is None
    store.delete(("langgraph", "foo"), "bar")
    assert store.batch([GetOp((), "x"), PutOp(("langgraph",), "x", None)]) == [
        None,
        None,
    ]


def test_cannot_put_invalid_namespaces(store: RockpointStore) -> None:
    doc = {"foo": "bar"}
    for namespace in [
        (),
        ("the", "thing.about"),
        ("some", "fun", ""),
        ("langgraph", "foo"),
    ]:
        with pytest.raises(InvalidNamespaceError):
            store.put(namespace, "foo", doc)
    with pytest.raises(InvalidNamespaceError):
        store.put(("a", "nul\x00byte"), "foo", doc)

    store.put(("foo", "langgraph", "foo"), "bar", doc)
    assert store.get(("foo", "langgraph", "foo"), "bar").value == doc
    assert store.search(("foo", "langgraph", "foo"))[0].value == doc
    store.delete(("foo", "langgraph", "foo"), "bar")
    assert store.get(("foo", "langgraph", "foo"), "bar") is None

    # Past the public put API. InMemoryStore stores these; rockpoint keeps
    # "langgraph" reserved for the platform and an empty namespace
    # unaddressable everywhere, so the engine refuses them and the batch
    # raises InvalidNamespaceError (nothing is written).
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("ok",), "k", doc), PutOp(("langgraph", "foo"), "bar", doc)])
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp((), "bar", doc)])
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("a.b",), "bar", doc)])
    assert store.get(("ok",), "k") is None
    assert store.list_namespaces() == []


async def test_async_cannot_put_invalid_namespaces(store: RockpointStore) -> None:
    doc = {"foo": "bar"}
    for namespace in [
        (),
        ("the", "thing.about"),
        ("some", "fun", ""),
        ("langgraph", "foo"),
    ]:
        with pytest.raises(InvalidNamespaceError):
            await store.aput(namespace, "foo", doc)
    await store.aput(("foo", "langgraph", "foo"), "bar", doc)
    assert (await store.aget(("foo", "langgraph", "foo"), "bar")).value == doc
    assert (await store.asearch(("foo", "langgraph", "foo")))[0].value == doc
    await store.adelete(("foo", "langgraph", "foo"), "bar")
    assert await store.aget(("foo", "langgraph", "foo"), "bar") is None
    await store.abatch([PutOp(("valid", "namespace"), "key", doc)])
    assert (await store.aget(("valid", "namespace"), "key")).value == doc
    with pytest.raises(InvalidNamespaceError):
        await store.abatch([PutOp(("langgraph", "foo"), "bar", doc)])


def test_keys_are_exact(store: RockpointStore) -> None:
    for key in ["", " ", "a/b", "a.b", "ключ", "k\x00ey", "k" * 1000]:
        store.put(("keys",), key, {"key": key})
    for key in ["", " ", "a/b", "a.b", "ключ", "k\x00ey", "k" * 1000]:
        assert store.get(("keys",), key).value == {"key": key}
    assert store.get(("keys",), "a") is None
    assert len(store.search(("keys",), limit=100)) == 7
