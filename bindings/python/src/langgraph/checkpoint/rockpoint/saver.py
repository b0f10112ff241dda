"""RockpointSaver: LangGraph's BaseCheckpointSaver on rockpoint's engine.

Drop-in for InMemorySaver / SqliteSaver:

    with RockpointSaver.open("./checkpoints") as checkpointer:
        graph = builder.compile(checkpointer=checkpointer)

Channel values, pending writes, pending sends and delta snapshots go through
``self.serde`` (``dumps_typed`` / ``loads_typed``) and are stored as opaque
typed blobs, so any serializer (EncryptedSerializer included) works as is.
Metadata is stored as a structured value the engine compares, so
``list(filter=...)`` is answered in the engine with Python's equality
(``{"step": 1.0}`` matches a stored ``1``; ``True`` matches ``1``). A filter
value of ``None`` matches a stored ``None`` and a missing key, as in
InMemorySaver.

Retention: ``open(path, retention=Retention(...))`` (or a LangGraph TTL
config mapping) runs a background sweeper that expires old checkpoints;
``sweep()`` runs one pass on demand (retention.py).

Encryption at rest: ``open(path, encryption_key=KEY)`` (32 bytes, or 64 hex
digits) seals every record (checkpoints with their metadata, channel values,
writes) with AES-256-GCM in the engine (docs/ENCRYPTION.md). ``None`` (the
default) is a plaintext store; ROCKPOINT_AES_KEY is never read implicitly.

Thread-safety: one saver (and its copies) may be called from many threads
and asyncio tasks at once. A RocksDB store directory is held by one process
at a time; a second process gets BusyError naming the lock.
"""

from __future__ import annotations

import asyncio
import os
import random
import re
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from datetime import datetime, timedelta, timezone
from functools import partial
from typing import Any, TypeVar

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import (
    BaseCheckpointSaver,
    ChannelVersions,
    Checkpoint,
    CheckpointMetadata,
    CheckpointTuple,
    DeltaChannelHistory,
    get_checkpoint_metadata,
)
from langgraph.checkpoint.serde.base import SerializerProtocol

from langgraph.checkpoint.rockpoint import _native
from langgraph.checkpoint.rockpoint._shared import SharedStore
from langgraph.checkpoint.rockpoint.errors import BusyError, InvalidArgumentError
from langgraph.checkpoint.rockpoint.retention import (
    Retention,
    RetentionReport,
    resolve,
)

MEMORY = ":memory:"

# list() fetches tuples in batches: the first with the call (a short list is
# one engine call), then growing up to _MAX_BATCH.
_FIRST_BATCH = 16
_MAX_BATCH = 256

T = TypeVar("T")

_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)
_MICROSECOND = timedelta(microseconds=1)


def _micros_since_epoch(now: datetime | None) -> int:
    """``now`` (default: the current time; naive: UTC) in microseconds since
    the Unix epoch, the engine's clock."""
    if now is None:
        now = datetime.now(timezone.utc)
    elif not isinstance(now, datetime):
        raise TypeError(f"now must be a datetime or None, got {type(now).__name__}")
    elif now.tzinfo is None or now.utcoffset() is None:
        now = now.replace(tzinfo=timezone.utc)
    return (now - _EPOCH) // _MICROSECOND


# An AES-256 key: 32 bytes, or as text 64 hex digits (the engine's
# ParseEncryptionKey, which ignores surrounding spaces, tabs and newlines).
_KEY_BYTES = 32
_KEY_SPACE = " \t\r\n"
_HEX_KEY = re.compile(r"[0-9a-fA-F]{64}")


_URL_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")


def _refuse_url(path: Any) -> None:
    """ValueError when ``path`` is a URL (postgresql://...): open() takes the
    directory of a RocksDB store, and would otherwise try to create one
    named like the URL."""
    if isinstance(path, str) and _URL_SCHEME.match(path):
        scheme = path.split("://", 1)[0]
        raise ValueError(
            f"RockpointSaver.open takes a RocksDB store directory, not a "
            f"{scheme}:// URL. For a PostgreSQL database, use LangGraph's "
            f"PostgresSaver on it (the rockpoint CLI reads and maintains the "
            f"same tables: rockpoint --store URL ...)"
        )


