"""RockpointStore's options: the ``index`` and ``ttl`` dicts of
RockpointStore.open() / memory(), checked and turned into the engine's
settings (ItemStore.open's arguments).

- ``index``: LangGraph's IndexConfig (``dims``, ``embed``, ``fields``), read
  as InMemoryStore reads it, plus ``ann_index_config`` (PostgresStore's
  key) for the engine's vector search settings.
- ``ttl``: LangGraph's TTLConfig (``default_ttl``, ``refresh_on_read``,
  ``sweep_interval_minutes``).

A wrong option raises ValueError or TypeError before the store is opened.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict

from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    IndexConfig,
    TTLConfig,
    ensure_embeddings,
    tokenize_path,
)


class RockpointANNConfig(TypedDict, total=False):
    """How the engine answers vector queries (index["ann_index_config"], as
    PostgresStore's key). Exact search over the prefix while the store holds
    at most ``exact_search_max_vectors`` vectors; above it an HNSW graph
    built in the background (``m`` links per node, ``ef_construction`` and
    ``ef_search`` candidates). A key left out keeps the engine's default
    (docs/STORE.md). ``kind="flat"``: always exact."""

    kind: Literal["hnsw", "flat"]
    m: int
    ef_construction: int
    ef_search: int
    exact_search_max_vectors: int


class RockpointIndexConfig(IndexConfig, total=False):
    """LangGraph's IndexConfig (``dims``, ``embed``, ``fields``), and the
    engine's vector search settings."""

    ann_index_config: RockpointANNConfig


def is_minutes(value: Any) -> bool:
    """Whether ``value`` is a number of minutes (an int or float, not a
    bool). Its sign is not checked."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_ttl_config(ttl: TTLConfig | Mapping[str, Any] | None) -> TTLConfig | None:
    """A copy of ``ttl`` with its values checked (ValueError / TypeError)."""
    if ttl is None:
        return None
    if not isinstance(ttl, Mapping):
        raise TypeError(
            f"ttl must be a TTLConfig dict or None, not {type(ttl).__name__}"
        )
    config: dict[str, Any] = dict(ttl)
    default_ttl = config.get("default_ttl")
    if default_ttl is not None and not (is_minutes(default_ttl) and default_ttl > 0):
        raise ValueError(
            f"ttl['default_ttl'] must be a number of minutes > 0 or None, got {default_ttl!r}"
        )
    interval = config.get("sweep_interval_minutes")
    if interval is not None and not (is_minutes(interval) and interval > 0):
        raise ValueError(
            "ttl['sweep_interval_minutes'] must be a number of minutes > 0 or "
            f"None, got {interval!r}"
        )
    refresh = config.get("refresh_on_read", True)
    if not isinstance(refresh, bool):
        raise TypeError(f"ttl['refresh_on_read'] must be a bool, got {refresh!r}")
    return config  # type: ignore[return-value]


def check_index_config(
    index: IndexConfig | Mapping[str, Any] | None,
) -> tuple[IndexConfig | None, Embeddings | None, int | None]:
    """(the index config with its tokenized fields, the embeddings, dims), or
    (None, None, None) without an index. As InMemoryStore's constructor."""
    if not index:
        return None, None, None
    if not isinstance(index, Mapping):
        raise TypeError(
            f"index must be an IndexConfig dict or None, not {type(index).__name__}"
        )
    config: dict[str, Any] = dict(index)
    dims = config.get("dims")
    if not isinstance(dims, int) or isinstance(dims, bool) or dims <= 0:
        raise ValueError(f"index['dims'] must be an int > 0, got {dims!r}")
    embeddings = ensure_embeddings(config.get("embed"))
    fields = config.get("fields") or ["$"]
    if isinstance(fields, str) or not all(isinstance(f, str) for f in fields):
        raise TypeError("index['fields'] must be a list of str paths")
    config["__tokenized_fields"] = [
        (p, tokenize_path(p)) if p != "$" else (p, p) for p in fields
    ]
    return config, embeddings, dims  # type: ignore[return-value]


# ann_index_config's keys -> ItemStore.open's arguments.
_ANN_KEYS = {
    "m": "hnsw_links",
    "ef_construction": "hnsw_build_candidates",
    "ef_search": "hnsw_search_candidates",
    "exact_search_max_vectors": "exact_search_max_vectors",
}
# "flat": never approximate (the engine's size_t maximum).
_NEVER = 2**64 - 1


def ann_options(index: Mapping[str, Any] | None) -> dict[str, int]:
    """The engine's vector search settings from index["ann_index_config"]
    (PostgresStore's key): {"kind": "hnsw" (default) or "flat", "m",
    "ef_construction", "ef_search", "exact_search_max_vectors"}."""
    if not index or index.get("ann_index_config") is None:
        return {}
    config = index["ann_index_config"]
    if not isinstance(config, Mapping):
        raise TypeError("index['ann_index_config'] must be a dict")
    config = dict(config)
    kind = config.pop("kind", "hnsw")
    if kind not in ("hnsw", "flat"):
        raise ValueError(
            f"index['ann_index_config']['kind'] must be 'hnsw' or 'flat', got {kind!r}"
        )
    unknown = sorted(set(config) - set(_ANN_KEYS))
    if unknown:
        raise ValueError(
            f"index['ann_index_config'] has unknown keys {unknown} (known: "
            f"kind, {', '.join(_ANN_KEYS)})"
        )
    options: dict[str, int] = {}
    for key, value in config.items():
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ValueError(
                f"index['ann_index_config'][{key!r}] must be an int > 0, got {value!r}"
            )
        options[_ANN_KEYS[key]] = value
    if kind == "flat":
        options["exact_search_max_vectors"] = _NEVER
    return options
