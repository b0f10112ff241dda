"""Semantic search, the queries: ranking by cosine similarity (the engine's
scores), filters and limit / offset with a query, batches of searches,
non-ASCII texts, and the plain store operations on an indexed store.
LangGraph's vector store tests (InMemoryStore's and SqliteStore's) on
RockpointStore, with the fake embedding of fake_embeddings.py."""

from __future__ import annotations

import uuid
from collections.abc import Callable

import pytest
from langgraph.store.base import SearchOp

from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings, cosine

VectorStore = Callable[..., RockpointStore]


def test_search_with_filters(vector_store: VectorStore) -> None:
    store = vector_store()
    for key, value in [
        ("doc1", {"text": "red apple", "color": "red", "score": 4.5}),
        ("doc2", {"text": "red car", "color": "red", "score": 3.0}),
        ("doc3", {"text": "green apple", "color": "green", "score": 4.0}),
        ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
    ]:
        store.put(("test",), key, value)

    results = store.search(("test",), query="apple", filter={"color": "red"})
    assert [r.key for r in results][:1] == ["doc1"] and len(results) == 2
    results = store.search(("test",), query="car", filter={"color": "red"})
    assert results[0].key == "doc2" and len(results) == 2
    results = store.search(("test",), query="bbbbluuu", filter={"score": {"$gt": 3.2}})
    assert len(results) == 3 and results[0].key == "doc4"
    assert {r.key for r in results} == {"doc1", "doc3", "doc4"}
    results = store.search(
        ("test",), query="apple", filter={"score": {"$gte": 4.0}, "color": "green"}
    )
    assert [r.key for r in results] == ["doc3"]


def test_search_pagination(vector_store: VectorStore) -> None:
    store = vector_store()
    for i in range(5):
        store.put(("test",), f"doc{i}", {"text": f"test document number {i}"})
    page1 = store.search(("test",), query="test", limit=2)
    page2 = store.search(("test",), query="test", limit=2, offset=2)
    assert len(page1) == 2 and len(page2) == 2
    assert {r.key for r in page1}.isdisjoint({r.key for r in page2})
    assert page1[0].score >= page1[1].score >= page2[0].score >= page2[1].score
    every = store.search(("test",), query="test", limit=10)
    assert len(every) == 5
    assert [r.key for r in every[:4]] == [r.key for r in page1 + page2]


def test_search_edge_cases(vector_store: VectorStore) -> None:
    store = vector_store()
    store.put(("test",), "doc1", {"text": "test document"})
    for query in ["", None, "test " * 100, "test!@#$%^&*()"]:
        assert len(store.search(("test",), query=query)) == 1
    # "" and None are no query: nothing is ranked.
    assert store.search(("test",), query="")[0].score is None


def test_batch_of_searches(vector_store: VectorStore) -> None:
    store = vector_store()
    store.put(("s",), "cat", {"text": "cat"})
    store.put(("s",), "dog", {"text": "dog"})
    results = store.batch(
        [
            SearchOp(("s",), query="cat", limit=1),
            SearchOp(("s",), query="dog", limit=1),
            SearchOp(("s",), query="cat", limit=2, offset=1),
            SearchOp(("s",), limit=5),
        ]
    )
    assert [r[0].key for r in results[:3]] == ["cat", "dog", "dog"]
    assert len(results[3]) == 2 and all(r.score is None for r in results[3])


@pytest.mark.parametrize("query", ["aaa", "bbb", "ccc", "abcd", "poisson"])
def test_scores(
    vector_store: VectorStore, fake_embeddings: CharEmbeddings, query: str
) -> None:
    store = vector_store(["key0"])
    store.put(("test",), "doc", {"key0": "aaa"}, index=["key0", "key1"])
    results = store.search((), query=query)
    expected = cosine(
        fake_embeddings.embed_query(query), fake_embeddings.embed_query("aaa")
    )
    assert len(results) == 1
    assert results[0].score == pytest.approx(expected, abs=1e-3)


def test_non_ascii(vector_store: VectorStore) -> None:
    store = vector_store()
    texts = ["这是中文", "これは日本語です", "이건 한국어야", "Это русский", "यह रूसी है"]
    for i, text in enumerate(texts, start=1):
        store.put(("user_123", "memories"), str(i), {"text": text})
    for i, text in enumerate(texts, start=1):
        assert store.search(("user_123", "memories"), query=text)[0].key == str(i)


