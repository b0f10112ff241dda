"""Bad input is refused with a clear error, and a refused batch writes
nothing (the engine's Batch is atomic; the Python checks run before it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp

from langgraph.checkpoint.rockpoint import ClosedError, InvalidArgumentError
from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings

StoreFactory = Callable[..., RockpointStore]


def _empty(store: RockpointStore) -> bool:
    return store.list_namespaces() == [] and store.search((), limit=1) == []


GOOD = PutOp(("ok",), "k", {"v": 1})


@pytest.mark.parametrize(
    "value, error",
    [
        ("a string", TypeError),
        (["a", "list"], TypeError),
        (42, TypeError),
        ({1: "non-str key"}, TypeError),
        ({"obj": object()}, TypeError),
        ({"big": 2**70}, TypeError),
    ],
)
def test_wrong_value_types(store: RockpointStore, value: Any, error: type) -> None:
    with pytest.raises(error):
        store.put(("ns",), "k", value)
    with pytest.raises(error):
        store.batch([GOOD, PutOp(("ns",), "k", value)])
    assert _empty(store)


def test_wrong_op_types(store: RockpointStore) -> None:
    with pytest.raises(ValueError, match="Unknown operation type"):
        store.batch([GOOD, ("get", ("ns",), "k", True)])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="key"):
        store.batch([GOOD, GetOp(("ns",), 5)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="key"):
        store.batch([GOOD, PutOp(("ns",), None, {"v": 1})])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="filter"):
        store.batch([GOOD, SearchOp(("ns",), filter=[("a", 1)])])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="limit"):
        store.batch([GOOD, SearchOp(("ns",), limit="10")])  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="limit"):
        store.search(("ns",), limit=-1)
    with pytest.raises(ValueError, match="offset"):
        store.list_namespaces(offset=-1)
    assert _empty(store)


def test_wrong_index_argument(
    make_store: StoreFactory, fake_embeddings: CharEmbeddings
) -> None:
    store = make_store(index={"dims": fake_embeddings.dims, "embed": fake_embeddings})
    for index in ["text", [1], True]:
        with pytest.raises(TypeError, match="index"):
            store.batch([GOOD, PutOp(("ns",), "k", {"text": "t"}, index=index)])  # type: ignore[arg-type]
    assert _empty(store)


def test_invalid_namespaces_write_nothing(store: RockpointStore) -> None:
    for namespace in [(), ("langgraph",), ("a.b",), ("",), ("a", 3), ("nul\x00",)]:
        with pytest.raises(InvalidNamespaceError):
            store.batch([GOOD, PutOp(namespace, "k", {"v": 1})])  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        store.batch([GOOD, PutOp("ns", "k", {"v": 1})])  # type: ignore[arg-type]
    assert _empty(store)


def test_huge_values(store: RockpointStore) -> None:
    huge = {"blob": "x" * (65 << 20)}  # over the engine's 64 MiB per value
    with pytest.raises(InvalidArgumentError, match="bytes"):
        store.batch([GOOD, PutOp(("ns",), "k", huge)])
    del huge
    with pytest.raises(InvalidArgumentError):
        store.put(("ns",), "k" * (65 << 10), {"v": 1})  # a key over 64 KiB
    with pytest.raises(InvalidArgumentError):
        store.put(("l" * (65 << 10),), "k", {"v": 1})  # a label over 64 KiB
    with pytest.raises(InvalidArgumentError):
        store.put(tuple(f"l{i}" for i in range(65)), "k", {"v": 1})  # 65 labels
    assert _empty(store)
    # Large but allowed.
    store.put(("ns",), "big", {"blob": "y" * (8 << 20)})
    assert len(store.get(("ns",), "big").value["blob"]) == 8 << 20


def test_deep_and_cyclic_values(store: RockpointStore) -> None:
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(300):
        node["d"] = {}
        node = node["d"]
    with pytest.raises(InvalidArgumentError, match="nests deeper"):
        store.put(("ns",), "deep", deep)
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    with pytest.raises(InvalidArgumentError, match="nests deeper"):
        store.put(("ns",), "cyclic", cyclic)
    assert _empty(store)


class _WrongDims(CharEmbeddings):
    """Returns vectors one float short."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [v[:-1] for v in super().embed_documents(texts)]

    def embed_query(self, text: str) -> list[float]:
        return super().embed_query(text)[:-1]


class _WrongCount(CharEmbeddings):
    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return super().embed_documents(texts)[:-1]