def _check_encryption_key(
    key: bytes | bytearray | str | None,
) -> bytes | bytearray | str | None:
    """``key`` as the engine takes it (str: trimmed), or None; TypeError or
    ValueError otherwise. No message repeats the key."""
    if key is None:
        return None
    if isinstance(key, (bytes, bytearray)):
        if len(key) != _KEY_BYTES:
            raise ValueError(
                f"encryption_key as bytes must be exactly {_KEY_BYTES} bytes, "
                f"not {len(key)} (or pass 64 hex digits as a str)"
            )
        return key
    if isinstance(key, str):
        text = key.strip(_KEY_SPACE)
        if len(text) != 2 * _KEY_BYTES:
            raise ValueError(
                "encryption_key as str must be 64 hex digits (32 bytes), "
                f"not {len(text)} characters"
            )
        if _HEX_KEY.fullmatch(text) is None:
            raise ValueError(
                "encryption_key as str must be 64 hex digits: found a "
                "character that is not one"
            )
        return text
    raise TypeError(
        "encryption_key must be bytes (32), str (64 hex digits) or None, "
        f"not {type(key).__name__}"
    )


def _split_filter(
    filter: dict[str, Any] | None,
) -> tuple[dict[str, Any] | None, list[str]]:
    """(the engine's filter, keys that must be None or missing).

    The engine compares values exactly; "None matches a missing key" is the
    one Python-side rule, applied after the engine's filter.
    """
    if not filter:
        return None, []
    missing = [key for key, value in filter.items() if value is None]
    if not missing:
        return filter, []
    return {k: v for k, v in filter.items() if v is not None}, missing


def _matches_missing(tuple_: CheckpointTuple, keys: list[str]) -> bool:
    metadata = tuple_.metadata
    return all(metadata.get(key) is None for key in keys)


class _Pages:
    """The paging rule of list() and alist(): each batch is filtered by the
    keys the engine cannot compare (`missing`), at most `limit` tuples are
    taken in all, and each next batch asked for is 4x larger, up to
    _MAX_BATCH."""

    def __init__(self, missing: list[str], limit: int | None) -> None:
        self.missing = missing
        self.left = limit
        self.batch = _FIRST_BATCH if limit is None else min(limit, _MAX_BATCH)

    def take(self, tuples: list[CheckpointTuple]) -> list[CheckpointTuple]:
        taken = []
        for tuple_ in tuples:
            if self.missing and not _matches_missing(tuple_, self.missing):
                continue
            if self.left is not None:
                if self.left <= 0:
                    break
                self.left -= 1
            taken.append(tuple_)
        return taken

    def more(self, tuples: list[CheckpointTuple]) -> bool:
        """Whether a cursor may hold tuples after the batch `tuples` and
        more are wanted; grows the batch size when so."""
        if len(tuples) < self.batch:
            return False
        if self.left is not None and self.left <= 0:
            return False
        self.batch = min(self.batch * 4, _MAX_BATCH)
        return True


