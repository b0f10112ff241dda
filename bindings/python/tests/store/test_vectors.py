"""Semantic search: LangGraph's vector store tests (InMemoryStore's and
SqliteStore's) on RockpointStore, with the fake embedding of
fake_embeddings.py; the engine ranks by cosine similarity."""

from __future__ import annotations

import math
import random
import time
import uuid
from collections.abc import Callable

import pytest
from langgraph.store.base import PutOp, SearchOp

from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings, cosine

VectorStore = Callable[..., RockpointStore]


def test_initialization(
    vector_store: VectorStore, fake_embeddings: CharEmbeddings
) -> None:
    store = vector_store()
    assert store.index_config is not None
    assert store.index_config["dims"] == fake_embeddings.dims
    assert store.index_config["embed"] == fake_embeddings
    assert store.embeddings is not None
    fields = vector_store(["content", "title"], name="other").index_config
    assert fields["fields"] == ["content", "title"]


def test_insert_with_auto_embedding(vector_store: VectorStore) -> None:
    store = vector_store()
    for key, value in [
        ("doc1", {"text": "short text"}),
        ("doc2", {"text": "longer text document"}),
        ("doc3", {"text": "longest text document here"}),
        ("doc4", {"description": "text in description field"}),
        ("doc5", {"content": "text in content field"}),
        ("doc6", {"body": "text in body field"}),
    ]:
        store.put(("test",), key, value)
    results = store.search(("test",), query="long text")
    keys = [r.key for r in results]
    assert "doc2" in keys and "doc3" in keys
    assert all(r.score is not None for r in results)
    scores = [r.score for r in results]
    assert scores == sorted(scores, reverse=True)


def test_update_with_embedding(vector_store: VectorStore) -> None:
    store = vector_store()
    store.put(("test",), "doc1", {"text": "zany zebra Xerxes"})
    store.put(("test",), "doc2", {"text": "something about dogs"})
    store.put(("test",), "doc3", {"text": "text about birds"})

    initial = store.search(("test",), query="Zany Xerxes")
    assert initial[0].key == "doc1"
    initial_score = initial[0].score
    assert initial_score is not None

    store.put(("test",), "doc1", {"text": "new text about dogs"})
    after = store.search(("test",), query="Zany Xerxes")
    after_score = next(r.score for r in after if r.key == "doc1")
    assert after_score < initial_score

    for r in store.search(("test",), query="new text about dogs"):
        if r.key == "doc1":
            assert r.score > after_score

    # Not indexed: found by search, ranked after every scored item.
    store.put(("test",), "doc4", {"text": "new text about dogs"}, index=False)
    top = store.search(("test",), query="new text about dogs", limit=3)
    assert not any(r.key == "doc4" for r in top)
    everything = store.search(("test",), query="new text about dogs", limit=10)
    assert everything[-1].key == "doc4" and everything[-1].score is None


def test_reindex_with_index_false_drops_vectors(vector_store: VectorStore) -> None:
    store = vector_store()
    store.put(("t",), "a", {"text": "aaaa"})
    store.put(("t",), "b", {"text": "bbbb"})
    assert store.search(("t",), query="aaaa")[0].key == "a"
    # A put replaces every vector the item had; index=False leaves none.
    store.put(("t",), "a", {"text": "aaaa"}, index=False)
    results = store.search(("t",), query="aaaa")
    assert [r.key for r in results] == ["b", "a"]
    assert results[1].score is None


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


def test_embed_with_path(vector_store: VectorStore) -> None:
    store = vector_store(["key0", "key1", "key3"])
    # doc1 gets 2 vectors (no key0), doc2 gets 3; key2 is never indexed.
    store.put(("test",), "doc1", {"key1": "xxx", "key2": "yyy", "key3": "zzz"})
    store.put(
        ("test",), "doc2", {"key0": "uuu", "key1": "vvv", "key2": "www", "key3": "xxx"}
    )

    # doc2.key3 and doc1.key1 are both "xxx": both score ~1.
    results = store.search(("test",), query="xxx")
    assert len(results) == 2 and results[0].key != results[1].key
    assert results[0].score == pytest.approx(results[1].score, abs=1e-5)
    assert results[0].score == pytest.approx(1.0, abs=1e-5)

    results = store.search(("test",), query="uuu")
    assert [r.key for r in results] == ["doc2", "doc1"]
    assert results[0].score > results[1].score

    results = store.search(("test",), query="zzz")
    assert [r.key for r in results] == ["doc1", "doc2"]

    # Only the unindexed key2 holds "www": low scores for both.
    results = store.search(("test",), query="www")
    assert len(results) == 2 and all(r.score < 0.9 for r in results)