def test_basic_store_operations(vector_store: VectorStore) -> None:
    store = vector_store(["key0", "key1", "key3"])
    uid = uuid.uuid4().hex
    namespace = (uid, "test", "documents")
    assert store.search((uid,)) == []
    value = {"title": "Test Document", "content": "Hello, World!"}
    store.put(namespace, "doc1", value)
    item = store.get(namespace, "doc1")
    assert (item.namespace, item.key, item.value) == (namespace, "doc1", value)
    updated = {"title": "Updated Test Document", "content": "Hello, LangGraph!"}
    store.put(namespace, "doc1", updated)
    again = store.get(namespace, "doc1")
    assert again.value == updated and again.updated_at >= item.updated_at
    assert store.get((uid, "test", "other_documents"), "doc1") is None
    store.put(namespace, "doc2", {"title": "Another Document", "content": "Greetings!"})
    assert {i.key for i in store.search((uid, "test"), limit=10)} == {"doc1", "doc2"}
    assert (uid, "test", "documents") in store.list_namespaces(prefix=(uid, "test"))
    store.delete(namespace, "doc1")
    store.delete(namespace, "doc2")
    assert store.get(namespace, "doc1") is None
    assert store.search((uid, "test"), limit=10) == []


def test_list_namespaces_operations(vector_store: VectorStore) -> None:
    store = vector_store(["key0", "key1", "key3"])
    p = str(uuid.uuid4())
    test_namespaces = [
        (p, "test", "documents", "public", p),
        (p, "test", "documents", "private", p),
        (p, "test", "images", "public", p),
        (p, "test", "images", "private", p),
        (p, "prod", "documents", "public", p),
        (p, "prod", "documents", "some", "nesting", "public", p),
        (p, "prod", "documents", "private", p),
    ]
    for namespace in test_namespaces:
        store.put(namespace, "dummy", {"content": "dummy"})

    result = store.list_namespaces(prefix=(p, "test"))
    assert len(result) == 4 and all(ns[1] == "test" for ns in result)
    result = store.list_namespaces(prefix=(p, "test", "documents"))
    assert len(result) == 2 and all(ns[1:3] == ("test", "documents") for ns in result)
    result = store.list_namespaces(suffix=("public", p))
    assert len(result) == 4 and all(ns[-2] == "public" for ns in result)
    result = store.list_namespaces(prefix=(p, "test"), suffix=("public", p))
    assert len(result) == 2
    result = store.list_namespaces(prefix=(p, "*", "documents"))
    assert len(result) == 5 and all(ns[2] == "documents" for ns in result)
    result = store.list_namespaces(suffix=("*", "public", p))
    assert len(result) == 4
    assert store.list_namespaces(suffix=("some", "*", "public", p)) == [
        (p, "prod", "documents", "some", "nesting", "public", p)
    ]
    assert all(len(ns) <= 3 for ns in store.list_namespaces(max_depth=3))
    result = store.list_namespaces(max_depth=4, prefix=(p, "*", "documents"))
    assert len(set(result)) == len(result) == 5
    assert len(store.list_namespaces(prefix=(p,), limit=3)) == 3
    assert len(store.list_namespaces(prefix=(p,), offset=3)) == len(test_namespaces) - 3
    assert set(store.list_namespaces(prefix=(p,))) == set(test_namespaces)
    for namespace in test_namespaces:
        store.delete(namespace, "dummy")
    assert store.list_namespaces(prefix=(p,)) == []


def test_search_items(vector_store: VectorStore) -> None:
    store = vector_store(["key0", "key1", "key3"])
    base = "test_search_items"
    namespaces = [
        (base, "documents", "user1"),
        (base, "documents", "user2"),
        (base, "reports", "department1"),
        (base, "reports", "department2"),
    ]
    items = [
        {"title": "Doc 1", "author": "John Doe", "tags": ["important"]},
        {"title": "Doc 2", "author": "Jane Smith", "tags": ["draft"]},
        {"title": "Report A", "author": "John Doe", "tags": ["final"]},
        {"title": "Report B", "author": "Alice Johnson", "tags": ["draft"]},
    ]
    for ns, item in zip(namespaces, items, strict=True):
        store.put(ns, f"item_{ns[-1]}", item)
    docs = store.search((base, "documents"))
    assert len(docs) == 2 and all(i.namespace[1] == "documents" for i in docs)
    reports = store.search((base, "reports"))
    assert len(reports) == 2 and all(i.namespace[1] == "reports" for i in reports)
    first = {i.key for i in store.search((base,), limit=2, offset=0)}
    second = {i.key for i in store.search((base,), limit=2, offset=2)}
    assert len(first) == len(second) == 2 and first.isdisjoint(second)
    assert len(store.search((base,))) == 4
    john = store.search((base,), filter={"author": "John Doe"})
    assert len(john) == 2 and all(i.value["author"] == "John Doe" for i in john)
    drafts = store.search((base,), filter={"tags": ["draft"]})
    assert len(drafts) == 2
