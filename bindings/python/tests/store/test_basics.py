"""Items, batches, namespaces and filters: the behaviours of LangGraph's store
tests (libs/checkpoint/tests/test_store.py for InMemoryStore and
libs/checkpoint-sqlite/tests/test_store.py for SqliteStore) on
RockpointStore, on RocksDB and in memory."""

from __future__ import annotations

import time
from datetime import timezone

import pytest
from langgraph.store.base import (
    GetOp,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)

from langgraph.store.rockpoint import RockpointStore

# ---- batches --------------------------------------------------------------


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


# ---- items ----------------------------------------------------------------


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


# ---- search ---------------------------------------------------------------


def test_search(store: RockpointStore) -> None:
    data = [
        (
            ("test", "docs"),
            "doc1",
            {"title": "First Doc", "author": "Alice", "tags": ["important"]},
        ),
        (
            ("test", "docs"),
            "doc2",
            {"title": "Second Doc", "author": "Bob", "tags": ["draft"]},
        ),
        (
            ("test", "images"),
            "img1",
            {"title": "Image 1", "author": "Alice", "tags": ["final"]},
        ),
    ]
    for namespace, key, value in data:
        store.put(namespace, key, value)

    assert len(store.search(("test",))) == 3
    docs = store.search(("test", "docs"))
    assert {i.key for i in docs} == {"doc1", "doc2"}
    assert all(i.namespace == ("test", "docs") for i in docs)
    alice = store.search(("test",), filter={"author": "Alice"})
    assert {i.key for i in alice} == {"doc1", "img1"}
    assert len(store.search(("test",), limit=2)) == 2
    assert len(store.search(("test",), offset=2)) == 1
    assert all(i.score is None for i in store.search(("test",)))
    assert [i.key for i in store.search(("test",), filter={"tags": ["draft"]})] == [
        "doc2"
    ]


def test_search_without_query_is_newest_first(store: RockpointStore) -> None:
    for key in ["a", "b", "c"]:
        store.put(("order",), key, {"k": key})
        time.sleep(0.002)
    assert [i.key for i in store.search(("order",))] == ["c", "b", "a"]
    store.put(("order",), "a", {"k": "a2"})
    assert [i.key for i in store.search(("order",))] == ["a", "c", "b"]
    pages = [store.search(("order",), limit=1, offset=n)[0].key for n in range(3)]
    assert pages == ["a", "c", "b"]
    assert store.search(("order",), offset=3) == []


