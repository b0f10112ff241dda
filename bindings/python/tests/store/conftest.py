"""Fixtures: every test runs on a RocksDB store (a fresh directory under
tmp_path) and on the memory store."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from langgraph.store.rockpoint import RockpointStore

from .fake_embeddings import CharEmbeddings

StoreFactory = Callable[..., RockpointStore]


@pytest.fixture(params=["rocksdb", "memory"])
def backend(request: pytest.FixtureRequest) -> str:
    return request.param


@pytest.fixture
def make_store(backend: str, tmp_path: Path) -> Iterator[StoreFactory]:
    """make_store(index=..., ttl=..., name="store", **open_options): a new
    store of the test's backend (RocksDB with fsync off unless asked), closed
    after the test. The same name reopens the same RocksDB directory."""
    opened: list[RockpointStore] = []

    def factory(*, name: str = "store", **options: Any) -> RockpointStore:
        if backend == "memory":
            store = RockpointStore.memory(
                index=options.get("index"), ttl=options.get("ttl")
            )
        else:
            options.setdefault("sync_writes", False)
            store = RockpointStore.open(tmp_path / name, **options)
        opened.append(store)
        return store

    yield factory
    for store in opened:
        store.close()


@pytest.fixture
def store(make_store: StoreFactory) -> RockpointStore:
    """A store without an index or TTL config."""
    return make_store()


@pytest.fixture
def fake_embeddings() -> CharEmbeddings:
    return CharEmbeddings(dims=500)


@pytest.fixture
def vector_store(
    make_store: StoreFactory, fake_embeddings: CharEmbeddings
) -> Callable[..., RockpointStore]:
    """vector_store(fields=None): a store indexed with fake_embeddings."""

    def factory(fields: list[str] | None = None, **options: Any) -> RockpointStore:
        index: dict[str, Any] = {"dims": fake_embeddings.dims, "embed": fake_embeddings}
        if fields is not None:
            index["fields"] = fields
        return make_store(index=index, **options)

    return factory