def test_wrong_vector_length(make_store: StoreFactory) -> None:
    store = make_store(
        index={"dims": 8, "embed": _WrongDims(dims=8), "fields": ["text"]}
    )
    with pytest.raises(ValueError, match="8"):
        store.batch([GOOD, PutOp(("ns",), "k", {"text": "hello"})])
    assert _empty(store)
    store.put(("ns",), "plain", {"other": 1})  # nothing to embed: fine
    with pytest.raises(ValueError, match="8"):
        store.search(("ns",), query="hello")


def test_wrong_vector_count(make_store: StoreFactory) -> None:
    store = make_store(
        index={"dims": 8, "embed": _WrongCount(dims=8), "fields": ["text"]}
    )
    with pytest.raises(ValueError, match="vectors"):
        store.batch(
            [
                PutOp(("ns",), "a", {"text": "hello"}),
                PutOp(("ns",), "b", {"text": "bye"}),
            ]
        )
    assert _empty(store)


def test_non_finite_vectors(make_store: StoreFactory) -> None:
    def embed(texts: list[str]) -> list[list[float]]:
        return [[float("nan")] * 4 for _ in texts]

    store = make_store(index={"dims": 4, "embed": embed, "fields": ["text"]})
    with pytest.raises(ValueError, match="finite"):
        store.put(("ns",), "k", {"text": "x"})
    assert _empty(store)


def test_query_without_index(store: RockpointStore) -> None:
    # rockpoint differs from InMemoryStore and SqliteStore here on purpose:
    # they ignore `query` on a store without an index (and return unranked
    # items); rockpoint says so instead of answering a different question.
    store.put(("ns",), "k", {"v": 1})
    with pytest.raises(ValueError, match="index"):
        store.search(("ns",), query="anything")
    with pytest.raises(ValueError, match="index"):
        store.batch([PutOp(("ns",), "new", {"v": 2}), SearchOp(("ns",), query="q")])
    assert store.get(("ns",), "new") is None
    # A per-put index list on a store without an index is ignored (BaseStore's
    # documented behaviour).
    store.put(("ns",), "idx", {"text": "t"}, index=["text"])
    assert store.get(("ns",), "idx").value == {"text": "t"}


def test_bad_open_options(tmp_path, fake_embeddings: CharEmbeddings) -> None:
    with pytest.raises(ValueError, match="dims"):
        RockpointStore.memory(index={"dims": 0, "embed": fake_embeddings})
    with pytest.raises(ValueError, match="dims"):
        RockpointStore.memory(index={"embed": fake_embeddings})  # type: ignore[typeddict-item]
    with pytest.raises(ValueError, match="URL"):
        RockpointStore.open("postgresql://localhost/db")
    with pytest.raises(ValueError):
        RockpointStore.memory(ttl={"default_ttl": -1})
    with pytest.raises(ValueError):
        RockpointStore.memory(ttl={"sweep_interval_minutes": 0})
    missing = tmp_path / "missing"
    with pytest.raises(Exception):  # noqa: B017 - the engine's NotFound/InvalidArgument
        RockpointStore.open(missing, create_if_missing=False)
    assert not missing.exists()


def test_closed_store(store: RockpointStore) -> None:
    store.put(("ns",), "k", {"v": 1})
    store.close()
    store.close()  # idempotent
    assert store.closed
    for call in [
        lambda: store.get(("ns",), "k"),
        lambda: store.put(("ns",), "k", {"v": 2}),
        lambda: store.search(("ns",)),
        lambda: store.list_namespaces(),
        lambda: store.sweep_ttl(),
    ]:
        with pytest.raises(ClosedError):
            call()


def test_read_only(backend: str, make_store: StoreFactory) -> None:
    if backend == "memory":
        pytest.skip("read_only is an option of a store on disk")
    writer = make_store(ttl={"default_ttl": 1})
    writer.put(("ns",), "k", {"v": 1})
    writer.close()
    reader = make_store(read_only=True, ttl={"default_ttl": 1})
    assert reader.get(("ns",), "k").value == {"v": 1}  # a read (no refresh)
    assert [i.key for i in reader.search(("ns",))] == ["k"]
    with pytest.raises(InvalidArgumentError):
        reader.put(("ns",), "k2", {"v": 2})
    with pytest.raises(InvalidArgumentError):
        reader.delete(("ns",), "k")
    assert reader.get(("ns",), "k2") is None
    assert reader.get(("ns",), "k") is not None


def test_second_open_is_busy(backend: str, make_store: StoreFactory) -> None:
    if backend == "memory":
        pytest.skip("each memory store is its own")
    from langgraph.checkpoint.rockpoint import BusyError

    make_store()
    with pytest.raises(BusyError):
        make_store()
