"""Type stubs of the compiled engine binding (not a public API)."""

from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

from langgraph.checkpoint.base import CheckpointTuple
from langgraph.checkpoint.serde.base import SerializerProtocol

# Retention._native(): (max_idle seconds, max_age seconds, keep_last,
# sweep_interval milliseconds, sweep_batch_threads).
RetentionSpec: TypeAlias = tuple[int | None, int | None, int | None, int, int]

def validate_retention(spec: RetentionSpec) -> None:
    """Raises InvalidArgumentError, in the engine's words, for a policy its
    ValidateRetentionPolicy refuses."""

class Cursor:
    def next(self, n: int, serde: SerializerProtocol) -> list[CheckpointTuple]: ...
    def close(self) -> None: ...

class Store:
    @staticmethod
    def open_rocksdb(
        path: str,
        sync_writes: bool,
        create_if_missing: bool,
        read_only: bool,
        blob_file_min_bytes: int,
        block_cache_bytes: int,
        retention: RetentionSpec | None = None,
        encryption_key: bytes | bytearray | str | None = None,
    ) -> Store: ...
    @staticmethod
    def open_memory(retention: RetentionSpec | None = None) -> Store: ...
    def put(
        self,
        config: Any,
        checkpoint: Any,
        metadata: Any,
        new_versions: Any,
        serde: SerializerProtocol,
    ) -> dict[str, Any]: ...
    def put_writes(
        self,
        config: Any,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str,
        serde: SerializerProtocol,
    ) -> None: ...
    def get_tuple(
        self, config: Any, serde: SerializerProtocol
    ) -> CheckpointTuple | None: ...
    def list(
        self,
        config: Any,
        filter: dict[str, Any] | None,
        before: Any,
        limit: int | None,
        first_batch: int,
        serde: SerializerProtocol,
    ) -> tuple[list[CheckpointTuple], Cursor | None]: ...
    def delta_history(
        self, config: Any, channels: Iterable[str], serde: SerializerProtocol
    ) -> dict[str, Any]: ...
    def delete_thread(self, thread_id: str) -> None: ...
    def delete_for_runs(self, run_ids: Iterable[str]) -> None: ...
    def copy_thread(self, source: str, target: str) -> None: ...
    def prune(
        self, thread_ids: Iterable[str], strategy: str, keep_last: int
    ) -> None: ...
    def sweep(
        self, retention: RetentionSpec, now_micros: int, dry_run: bool
    ) -> dict[str, int]: ...
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def kind(self) -> str: ...
    @property
    def writes_inline(self) -> bool: ...

# ItemStore (RockpointStore's engine, native/item_store.h): ops are tuples
#   ("get", namespace, key, refresh_ttl)
#   ("put", namespace, key, value | None, [(field, vector)] | None,
#    "default" | None | minutes)
#   ("search", namespace_prefix, filter | None, query_vector | None, limit,
#    offset, refresh_ttl)
#   ("list", [("prefix" | "suffix", path)] | None, max_depth | None, limit,
#    offset)
# Results, one per op: get -> ItemRow | None; put -> None;
# search -> list[SearchRow]; list -> list[tuple[str, ...]].
# Times are microseconds since the Unix epoch (UTC).
ItemRow: TypeAlias = tuple[
    tuple[str, ...], str, dict[str, Any], int, int, int | None
]
SearchRow: TypeAlias = tuple[
    tuple[str, ...], str, dict[str, Any], int, int, int | None, float | None
]

class ItemStore:
    @staticmethod
    def open(
        url: str,
        *,
        sync_writes: bool = True,
        read_only: bool = False,
        create_if_missing: bool = True,
        dims: int | None = None,
        exact_search_max_vectors: int | None = None,
        hnsw_links: int | None = None,
        hnsw_build_candidates: int | None = None,
        hnsw_search_candidates: int | None = None,
        default_ttl_minutes: float | None = None,
        refresh_on_read: bool = True,
        sweep_interval_minutes: float | None = None,
        sweep_batch_size: int = 1000,
    ) -> ItemStore:
        """url: "rocksdb:PATH", a bare PATH or "memory:". The index settings
        (with dims only): None keeps the engine's default."""
    def batch(self, ops: Sequence[tuple[Any, ...]], serde: SerializerProtocol) -> list[Any]: ...
    def sweep(self) -> int: ...
    def index_stats(self) -> dict[str, Any] | None:
        """{"vectors": int, "approximate_ready": bool}; None without an index."""
    def close(self) -> None: ...
    @property
    def closed(self) -> bool: ...
    @property
    def dims(self) -> int | None: ...
    @property
    def name(self) -> str: ...
