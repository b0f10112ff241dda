"""RockpointStore: LangGraph's BaseStore (long-term memory) on rockpoint.

Drop-in for InMemoryStore / SqliteStore, durable on RocksDB:

    from langgraph.store.rockpoint import RockpointStore

    with RockpointStore.open("./memory") as store:
        graph = builder.compile(checkpointer=checkpointer, store=store)

The engine (rockpoint/store.h) keeps the items, their expiry and their
vectors, answers filters and cosine top-k; this class computes the
embeddings (``index``), exactly as InMemoryStore chooses what to embed, and
turns the engine's answers into LangGraph's Item / SearchItem.

Thread-safety: one store may be used from many threads and asyncio tasks at
once. A RocksDB directory is held by one process at a time (BusyError).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import os
import re
import threading
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from typing import Any, Literal, TypedDict

from langchain_core.embeddings import Embeddings
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.store.base import (
    NOT_PROVIDED,
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    TTLConfig,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from langgraph.checkpoint.rockpoint import _native
from langgraph.checkpoint.rockpoint.errors import ClosedError

logger = logging.getLogger(__name__)

MEMORY = ":memory:"

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)

# Python threads for abatch's engine calls. A write that waits for its fsync
# holds no GIL, so more threads than cores pay off.
_WORKERS = 8

_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


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


def _time(micros: int) -> datetime:
    """Microseconds since the Unix epoch as an aware UTC datetime."""
    return _EPOCH + timedelta(microseconds=micros)


def _is_minutes(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _check_ttl_config(ttl: TTLConfig | Mapping[str, Any] | None) -> TTLConfig | None:
    """A copy of ``ttl`` with its values checked (ValueError / TypeError)."""
    if ttl is None:
        return None
    if not isinstance(ttl, Mapping):
        raise TypeError(
            f"ttl must be a TTLConfig dict or None, not {type(ttl).__name__}"
        )
    config: dict[str, Any] = dict(ttl)
    default_ttl = config.get("default_ttl")
    if default_ttl is not None and not (_is_minutes(default_ttl) and default_ttl > 0):
        raise ValueError(
            f"ttl['default_ttl'] must be a number of minutes > 0 or None, got {default_ttl!r}"
        )
    interval = config.get("sweep_interval_minutes")
    if interval is not None and not (_is_minutes(interval) and interval > 0):
        raise ValueError(
            "ttl['sweep_interval_minutes'] must be a number of minutes > 0 or "
            f"None, got {interval!r}"
        )
    refresh = config.get("refresh_on_read", True)
    if not isinstance(refresh, bool):
        raise TypeError(f"ttl['refresh_on_read'] must be a bool, got {refresh!r}")
    return config  # type: ignore[return-value]


def _check_index_config(
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


def _namespace(namespace: Any, what: str = "namespace") -> tuple[str, ...]:
    """``namespace`` as a tuple; TypeError unless a tuple or list (a str would
    otherwise read as one label per character)."""
    if isinstance(namespace, tuple):
        return namespace
    if isinstance(namespace, list):
        return tuple(namespace)
    raise TypeError(f"{what} must be a tuple of str, not {type(namespace).__name__}")


# ann_index_config's keys -> ItemStore.open's arguments.
_ANN_KEYS = {
    "m": "hnsw_links",
    "ef_construction": "hnsw_build_candidates",
    "ef_search": "hnsw_search_candidates",
    "exact_search_max_vectors": "exact_search_max_vectors",
}
# "flat": never approximate (the engine's size_t maximum).
_NEVER = 2**64 - 1


def _ann_options(index: Mapping[str, Any] | None) -> dict[str, int]:
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


def _unstorable(namespace: tuple[str, ...]) -> bool:
    """Whether no item can live in ``namespace`` (empty, or under the
    reserved root "langgraph"): a get there finds nothing."""
    return not namespace or namespace[0] == "langgraph"


def _check_put_namespace(namespace: tuple[str, ...]) -> None:
    """BaseStore.put's rule, also for PutOps handed to batch()."""
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(
            f'Root label for namespace cannot be "langgraph". Got: {namespace}'
        )