class RockpointSaver(BaseCheckpointSaver[str]):
    """A checkpoint saver on a RocksDB store directory or in memory.

    Create one with ``RockpointSaver.open(path)`` or ``RockpointSaver.memory()``.
    Close it with ``close()`` or use it as a (async) context manager.
    """

    _shared: SharedStore

    def __init__(
        self, shared: SharedStore, *, serde: SerializerProtocol | None = None
    ) -> None:
        super().__init__(serde=serde)
        self._shared = shared

    # ---- opening and closing ---------------------------------------------

    @classmethod
    def open(
        cls,
        path: str,
        *,
        sync_writes: bool = True,
        create_if_missing: bool = True,
        read_only: bool = False,
        serde: SerializerProtocol | None = None,
        blob_file_min_bytes: int = 64 << 10,
        block_cache_bytes: int = 64 << 20,
        retention: Retention | Mapping[str, Any] | None = None,
        encryption_key: bytes | bytearray | str | None = None,
    ) -> RockpointSaver:
        """Opens (or creates) the RocksDB store in directory ``path``.

        ``sync_writes``: every put / put_writes returns only after the
        write-ahead log is fsynced (concurrent writers share fsyncs).
        ``retention``: a Retention, or a LangGraph TTL config mapping
        (Retention.from_ttl); the store then runs a sweeper that applies it
        every ``sweep_interval`` until close(). ValueError with
        ``read_only``. Raises BusyError if another process holds the store.

        ``encryption_key``: the AES-256 key of an encrypted store, as 32
        ``bytes`` (or ``bytearray``) or a ``str`` of 64 hex digits
        (surrounding whitespace ignored). A new store is created encrypted;
        an existing one must be encrypted under this key. ``None`` (the
        default): a plaintext store; the environment variable
        ROCKPOINT_AES_KEY is not read (pass ``os.environ[...]`` yourself).
        A key of another type is a TypeError, of another size or with a
        non-hex digit a ValueError, both before anything is opened.
        InvalidArgumentError from the engine: a wrong key, no key for an
        encrypted store, or a key for a plaintext store that holds records
        (encrypt it with ``rockpoint rekey``). A record that does not
        authenticate when read (tampered, moved, truncated) is
        CorruptionError.
        """
        _refuse_url(path)
        key = _check_encryption_key(encryption_key)
        policy = resolve(retention)
        if policy is not None and read_only:
            raise ValueError(
                "retention needs a writable store: open it without read_only "
                "(sweep(..., dry_run=True) still reports)"
            )
        try:
            native = _native.Store.open_rocksdb(
                str(path),
                sync_writes,
                create_if_missing,
                read_only,
                blob_file_min_bytes,
                block_cache_bytes,
                None if policy is None else policy._native(),
                key,
            )
        except BusyError as error:
            lock = os.path.join(str(path), "LOCK")
            raise BusyError(
                f"{error} (the lock is the RocksDB lock file {lock}; "
                "close the saver that holds it)"
            ) from None
        except InvalidArgumentError as error:
            if key is None and str(error).startswith("the store is encrypted"):
                # The engine's message names its C++ and CLI options.
                raise InvalidArgumentError(
                    f"the store is encrypted: give its key, "
                    f"RockpointSaver.open(path, encryption_key=...) "
                    f"(ROCKPOINT_AES_KEY is not read implicitly): {path}"
                ) from None
            raise
        return cls(SharedStore(native, str(path), policy), serde=serde)

    @classmethod
    def memory(
        cls,
        *,
        serde: SerializerProtocol | None = None,
        retention: Retention | Mapping[str, Any] | None = None,
        encryption_key: None = None,
    ) -> RockpointSaver:
        """An in-memory saver (the engine's reference backend); ``retention``
        as with open(). It holds nothing at rest, so it takes no
        ``encryption_key``: passing one is a ValueError."""
        if encryption_key is not None:
            raise ValueError(
                "encryption_key is for a store on disk (RockpointSaver.open"
                "(path, encryption_key=...)): a memory saver holds nothing "
                "at rest and is never encrypted"
            )
        policy = resolve(retention)
        native = _native.Store.open_memory(None if policy is None else policy._native())
        return cls(SharedStore(native, MEMORY, policy), serde=serde)

    @property
    def path(self) -> str:
        """The store directory, or ":memory:"."""
        return self._shared.path

    @property
    def retention(self) -> Retention | None:
        """The policy the background sweeper applies, or None (no sweeper)."""
        return self._shared.retention

    @property
    def closed(self) -> bool:
        return self._shared.closed

    def close(self) -> None:
        """Waits for calls in flight, ends open list() iterations, stops the
        retention sweeper (waiting for a sweep in progress) and closes the
        store (releasing its lock). Later calls raise ClosedError.
        Idempotent, and shared by copies of this saver."""
        self._shared.close()

    async def aclose(self) -> None:
        await asyncio.get_running_loop().run_in_executor(None, self.close)

    def __enter__(self) -> RockpointSaver:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    async def __aenter__(self) -> RockpointSaver:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    # ---- sync API ----------------------------------------------------------

    def get_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        return self._shared.native.get_tuple(config, self.serde)

    def list(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> Iterator[CheckpointTuple]:
        native_filter, missing = _split_filter(filter)
        # With a Python-side rule the engine cannot apply the limit.
        native_limit = None if missing else limit
        pages = _Pages(missing, limit)
        tuples, cursor = self._shared.native.list(
            config, native_filter, before, native_limit, pages.batch, self.serde
        )
        return self._iterate(tuples, cursor, pages)

    def _iterate(
        self,
        tuples: list[CheckpointTuple],
        cursor: _native.Cursor | None,
        pages: _Pages,
    ) -> Iterator[CheckpointTuple]:
        try:
            while True:
                yield from pages.take(tuples)
                if cursor is None or not pages.more(tuples):
                    return
                tuples = cursor.next(pages.batch, self.serde)
        finally:
            if cursor is not None:
                cursor.close()

    def put(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        return self._shared.native.put(
            *self._put_args(config, checkpoint, metadata, new_versions)
        )

    def _put_args(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> tuple[Any, ...]:
        """The native put's arguments, for put and aput alike."""
        return (
            config,
            checkpoint,
            get_checkpoint_metadata(config, metadata),
            new_versions,
            self.serde,
        )

    def put_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        self._shared.native.put_writes(config, writes, task_id, task_path, self.serde)

    def delete_thread(self, thread_id: str) -> None:
        self._shared.native.delete_thread(thread_id)

    def delete_for_runs(self, run_ids: Sequence[str]) -> None:
        """Deletes every checkpoint whose metadata run_id is in ``run_ids``,
        keeping out of sight what surviving delta histories still need."""
        self._shared.native.delete_for_runs(run_ids)

    def copy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        """Copies every checkpoint, value and write (the full parent chain)."""
        self._shared.native.copy_thread(source_thread_id, target_thread_id)

    def prune(
        self,
        thread_ids: Sequence[str],
        *,
        strategy: str = "keep_latest",
        keep_last: int = 1,
    ) -> None:
        """Per (thread, namespace): keeps the newest ``keep_last`` checkpoints
        and every ancestor their delta channels still need ("keep_latest"),
        or deletes everything ("delete")."""
        self._shared.native.prune(thread_ids, strategy, keep_last)

    def sweep(
        self,
        retention: Retention | Mapping[str, Any] | None = None,
        *,
        now: datetime | None = None,
        dry_run: bool = False,
    ) -> RetentionReport:
        """One retention pass over every thread, now: ``retention`` (default:
        the saver's own policy) applied at ``now`` (default: the current
        time; a naive datetime is UTC). With ``dry_run`` nothing changes and
        the report is what the same pass would expire. Each batch of
        ``sweep_batch_threads`` threads is applied atomically; survivors read
        exactly as before. ValueError without a policy."""
        policy = resolve(retention)
        if policy is None:
            policy = self.retention
        if policy is None:
            raise ValueError(
                "sweep needs a retention policy: pass one, or open the saver "
                "with retention=..."
            )
        report = self._shared.native.sweep(
            policy._native(), _micros_since_epoch(now), dry_run
        )
        return RetentionReport(**report)

    def get_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        """Per channel: the writes since its nearest stored value (the seed),
        walking parent links, answered by the engine in one call."""
        return self._shared.native.delta_history(config, channels, self.serde)

    def get_next_version(self, current: str | int | None, channel: None = None) -> str:
        """``"<32-digit counter>.<random>"``, as InMemorySaver.

        The engine stores one value per (thread, namespace, channel,
        version), so versions must differ between branches of a thread: an
        integer counter would collide when a graph is replayed from an older
        checkpoint. The fixed-width counter keeps string order = step order.
        """
        if current is None:
            counter = 0
        elif isinstance(current, int):
            counter = current
        else:
            counter = int(str(current).split(".")[0])
        return f"{counter + 1:032}.{random.random():016}"

    # ---- async API ---------------------------------------------------------
    # Calls that may wait on the disk run off the loop: writes with
    # sync_writes (the WAL fsync) and every RocksDB read (block cache misses).
    # put, put_writes and get_tuple run on the store's native workers and
    # finish on the loop without a thread hop (_shared.LoopCalls); list and
    # the maintenance calls run on the store's thread pool. Calls that
    # cannot wait (the memory store; RocksDB writes without fsync, which go
    # to the memtable and the OS page cache) run inline: any hop costs more
    # than the call.

    def _writes_inline(self) -> bool:
        return self._shared.native.writes_inline

    def _reads_inline(self) -> bool:
        return self._shared.native.kind == "memory"

    async def _off_loop(self, fn: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._shared.executor, fn, *args)

    async def aget_tuple(self, config: RunnableConfig) -> CheckpointTuple | None:
        if self._reads_inline():
            return self.get_tuple(config)
        native = self._shared.native
        calls = self._shared.loop_calls()
        return await calls.start(native.get_tuple_async, config, serde=self.serde)

    async def alist(
        self,
        config: RunnableConfig | None,
        *,
        filter: dict[str, Any] | None = None,
        before: RunnableConfig | None = None,
        limit: int | None = None,
    ) -> AsyncIterator[CheckpointTuple]:
        native_filter, missing = _split_filter(filter)
        native_limit = None if missing else limit
        pages = _Pages(missing, limit)
        native = self._shared.native
        call = partial(
            native.list,
            config,
            native_filter,
            before,
            native_limit,
            pages.batch,
            self.serde,
        )
        if self._reads_inline():
            tuples, cursor = call()
        else:
            tuples, cursor = await self._off_loop(call)
        try:
            while True:
                for tuple_ in pages.take(tuples):
                    yield tuple_
                if cursor is None or not pages.more(tuples):
                    return
                if self._reads_inline():
                    tuples = cursor.next(pages.batch, self.serde)
                else:
                    tuples = await self._off_loop(cursor.next, pages.batch, self.serde)
        finally:
            if cursor is not None:
                cursor.close()

    async def aput(
        self,
        config: RunnableConfig,
        checkpoint: Checkpoint,
        metadata: CheckpointMetadata,
        new_versions: ChannelVersions,
    ) -> RunnableConfig:
        if self._writes_inline():
            return self.put(config, checkpoint, metadata, new_versions)
        return await self._shared.loop_calls().start(
            self._shared.native.put_async,
            *self._put_args(config, checkpoint, metadata, new_versions),
        )

    async def aput_writes(
        self,
        config: RunnableConfig,
        writes: Sequence[tuple[str, Any]],
        task_id: str,
        task_path: str = "",
    ) -> None:
        if self._writes_inline():
            return self.put_writes(config, writes, task_id, task_path)
        await self._shared.loop_calls().start(
            self._shared.native.put_writes_async,
            config,
            writes,
            task_id,
            task_path,
            self.serde,
        )

    async def adelete_thread(self, thread_id: str) -> None:
        await self._maintenance(self.delete_thread, thread_id)

    async def adelete_for_runs(self, run_ids: Sequence[str]) -> None:
        await self._maintenance(self.delete_for_runs, list(run_ids))

    async def acopy_thread(self, source_thread_id: str, target_thread_id: str) -> None:
        await self._maintenance(self.copy_thread, source_thread_id, target_thread_id)

    async def aprune(
        self,
        thread_ids: Sequence[str],
        *,
        strategy: str = "keep_latest",
        keep_last: int = 1,
    ) -> None:
        await self._maintenance(
            partial(self.prune, strategy=strategy, keep_last=keep_last),
            list(thread_ids),
        )

    async def asweep(
        self,
        retention: Retention | Mapping[str, Any] | None = None,
        *,
        now: datetime | None = None,
        dry_run: bool = False,
    ) -> RetentionReport:
        """sweep(), off the event loop."""
        return await self._maintenance(
            partial(self.sweep, retention, now=now, dry_run=dry_run)
        )

    async def _maintenance(self, fn: Any, *args: Any) -> Any:
        """Multi-key changes: inline on the memory store, else off the loop
        (they read and may fsync). Returns fn's result."""
        if self._reads_inline():
            return fn(*args)
        return await self._off_loop(fn, *args)

    async def aget_delta_channel_history(
        self, *, config: RunnableConfig, channels: Sequence[str]
    ) -> Mapping[str, DeltaChannelHistory]:
        if self._reads_inline():
            return self.get_delta_channel_history(config=config, channels=channels)
        return await self._off_loop(
            partial(self.get_delta_channel_history, config=config, channels=channels)
        )
