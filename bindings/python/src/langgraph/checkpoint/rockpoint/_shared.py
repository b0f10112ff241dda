"""The state that a RockpointSaver shares with its copies.

copy.copy(saver) (as BaseCheckpointSaver.with_allowlist does) copies the
attribute that points here, so every copy uses one native store, one thread
pool, and closing any of them closes the store once.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

from langgraph.checkpoint.rockpoint import _native
from langgraph.checkpoint.rockpoint.errors import ClosedError
from langgraph.checkpoint.rockpoint.retention import Retention

# Worker threads for calls run off the event loop. Concurrent fsyncing
# writers share one WAL fsync (RocksDB group commit), so more workers than
# cores pay off for writes.
_WORKERS = 16


class SharedStore:
    """One open native store, its path, its retention policy (None: no
    sweeper), and the pool async calls run on."""

    def __init__(
        self, native: _native.Store, path: str, retention: Retention | None = None
    ) -> None:
        self.native = native
        self.path = path
        self.retention = retention
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._closed = False

    @property
    def executor(self) -> ThreadPoolExecutor:
        """The pool, created on first use. Raises ClosedError once closed."""
        executor = self._executor
        if executor is not None:
            return executor
        with self._lock:
            if self._closed:
                raise ClosedError("the saver is closed")
            if self._executor is None:
                self._executor = ThreadPoolExecutor(
                    max_workers=_WORKERS, thread_name_prefix="rockpoint"
                )
            return self._executor

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Waits for engine calls in flight, then closes. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            executor, self._executor = self._executor, None
        self.native.close()
        if executor is not None:
            executor.shutdown(wait=False)
