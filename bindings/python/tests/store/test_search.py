"""Search without a query: namespace prefixes (segment boundaries, literal
metacharacters, case), newest first, limit / offset, and filters (literal
values, comparison operators, None and missing fields, nested paths and
arrays). LangGraph's store tests (libs/checkpoint/tests/test_store.py for
InMemoryStore, libs/checkpoint-sqlite/tests/test_store.py for SqliteStore)
on RockpointStore, on RocksDB and in memory."""

from __future__ import annotations

import time

import pytest

from langgraph.store.rockpoint import RockpointStore


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
