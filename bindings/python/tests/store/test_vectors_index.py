"""Semantic search, what is embedded: the index config, the fields of a put
(the store's ``fields``, a put's own ``index`` paths, index=False),
re-embedding on update, one embedding call per batch, vectors kept across a
reopen and the dims fixed by the first index. LangGraph's vector store tests
(InMemoryStore's and SqliteStore's) on RockpointStore, with the fake
embedding of fake_embeddings.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from langgraph.store.base import PutOp

from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings

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
