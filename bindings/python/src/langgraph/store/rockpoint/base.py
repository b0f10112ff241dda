"""RockpointStore: LangGraph's BaseStore (long-term memory) on rockpoint.

Drop-in for InMemoryStore / SqliteStore, durable on RocksDB:

    from langgraph.store.rockpoint import RockpointStore

    with RockpointStore.open("./memory") as store:
        graph = builder.compile(checkpointer=checkpointer, store=store)

The engine (rockpoint/store.h) keeps the items, their expiry and their
vectors, answers filters and cosine top-k; this class computes the
embeddings (``index``), exactly as InMemoryStore chooses what to embed, and
turns the engine's answers into LangGraph's Item / SearchItem.

This module keeps the class: opening and closing, batch / abatch, TTL. Its
parts live beside it: _config.py (the ``index`` and ``ttl`` options),
_ops.py (LangGraph's ops to the engine's, and its answers back), _embed.py
(what to embed and the embedding calls), _sweeper.py (the TTL sweeper
thread).

Thread-safety: one store may be used from many threads and asyncio tasks at
once. A RocksDB directory is held by one process at a time (BusyError).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import os
import re
import threading
from collections.abc import Iterable
from typing import Any

from langchain_core.embeddings import Embeddings
from langgraph.checkpoint.serde.base import SerializerProtocol
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.store.base import (
    BaseStore,
    IndexConfig,
    Op,
    Result,
    TTLConfig,
)

from langgraph.checkpoint.rockpoint import _native
from langgraph.checkpoint.rockpoint.errors import ClosedError
from langgraph.store.rockpoint._config import (
    RockpointANNConfig,
    RockpointIndexConfig,
    ann_options,
    check_index_config,
    check_ttl_config,
)
from langgraph.store.rockpoint._embed import aembed_plan, embed_plan
from langgraph.store.rockpoint._ops import Plan, plan_batch, to_results
from langgraph.store.rockpoint._sweeper import start_sweeper

logger = logging.getLogger(__name__)

MEMORY = ":memory:"

# Python threads for abatch's engine calls. A write that waits for its fsync
# holds no GIL, so more threads than cores pay off.
_WORKERS = 8

_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


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
        ttl_config = check_ttl_config(ttl)
        index_config, embeddings, dims = check_index_config(index)
        ann = ann_options(index_config)
        ttl_options = ttl_config or {}
        native = _native.ItemStore.open(
            url,
            sync_writes=bool(sync_writes),
            read_only=bool(read_only),
            create_if_missing=bool(create_if_missing),
            dims=dims,
            default_ttl_minutes=ttl_options.get("default_ttl"),
            refresh_on_read=ttl_options.get("refresh_on_read", True),
            **ann,
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
        plan = self._plan(ops)
        native_ops = embed_plan(plan, self.embeddings)
        return to_results(plan, self._native.batch(native_ops, self._serde))

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        plan = self._plan(ops)
        native_ops = await aembed_plan(plan, self.embeddings)
        raw = await asyncio.get_running_loop().run_in_executor(
            self._pool(), self._native.batch, native_ops, self._serde
        )
        return to_results(plan, raw)

    def _plan(self, ops: Iterable[Op]) -> Plan:
        """The batch ``ops`` checked and prepared with this store's index,
        embeddings and TTL settings (_ops.plan_batch)."""
        return plan_batch(
            list(ops),
            index_config=self.index_config,
            embeddings=self.embeddings,
            ttl_config=self.ttl_config,
        )

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
        self._ttl_sweeper_thread, future = start_sweeper(self.sweep_ttl, interval, stop)
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
