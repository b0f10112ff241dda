"""The state that a RockpointSaver shares with its copies.

copy.copy(saver) (as BaseCheckpointSaver.with_allowlist does) copies the
attribute that points here, so every copy uses one native store, one thread
pool, and closing any of them closes the store once.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from langgraph.checkpoint.rockpoint import _native
from langgraph.checkpoint.rockpoint.errors import ClosedError
from langgraph.checkpoint.rockpoint.retention import Retention

# Python threads for the async calls that LoopCalls does not serve (alist,
# the maintenance calls). Concurrent fsyncing writes share one WAL fsync
# (RocksDB group commit), so more threads than cores pay off for them.
_WORKERS = 16


class LoopCalls:
    """The native async calls of one event loop (the native async_calls.h).

    A call's arguments are converted on the loop's thread, the engine runs it
    on the store's native workers, and the loop reads the outcomes from an
    eventfd it watches: no thread hop and no GIL taken off the loop.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # No reference to the loop: SharedStore keys these by a weak
        # reference to it, and the loop's reader is what keeps this alive.
        self._done = _native.Completions()
        self._waiting: dict[int, tuple[asyncio.Future[Any], Any]] = {}
        self._tickets = itertools.count()
        loop.add_reader(self._done.fd, self._drain)

    def start(self, call: Callable[..., None], *args: Any, serde: Any = None):
        """A future of ``call(completions, ticket, *args)``, a native *_async
        method; raises at once (with nothing started) for bad arguments.
        ``serde`` converts the result (get_tuple's tuples)."""
        ticket = next(self._tickets)
        call(self._done, ticket, *args)
        future = asyncio.get_running_loop().create_future()
        self._waiting[ticket] = (future, serde)
        return future

    def close(self, loop: asyncio.AbstractEventLoop) -> None:
        """Settles the calls that finished and stops watching, which frees
        the eventfd. On the loop's thread, once the store's workers are
        stopped (every call started has then finished)."""
        self._drain()
        loop.remove_reader(self._done.fd)

    def _drain(self) -> None:
        for ticket, outcome in self._done.drain():
            future, serde = self._waiting.pop(ticket)
            if future.done():  # cancelled: the call still ran
                continue
            try:
                future.set_result(outcome.result(serde))
            except Exception as error:  # noqa: BLE001 - the call's own error
                future.set_exception(error)


class SharedStore:
    """One open native store, its path, its retention policy (None: no
    sweeper), the LoopCalls of each event loop that used it, and the thread
    pool of the other async calls."""

    def __init__(
        self, native: _native.Store, path: str, retention: Retention | None = None
    ) -> None:
        self.native = native
        self.path = path
        self.retention = retention
        self._lock = threading.Lock()
        self._executor: ThreadPoolExecutor | None = None
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, LoopCalls] = (
            weakref.WeakKeyDictionary()
        )
        self._closed = False

    def loop_calls(self) -> LoopCalls:
        """The LoopCalls of the running event loop, created on first use.
        Raises ClosedError once closed."""
        loop = asyncio.get_running_loop()
        calls = self._loops.get(loop)
        if calls is None or self._closed:
            with self._lock:
                if self._closed:
                    raise ClosedError("the saver is closed")
                calls = self._loops.get(loop)
                if calls is None:
                    calls = self._loops[loop] = LoopCalls(loop)
        return calls

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
        # Loops outlive savers: each must stop watching this store's eventfd.
        for loop, calls in list(self._loops.items()):
            _call_on(loop, calls.close, loop)
        self._loops.clear()


def _call_on(
    loop: asyncio.AbstractEventLoop, fn: Callable[..., None], *args: Any
) -> None:
    """fn(*args) on `loop`'s thread: now when it is this thread's running
    loop, else at the loop's next turn; never on a closed loop (its readers
    went with it)."""
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if loop is running:
        fn(*args)
        return
    with contextlib.suppress(RuntimeError):  # the loop is closed
        loop.call_soon_threadsafe(fn, *args)