class _Plan:
    """One batch, checked and split: the engine's ops (puts without vectors
    yet), the texts to embed for them and the queries to embed."""

    __slots__ = ("ops", "local", "slots", "texts", "put_fields", "queries")

    def __init__(self) -> None:
        # Engine op tuples; a put's vectors and a search's query vector are
        # filled in by resolve().
        self.ops: list[list[Any]] = []
        # Results answered without the engine: op index -> result.
        self.local: dict[int, Any] = {}
        # For each op, the index of its engine op (or None when local).
        self.slots: list[int | None] = []
        # Unique texts to embed, in order, and for each engine put op index
        # its [(field, text)].
        self.texts: dict[str, None] = {}
        self.put_fields: dict[int, list[tuple[str, str]]] = {}
        # Unique queries, in order, and the search ops that use each.
        self.queries: dict[str, list[int]] = {}

    def resolve(
        self,
        text_vectors: Sequence[Sequence[float]],
        query_vectors: Sequence[Sequence[float]],
    ) -> list[tuple[Any, ...]]:
        """The engine's op tuples with the vectors in place."""
        if len(text_vectors) != len(self.texts):
            raise ValueError(
                f"the embeddings returned {len(text_vectors)} vectors for "
                f"{len(self.texts)} texts"
            )
        if len(query_vectors) != len(self.queries):
            raise ValueError(
                f"the embeddings returned {len(query_vectors)} vectors for "
                f"{len(self.queries)} queries"
            )
        by_text = dict(zip(self.texts, text_vectors, strict=True))
        for index, fields in self.put_fields.items():
            self.ops[index][4] = [(field, by_text[text]) for field, text in fields]
        for (_, users), vector in zip(self.queries.items(), query_vectors, strict=True):
            for index in users:
                self.ops[index][3] = vector
        return [tuple(op) for op in self.ops]


