"""The TTL sweeper of RockpointStore: a daemon thread that deletes the
expired items every few minutes (start_ttl_sweeper / stop_ttl_sweeper).

Expired items are never returned, swept or not; sweeping frees their space.
The store keeps the thread and its stop event; this module runs the loop.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import threading
from collections.abc import Callable

from langgraph.checkpoint.rockpoint.errors import ClosedError

# The store's logger (its messages kept their name when this module was
# split from base.py).
logger = logging.getLogger("langgraph.store.rockpoint.base")


def start_sweeper(
    sweep: Callable[[], int], interval_minutes: float, stop: threading.Event
) -> tuple[threading.Thread, concurrent.futures.Future[None]]:
    """Starts a daemon thread ("rockpoint-ttl-sweeper") that calls ``sweep``
    every ``interval_minutes`` until ``stop`` is set or ``sweep`` raises
    ClosedError (the store closed); another error of a sweep is logged and
    the loop goes on. Returns the thread and a future that is done when the
    thread ends; cancelling the future sets ``stop``."""
    future: concurrent.futures.Future[None] = concurrent.futures.Future()

    def sweep_loop() -> None:
        error: BaseException | None = None
        try:
            while not stop.wait(interval_minutes * 60):
                try:
                    swept = sweep()
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
    thread.start()
    future.add_done_callback(lambda f: stop.set() if f.cancelled() else None)
    return thread, future