def test_search_namespace_segment_boundary(store: RockpointStore) -> None:
    for namespace in [
        ("foo",),
        ("foo", "child"),
        ("foo", "child", "deep"),
        ("foobar",),
        ("foobar", "baz"),
        ("foo2",),
    ]:
        store.put(namespace, "k", {"v": 1})

    def namespaces(prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
        return {item.namespace for item in store.search(prefix, limit=100)}

    assert namespaces(("foo",)) == {
        ("foo",),
        ("foo", "child"),
        ("foo", "child", "deep"),
    }
    assert namespaces(("foobar",)) == {("foobar",), ("foobar", "baz")}
    assert namespaces(("foo2",)) == {("foo2",)}
    assert namespaces(("fo",)) == set()


def test_search_namespace_metacharacters_are_literal(store: RockpointStore) -> None:
    for namespace in [
        ("user_1",),
        ("user_1", "child"),
        ("userX1",),
        ("a%b",),
        ("axxb",),
        ("star*",),
        ("starX",),
    ]:
        store.put(namespace, "k", {"v": 1})

    def namespaces(prefix: tuple[str, ...]) -> set[tuple[str, ...]]:
        return {item.namespace for item in store.search(prefix, limit=100)}

    assert namespaces(("user_1",)) == {("user_1",), ("user_1", "child")}
    assert namespaces(("a%b",)) == {("a%b",)}
    assert namespaces(("star*",)) == {("star*",)}


def test_search_namespace_is_case_sensitive(store: RockpointStore) -> None:
    store.put(("Foo",), "k", {"v": "upper"})
    store.put(("foo",), "k", {"v": "lower"})
    assert {i.namespace for i in store.search(("foo",), limit=100)} == {("foo",)}
    assert {i.namespace for i in store.search(("Foo",), limit=100)} == {("Foo",)}


def test_search_empty_prefix_is_unconstrained(store: RockpointStore) -> None:
    for namespace in [("a",), ("b", "c"), ("d", "e", "f")]:
        store.put(namespace, "k", {"v": 1})
    assert {i.namespace for i in store.search((), limit=100)} == {
        ("a",),
        ("b", "c"),
        ("d", "e", "f"),
    }


# ---- filters --------------------------------------------------------------


def test_filter_values_are_literal(store: RockpointStore) -> None:
    # SqliteStore's SQL-injection cases, as behaviour: quotes, comments,
    # NUL bytes and non-ASCII text in a filter value only ever compare equal
    # to the same text.
    store.put(("docs",), "doc1", {"access": "public", "title": "Public Document"})
    store.put(("docs",), "doc2", {"access": "private", "title": "Private Document"})
    store.put(("docs",), "doc3", {"access": "secret", "title": "Secret Document"})
    for value in [
        "public' OR '1'='1",
        "public'; --",
        "public' UNION SELECT * FROM store --",
        "public\x00' OR '1'='1",
        "''''",
        "public' OR 'א'='א",
        "*",
        ".*",
        "%",
    ]:
        assert store.search(("docs",), filter={"access": value}) == []
    store.put(("docs",), "doc4", {"title": "O'Brien's Document", "access": "public"})
    found = store.search(("docs",), filter={"title": "O'Brien's Document"})
    assert [i.key for i in found] == ["doc4"]
    # A filter key is a field name, whatever its characters.
    malicious_key = "access') = 'public' OR '1'='1' OR json_extract(value, '$."
    assert store.search(("docs",), filter={malicious_key: "dummy"}) == []
    store.put(("docs",), "odd", {malicious_key: "dummy"})
    assert [
        i.key for i in store.search(("docs",), filter={malicious_key: "dummy"})
    ] == ["odd"]


def test_numeric_filters(store: RockpointStore) -> None:
    store.put(("items",), "item1", {"price": 10, "quantity": 5})
    store.put(("items",), "item2", {"price": 20, "quantity": 3})
    store.put(("items",), "item3", {"price": 30, "quantity": 1})

    def keys(filter: dict) -> list[str]:
        return sorted(i.key for i in store.search(("items",), filter=filter))

    assert keys({"price": {"$gt": 15}}) == ["item2", "item3"]
    assert keys({"price": {"$gte": 20}}) == ["item2", "item3"]
    assert keys({"price": {"$lt": 20}}) == ["item1"]
    assert keys({"price": {"$lte": 20}}) == ["item1", "item2"]
    assert keys({"price": {"$ne": 20}}) == ["item1", "item3"]
    assert keys({"price": {"$eq": 20}}) == ["item2"]
    assert keys({"price": {"$gt": 10, "$lt": 30}}) == ["item2"]
    assert keys({"price": {"$lt": float("inf")}}) == ["item1", "item2", "item3"]
    assert keys({"price": {"$gt": float("-inf")}}) == ["item1", "item2", "item3"]
    assert keys({"price": {"$eq": float("nan")}}) == []
    assert keys({"price": {"$lt": 10**100}}) == ["item1", "item2", "item3"]
    assert keys({"price": {"$gt": -(10**100)}}) == ["item1", "item2", "item3"]
    # Numbers compare by value: 20 == 20.0.
    assert keys({"price": 20.0}) == ["item2"]
    store.put(("items",), "item4", {"price": -10, "quantity": 0})
    assert keys({"price": {"$lt": 0}}) == ["item4"]
    assert keys({"quantity": {"$gte": 1, "$lte": 3}}) == ["item2", "item3"]
    # Order operators on strings compare them; a number and a string never.
    store.put(("items",), "named", {"price": "cheap"})
    assert keys({"price": {"$gt": "a"}}) == ["named"]


def test_boolean_filters(store: RockpointStore) -> None:
    store.put(("flags",), "flag1", {"active": True, "name": "Feature A"})
    store.put(("flags",), "flag2", {"active": False, "name": "Feature B"})
    store.put(("flags",), "flag3", {"active": True, "name": "Feature C"})
    store.put(("flags",), "one", {"active": 1, "name": "an int"})

    found = store.search(("flags",), filter={"active": True})
    assert sorted(i.key for i in found) == ["flag1", "flag3"]
    assert all(i.value["active"] is True for i in found)
    assert [i.key for i in store.search(("flags",), filter={"active": False})] == [
        "flag2"
    ]
    # rockpoint compares as JSON does (and as PostgresStore): a bool is never
    # a number, so True does not match 1 (Python's == and SqliteStore, which
    # stores booleans as integers, would say it does).
    assert [i.key for i in store.search(("flags",), filter={"active": 1})] == ["one"]


def test_filter_none_and_missing(store: RockpointStore) -> None:
    store.put(("n",), "null", {"x": None})
    store.put(("n",), "missing", {"y": 1})
    store.put(("n",), "set", {"x": 1})
    # As InMemoryStore (item.value.get(key) == None): None matches a stored
    # None and a missing field.
    assert sorted(i.key for i in store.search(("n",), filter={"x": None})) == [
        "missing",
        "null",
    ]
    assert sorted(i.key for i in store.search(("n",), filter={"x": {"$ne": None}})) == [
        "set"
    ]


def test_nested_and_array_filters(store: RockpointStore) -> None:
    store.put(
        ("docs",),
        "hyphen",
        {"access-level": "public", "user": {"access-level": "nested"}},
    )
    store.put(("docs",), "digit", {"123abc": "ok", "user": {"123abc": "ok2", "n": 3}})
    store.put(("docs",), "tags", {"tags": ["a", "b"], "matrix": [[1, 2], [3]]})

    def keys(filter: dict) -> list[str]:
        return sorted(i.key for i in store.search(("docs",), filter=filter))

    assert keys({"access-level": "public"}) == ["hyphen"]
    assert keys({"123abc": "ok"}) == ["digit"]
    # Nested fields are matched by a nested filter dict, as in InMemoryStore.
    assert keys({"user": {"access-level": "nested"}}) == ["hyphen"]
    assert keys({"user": {"123abc": "ok2"}}) == ["digit"]
    assert keys({"user": {"n": {"$gt": 2}}}) == ["digit"]
    # SqliteStore also reads a dotted filter key ("user.access-level") as a
    # path. rockpoint, like InMemoryStore, takes a key as one field name: a
    # value may have a field named "user.access-level".
    assert keys({"user.access-level": "nested"}) == []
    # Arrays compare element by element.
    assert keys({"tags": ["a", "b"]}) == ["tags"]
    assert keys({"tags": ["b", "a"]}) == []
    assert keys({"matrix": [[1, 2], [3]]}) == ["tags"]


def test_unknown_filter_operator_is_refused(store: RockpointStore) -> None:
    store.put(("x",), "k", {"n": 1})
    with pytest.raises(ValueError, match=r"\$regex"):
        store.search(("x",), filter={"n": {"$regex": ".*"}})


# ---- list_namespaces ------------------------------------------------------


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