class RockpointStore(BaseStore):
    """LangGraph's BaseStore on rockpoint: items in RocksDB (or memory),
    namespace listing, filters, TTL and vector search in the engine.

    Open with ``RockpointStore.open(path)`` or ``RockpointStore.memory()``;
    ``index`` is LangGraph's IndexConfig (``dims``, ``embed``, ``fields``)
    and ``ttl`` its TTLConfig (``default_ttl``, ``refresh_on_read``,
    ``sweep_interval_minutes``), both as InMemoryStore and SqliteStore take
    them.
    """

    supports_ttl: bool = True

    def __init__(
        self,
        native: _native.ItemStore,
        path: str,
        *,
        index_config: IndexConfig | None,
        embeddings: Embeddings | None,
        ttl_config: TTLConfig | None,
        serde: SerializerProtocol | None = None,
    ) -> None:
        """Use open() or memory()."""
        self._native = native
        self._path = path
        # Values the engine has no type for (datetimes, UUIDs, sets...) are
        # kept exactly through this serializer.
        self._serde = serde or JsonPlusSerializer()
        self.index_config = index_config
        self.embeddings = embeddings
        self.ttl_config = ttl_config
        self._lock = threading.Lock()
        self._executor: concurrent.futures.ThreadPoolExecutor | None = None
        self._ttl_sweeper_thread: threading.Thread | None = None
        self._ttl_stop_event = threading.Event()

    # ---- opening and closing -----------------------------------------------

    @classmethod
    def open(
        cls,
        path: str | os.PathLike[str],
        *,
        index: RockpointIndexConfig | IndexConfig | None = None,
        ttl: TTLConfig | None = None,
        sync_writes: bool = True,
        read_only: bool = False,
        create_if_missing: bool = True,
    ) -> RockpointStore:
        """Opens (or creates) the RocksDB store in directory ``path``.

        ``sync_writes``: a write returns only once it is durable (the
        write-ahead log fsynced). ``read_only``: every write raises
        InvalidArgumentError. ``index``: vector search; its ``dims`` is fixed
        the first time a store is opened with an index (a later different
        ``dims`` is InvalidArgumentError). ``ttl``: the default TTL of puts,
        whether reads refresh TTLs, and start_ttl_sweeper's interval.
        Raises BusyError when another process holds the store.
        """
        path = os.fspath(path)
        if not isinstance(path, str):
            raise TypeError("path must be a str or os.PathLike[str]")
        if _URL_SCHEME.match(path):
            raise ValueError(
                "RockpointStore.open takes the directory of a RocksDB store, "
                f"not a URL: {path!r}"
            )
        return cls._open(
            "rocksdb:" + path,
            path,
            index,
            ttl,
            sync_writes,
            read_only,
            create_if_missing,
        )

    @classmethod
    def memory(
        cls,
        *,
        index: RockpointIndexConfig | IndexConfig | None = None,
        ttl: TTLConfig | None = None,
    ) -> RockpointStore:
        """A store in process memory (the engine's memory backend)."""
        return cls._open("memory:", MEMORY, index, ttl, False, False, True)

    @classmethod
    def _open(
        cls,
        url: str,
        path: str,
        index: IndexConfig | None,
        ttl: TTLConfig | None,
        sync_writes: bool,
        read_only: bool,
        create_if_missing: bool,
    ) -> RockpointStore:
        ttl_config = _check_ttl_config(ttl)
        index_config, embeddings, dims = _check_index_config(index)
        ann_options = _ann_options(index_config)
        ttl_options = ttl_config or {}
        native = _native.ItemStore.open(
            url,
            sync_writes=bool(sync_writes),
            read_only=bool(read_only),
            create_if_missing=bool(create_if_missing),
            dims=dims,
            default_ttl_minutes=ttl_options.get("default_ttl"),
            refresh_on_read=ttl_options.get("refresh_on_read", True),
            **ann_options,
        )
        return cls(
            native,
            path,
            index_config=index_config,
            embeddings=embeddings,
            ttl_config=ttl_config,
        )

    @property
    def path(self) -> str:
        """The store directory, or ":memory:"."""
        return self._path

    @property
    def closed(self) -> bool:
        return self._native.closed

    def close(self) -> None:
        """Stops the TTL sweeper, waits for calls in flight and closes the
        store (releasing its lock). Later calls raise ClosedError.
        Idempotent."""
        self.stop_ttl_sweeper()
        self._native.close()
        # After the native close: _pool() makes no new pool once closed.
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False)

    async def aclose(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    def __enter__(self) -> RockpointStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> RockpointStore:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # ---- batch -------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        plan = self._plan(ops)
        texts = list(plan.texts)
        text_vectors = self.embeddings.embed_documents(texts) if texts else []
        query_vectors = [
            self.embeddings.embed_query(query)  # type: ignore[union-attr]
            for query in plan.queries
        ]
        native_ops = plan.resolve(text_vectors, query_vectors)
        return self._results(plan, self._native.batch(native_ops, self._serde))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        plan = self._plan(ops)
        texts = list(plan.texts)
        text_vectors = await self.embeddings.aembed_documents(texts) if texts else []
        query_vectors = await asyncio.gather(
            *(self.embeddings.aembed_query(query) for query in plan.queries)  # type: ignore[union-attr]
        )
        native_ops = plan.resolve(text_vectors, query_vectors)
        raw = await asyncio.get_running_loop().run_in_executor(
            self._pool(), self._native.batch, native_ops, self._serde
        )
        return self._results(plan, raw)

    def _pool(self) -> concurrent.futures.ThreadPoolExecutor:
        executor = self._executor
        if executor is not None:
            return executor
        with self._lock:
            if self._native.closed:
                raise ClosedError("store is closed")
            if self._executor is None:
                self._executor = concurrent.futures.ThreadPoolExecutor(
                    max_workers=_WORKERS, thread_name_prefix="rockpoint-store"
                )
            return self._executor

    def _plan(self, ops: list[Op]) -> _Plan:
        """Checks every op (nothing runs when one is wrong) and prepares the
        engine's ops; as InMemoryStore, only the last put to a key is
        embedded (the engine keeps only it)."""
        plan = _Plan()
        # Per (namespace, key): the engine op index and op of its last put.
        last_put: dict[tuple[tuple[str, ...], str], tuple[int, PutOp] | None] = {}
        refresh_default = (self.ttl_config or {}).get("refresh_on_read", True)
        for i, op in enumerate(ops):
            if not isinstance(op, (GetOp, PutOp, SearchOp, ListNamespacesOp)):
                raise ValueError(f"Unknown operation type: {type(op)}")
            if isinstance(op, SearchOp):
                _namespace(op.namespace_prefix, "namespace_prefix")
            elif isinstance(op, ListNamespacesOp):
                for condition in op.match_conditions or ():
                    _namespace(condition.path, "match condition path")
            else:
                _namespace(op.namespace)
                if not isinstance(op.key, str):
                    raise TypeError(f"key must be a str, not {type(op.key).__name__}")
            validate_op_namespace(op)
            slot: int | None = len(plan.ops)
            if isinstance(op, GetOp):
                namespace = tuple(op.namespace)
                if _unstorable(namespace):
                    plan.local[i] = None
                    slot = None
                else:
                    refresh = op.refresh_ttl
                    if refresh is None:
                        refresh = refresh_default
                    plan.ops.append(["get", namespace, op.key, bool(refresh)])
            elif isinstance(op, PutOp):
                namespace = tuple(op.namespace)
                if op.value is None:
                    if _unstorable(namespace):  # nothing there to delete
                        plan.local[i] = None
                        slot = None
                    else:
                        plan.ops.append(["put", namespace, op.key, None, None, None])
                        last_put[(namespace, op.key)] = None
                else:
                    _check_put_namespace(namespace)
                    plan.ops.append(
                        [
                            "put",
                            namespace,
                            op.key,
                            self._value(op.value),
                            None,
                            self._ttl(op.ttl),
                        ]
                    )
                    last_put[(namespace, op.key)] = (len(plan.ops) - 1, op)
            elif isinstance(op, SearchOp):
                refresh = op.refresh_ttl
                if refresh is None:
                    refresh = refresh_default
                if op.filter is not None and not isinstance(op.filter, Mapping):
                    raise TypeError(
                        f"filter must be a dict or None, not {type(op.filter).__name__}"
                    )
                if op.query:
                    if not isinstance(op.query, str):
                        raise TypeError(
                            f"query must be a str or None, not {type(op.query).__name__}"
                        )
                    if self.embeddings is None:
                        # rockpoint refuses what InMemoryStore and SqliteStore
                        # silently ignore: a query they would not rank by.
                        raise ValueError(
                            "search(query=...) needs a store opened with an index "
                            "(index={'dims': ..., 'embed': ...}); this store has "
                            "none. Search without a query, or open the store with "
                            "an index."
                        )
                    plan.queries.setdefault(op.query, []).append(len(plan.ops))
                plan.ops.append(
                    [
                        "search",
                        tuple(op.namespace_prefix),
                        None if op.filter is None else dict(op.filter),
                        None,
                        op.limit,
                        op.offset,
                        bool(refresh),
                    ]
                )
            else:
                conditions = [
                    (condition.match_type, tuple(condition.path))
                    for condition in (op.match_conditions or ())
                ]
                plan.ops.append(["list", conditions, op.max_depth, op.limit, op.offset])
            plan.slots.append(slot)
        for last in last_put.values():
            if last is not None:
                self._texts(plan, *last)
        return plan

    @staticmethod
    def _value(value: Any) -> dict[str, Any]:
        if isinstance(value, dict):
            return value
        if isinstance(value, Mapping):
            return dict(value)
        raise TypeError(f"value must be a dict (a Mapping), not {type(value).__name__}")

    def _ttl(self, ttl: Any) -> float | str | None:
        """A put's TTL for the engine: "default" (the store's default_ttl),
        None (never) or minutes."""
        if ttl is NOT_PROVIDED:
            return "default"
        if ttl is None:
            return None
        if not _is_minutes(ttl):
            raise TypeError(
                f"ttl must be a number of minutes or None, not {type(ttl).__name__}"
            )
        return float(ttl)

    def _texts(self, plan: _Plan, index: int, op: PutOp) -> None:
        """Records what to embed for the put ``op`` (engine op ``index``):
        InMemoryStore's rule, fields "path" or "path.i" for several texts."""
        if self.index_config is None or self.embeddings is None or op.index is False:
            return
        if op.index is None:
            paths = self.index_config["__tokenized_fields"]  # type: ignore[typeddict-item]
        else:
            if not isinstance(op.index, (list, tuple)) or not all(
                isinstance(p, str) for p in op.index
            ):
                raise TypeError(
                    f"index must be False, None or a list of str paths, got {op.index!r}"
                )
            paths = [(ix, tokenize_path(ix)) for ix in op.index]
        fields: list[tuple[str, str]] = []
        for path, tokens in paths:
            texts = get_text_at_path(op.value, tokens)
            if len(texts) > 1:
                fields.extend((f"{path}.{i}", text) for i, text in enumerate(texts))
            elif texts:
                fields.append((path, texts[0]))
        # A field named twice (a path listed twice) keeps its last text.
        fields = list(dict(fields).items())
        for _, text in fields:
            plan.texts.setdefault(text, None)
        plan.put_fields[index] = fields

    @staticmethod
    def _results(plan: _Plan, raw: list[Any]) -> list[Result]:
        results: list[Result] = []
        for i, slot in enumerate(plan.slots):
            if slot is None:
                results.append(plan.local[i])
                continue
            kind = plan.ops[slot][0]
            answer = raw[slot]
            if kind == "get":
                results.append(
                    None
                    if answer is None
                    else Item(
                        namespace=answer[0],
                        key=answer[1],
                        value=answer[2],
                        created_at=_time(answer[3]),
                        updated_at=_time(answer[4]),
                    )
                )
            elif kind == "search":
                results.append(
                    [
                        SearchItem(
                            namespace=row[0],
                            key=row[1],
                            value=row[2],
                            created_at=_time(row[3]),
                            updated_at=_time(row[4]),
                            score=row[6],
                        )
                        for row in answer
                    ]
                )
            elif kind == "list":
                results.append(answer)
            else:
                results.append(None)
        return results

    def index_stats(self) -> dict[str, Any] | None:
        """The engine's vector index: {"vectors": how many it holds,
        "approximate_ready": whether its HNSW graph answers queries (built
        in the background once vectors exceed exact_search_max_vectors)};
        None without an index."""
        return self._native.index_stats()

    # ---- TTL ---------------------------------------------------------------

    def sweep_ttl(self) -> int:
        """Deletes every expired item now; returns how many. (Expired items
        are never returned, swept or not: sweeping frees their space.)"""
        return self._native.sweep()

    async def asweep_ttl(self) -> int:
        return await asyncio.get_running_loop().run_in_executor(
            self._pool(), self._native.sweep
        )

    def start_ttl_sweeper(
        self, sweep_interval_minutes: float | None = None
    ) -> concurrent.futures.Future[None]:
        """Sweeps expired items every ``sweep_interval_minutes`` (default:
        ttl['sweep_interval_minutes'], else 5) in a background thread, until
        stop_ttl_sweeper() or close(). As SqliteStore: without a ttl config
        it does nothing (a finished future); cancelling the future stops
        the sweeper."""
        if not self.ttl_config:
            future: concurrent.futures.Future[None] = concurrent.futures.Future()
            future.set_result(None)
            return future
        if self._ttl_sweeper_thread and self._ttl_sweeper_thread.is_alive():
            logger.info("TTL sweeper thread is already running")
            future = concurrent.futures.Future()
            future.add_done_callback(
                lambda f: self._ttl_stop_event.set() if f.cancelled() else None
            )
            return future
        interval = float(
            sweep_interval_minutes or self.ttl_config.get("sweep_interval_minutes") or 5
        )
        if interval <= 0:
            raise ValueError(f"sweep_interval_minutes must be > 0, got {interval}")
        stop = self._ttl_stop_event = threading.Event()
        future = concurrent.futures.Future()

        def sweep_loop() -> None:
            error: BaseException | None = None
            try:
                while not stop.wait(interval * 60):
                    try:
                        swept = self.sweep_ttl()
                        if swept:
                            logger.info("Store swept %d expired items", swept)
                    except ClosedError:
                        break
                    except Exception:
                        logger.exception("Store TTL sweep failed")
            except BaseException as caught:  # pragma: no cover - defensive
                error = caught
            # A cancelled future is already done.
            with contextlib.suppress(concurrent.futures.InvalidStateError):
                if error is None:
                    future.set_result(None)
                else:
                    future.set_exception(error)

        thread = threading.Thread(
            target=sweep_loop, daemon=True, name="rockpoint-ttl-sweeper"
        )
        self._ttl_sweeper_thread = thread
        thread.start()
        future.add_done_callback(lambda f: stop.set() if f.cancelled() else None)
        return future

    def stop_ttl_sweeper(self, timeout: float | None = None) -> bool:
        """Stops the sweeper thread (waiting up to ``timeout`` seconds for a
        sweep in progress). True when it stopped or was not running."""
        thread = self._ttl_sweeper_thread
        if thread is None or not thread.is_alive():
            self._ttl_sweeper_thread = None
            return True
        self._ttl_stop_event.set()
        if thread is threading.current_thread():
            return False
        thread.join(timeout)
        if thread.is_alive():
            logger.warning("Timed out waiting for the TTL sweeper thread to stop")
            return False
        self._ttl_sweeper_thread = None
        return True


__all__ = ["RockpointANNConfig", "RockpointIndexConfig", "RockpointStore"]