def test_embed_with_path_operation_config(vector_store: VectorStore) -> None:
    store = vector_store(["key17"])
    doc3 = {"key0": "aaa", "key1": "bbb", "key2": "ccc", "key3": "ddd"}
    doc4 = {"key0": "eee", "key1": "bbb", "key2": "fff", "key3": "ggg"}
    store.put(("test",), "doc3", doc3, index=["key0", "key1"])
    store.put(("test",), "doc4", doc4, index=["key1", "key3"])

    results = store.search(("test",), query="aaa")
    assert [r.key for r in results] == ["doc3", "doc4"]
    assert results[0].score > results[1].score
    results = store.search(("test",), query="ggg")
    assert [r.key for r in results] == ["doc4", "doc3"]
    results = store.search(("test",), query="bbb")
    assert {r.key for r in results} == {"doc3", "doc4"}
    assert results[0].score == pytest.approx(results[1].score, abs=1e-6)
    results = store.search(("test",), query="ccc")
    assert len(results) == 2 and all(r.score < 0.9 for r in results)

    store.put(("test",), "doc5", {"key0": "hhh", "key1": "iii"}, index=False)
    results = store.search(("test",), query="hhh")
    assert len(results) == 3
    assert next(r for r in results if r.key == "doc5").score is None
    assert len(store.search(("test",))) == 3


def test_fields_of_a_put(
    vector_store: VectorStore, fake_embeddings: CharEmbeddings
) -> None:
    # Nested paths, "[*]" paths (several texts: fields "path.0", "path.1"),
    # "$" (the whole value) and a per-put index list: InMemoryStore's rule.
    store = vector_store(["title", "chapters[*].body", "meta.author"])
    value = {
        "title": "Gardening",
        "chapters": [{"body": "roses need sun"}, {"body": "ferns need shade"}],
        "meta": {"author": "Quill"},
    }
    store.put(("books",), "g", value)
    texts = sorted(fake_embeddings.calls[-1])
    assert texts == sorted(["Gardening", "roses need sun", "ferns need shade", "Quill"])
    for text in texts:
        best = store.search(("books",), query=text)[0]
        assert best.key == "g" and best.score == pytest.approx(1.0, abs=1e-5)

    # A per-put "$" embeds nothing: InMemoryStore tokenizes a per-put path,
    # and the token "$" names no field (only the store's default fields treat
    # "$" as the whole value, see test_whole_value_is_the_default).
    calls = len(fake_embeddings.calls)
    store.put(("books",), "w", {"text": "whole value"}, index=["$"])
    # A field a value does not have is skipped, not an error.
    store.put(("books",), "none", {"other": 1}, index=["missing.path", "x[*].y"])
    assert len(fake_embeddings.calls) == calls  # nothing embedded
    assert store.get(("books",), "none").value == {"other": 1}
    assert store.search(("books",), query="whole value")[-1].score is None


def test_whole_value_is_the_default(
    vector_store: VectorStore, fake_embeddings: CharEmbeddings
) -> None:
    store = vector_store()  # fields: ["$"]
    store.put(("d",), "k", {"b": "two", "a": 1})
    assert fake_embeddings.calls == [['{"a": 1, "b": "two"}']]
    best = store.search(("d",), query='{"a": 1, "b": "two"}')[0]
    assert best.score == pytest.approx(1.0, abs=1e-5)


def test_one_embedding_call_per_batch(
    vector_store: VectorStore, fake_embeddings: CharEmbeddings
) -> None:
    store = vector_store(["text"])
    store.batch(
        [
            PutOp(("b",), "1", {"text": "same"}),
            PutOp(("b",), "2", {"text": "same"}),
            PutOp(("b",), "3", {"text": "other"}),
            PutOp(("b",), "3", {"text": "last wins"}),
            PutOp(("b",), "4", {"text": "deleted"}),
            PutOp(("b",), "4", None),
        ]
    )
    # Identical texts are embedded once; overwritten and deleted puts are not
    # embedded at all.
    assert fake_embeddings.calls == [["same", "last wins"]]
    results = store.search(("b",), query="same")
    assert {r.key for r in results[:2]} == {"1", "2"}
    assert results[0].score == pytest.approx(1.0, abs=1e-5)
    assert store.search(("b",), query="last wins")[0].key == "3"
    assert store.get(("b",), "4") is None


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


def test_vectors_survive_reopen(
    backend: str, vector_store: VectorStore, fake_embeddings: CharEmbeddings
) -> None:
    if backend == "memory":
        pytest.skip("a memory store ends with its process")
    store = vector_store(["text"])
    store.put(("r",), "apple", {"text": "apple pie"})
    store.put(("r",), "car", {"text": "fast car"})
    store.close()
    again = vector_store(["text"])
    results = again.search(("r",), query="apple pie")
    assert results[0].key == "apple"
    assert results[0].score == pytest.approx(1.0, abs=1e-5)


def test_dims_are_fixed_by_the_first_index(
    backend: str, make_store, fake_embeddings
) -> None:
    if backend == "memory":
        pytest.skip("a memory store is new at every open")
    index = {"dims": fake_embeddings.dims, "embed": fake_embeddings}
    make_store(index=index).close()
    with pytest.raises(ValueError, match="dims"):
        make_store(index={"dims": 3, "embed": fake_embeddings})
    # Without an index the store opens; a search with a query is refused.
    plain = make_store()
    with pytest.raises(ValueError, match="index"):
        plain.search(("x",), query="anything")


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
