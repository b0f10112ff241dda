"""Retention: how long a RockpointSaver keeps checkpoints.

A Retention is the engine's RetentionPolicy (docs/CONTRACT.md, "Retention"),
applied per (thread, namespace) over its visible checkpoints, newest first:

- ``max_idle``: every checkpoint of a thread expires once the thread's newest
  checkpoint (in any namespace) is older than ``now - max_idle``;
- ``max_age``: a checkpoint expires once it is older than ``now - max_age``;
- ``keep_last`` alone keeps the newest N; with ``max_idle`` or ``max_age`` it
  is a floor: the newest N never expire.

A checkpoint's age is its ``ts`` (ISO-8601, as LangGraph writes it); one
whose ``ts`` does not parse never expires by age. Expiring is delta-safe:
what a surviving checkpoint's delta channels still need stays, hidden.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from langgraph.checkpoint.rockpoint import _native

# The shape of LangGraph platform's checkpointer TTL config (langgraph.json
# "checkpointer": {"ttl": ...}) that Retention.from_ttl reads.
_TTL_KEYS = ("strategy", "default_ttl", "sweep_interval_minutes")
_TTL_STRATEGIES = ("delete", "keep_latest")

_SECOND = timedelta(seconds=1)
_MILLISECOND = timedelta(milliseconds=1)


def _whole_units(duration: timedelta, unit: timedelta) -> int:
    """``duration`` in whole ``unit``s, a fraction rounded away from zero
    (exact: no float): up for a positive duration, so nothing expires before
    its time; down for a negative one, which stays negative for the engine
    to refuse."""
    if duration < timedelta(0):
        return duration // unit
    return -(-duration // unit)


def _check_duration(name: str, value: timedelta | None, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not isinstance(value, timedelta):
        raise TypeError(
            f"{name} must be a datetime.timedelta, got {type(value).__name__}"
        )


def _check_count(name: str, value: int | None, *, optional: bool) -> None:
    if value is None and optional:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")


@dataclass(frozen=True, kw_only=True)
class Retention:
    """A retention policy: at least one of ``max_age``, ``max_idle`` and
    ``keep_last``.

    ``sweep_interval``: how often the saver's background sweeper runs (the
    first sweep one interval after opening). ``sweep_batch_threads``: threads
    per engine transaction of a sweep (the most a sweep locks at a time).

    The engine counts ``max_age`` and ``max_idle`` in whole seconds and
    ``sweep_interval`` in whole milliseconds; a fraction is rounded up, so
    nothing expires before its time.

    Raises TypeError for a field of the wrong type, and InvalidArgumentError
    (a ValueError) with the engine's message, naming the field, for a policy
    the engine's ValidateRetentionPolicy refuses: one that expires nothing, a
    negative duration, ``keep_last`` or ``sweep_batch_threads`` below 1, or a
    ``sweep_interval`` that is not positive.
    """

    max_age: timedelta | None = None
    max_idle: timedelta | None = None
    keep_last: int | None = None
    sweep_interval: timedelta = timedelta(minutes=10)
    sweep_batch_threads: int = 64

    def __post_init__(self) -> None:
        _check_duration("max_age", self.max_age, optional=True)
        _check_duration("max_idle", self.max_idle, optional=True)
        _check_count("keep_last", self.keep_last, optional=True)
        _check_duration("sweep_interval", self.sweep_interval, optional=False)
        _check_count("sweep_batch_threads", self.sweep_batch_threads, optional=False)
        _native.validate_retention(self._native())

    @classmethod
    def from_ttl(cls, ttl: Mapping[str, Any]) -> Retention:
        """The policy of LangGraph platform's checkpointer TTL config:
        ``{"strategy": "delete" | "keep_latest", "default_ttl": <minutes>,
        "sweep_interval_minutes": <minutes>}``.

        ``"delete"`` (the default strategy) deletes a thread whole once it
        has been idle for ``default_ttl``: ``max_idle``. ``"keep_latest"``
        keeps such a thread's latest checkpoint (and what its delta channels
        need): ``max_idle`` with ``keep_last=1``. ``default_ttl`` is
        required; ``sweep_interval_minutes`` defaults to Retention's 10
        minutes. Raises ValueError for an unknown key or strategy, a missing
        ``default_ttl`` or a value that is not a finite number.
        """
        if not isinstance(ttl, Mapping):
            raise TypeError(f"ttl must be a mapping, got {type(ttl).__name__}")
        unknown = sorted(str(key) for key in ttl if key not in _TTL_KEYS)
        if unknown:
            note = (
                " (a sweep visits every thread: sweep_limit has no counterpart)"
                if "sweep_limit" in unknown
                else ""
            )
            raise ValueError(
                f"unknown TTL key(s) {', '.join(map(repr, unknown))}: "
                f"expected {', '.join(_TTL_KEYS)}{note}"
            )
        strategy = ttl.get("strategy", "delete")
        if strategy not in _TTL_STRATEGIES:
            raise ValueError(
                f"TTL strategy must be 'delete' or 'keep_latest', got {strategy!r}"
            )
        if ttl.get("default_ttl") is None:
            raise ValueError("TTL default_ttl (minutes) is required")
        max_idle = _minutes("default_ttl", ttl["default_ttl"])
        fields: dict[str, Any] = {"max_idle": max_idle}
        if strategy == "keep_latest":
            fields["keep_last"] = 1
        if ttl.get("sweep_interval_minutes") is not None:
            fields["sweep_interval"] = _minutes(
                "sweep_interval_minutes", ttl["sweep_interval_minutes"]
            )
        return cls(**fields)

    def _native(self) -> tuple[int | None, int | None, int | None, int, int]:
        """The engine's form (_native.pyi, RetentionSpec): (max_idle s,
        max_age s, keep_last, sweep_interval ms, sweep_batch_threads)."""
        return (
            None if self.max_idle is None else _whole_units(self.max_idle, _SECOND),
            None if self.max_age is None else _whole_units(self.max_age, _SECOND),
            self.keep_last,
            _whole_units(self.sweep_interval, _MILLISECOND),
            self.sweep_batch_threads,
        )


def _minutes(key: str, value: Any) -> timedelta:
    """A TTL config value in minutes as a timedelta; ValueError naming
    ``key`` unless it is a finite number timedelta can hold."""
    error = ValueError(f"TTL {key} must be a finite number of minutes, got {value!r}")
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or not math.isfinite(value)
    ):
        raise error
    try:
        return timedelta(minutes=value)
    except OverflowError:
        raise error from None


def resolve(retention: Retention | Mapping[str, Any] | None) -> Retention | None:
    """``retention`` as a Retention: a Mapping is a TTL config (from_ttl)."""
    if retention is None or isinstance(retention, Retention):
        return retention
    if isinstance(retention, Mapping):
        return Retention.from_ttl(retention)
    raise TypeError(
        "retention must be a Retention, a TTL config mapping or None, "
        f"got {type(retention).__name__}"
    )


@dataclass(frozen=True)
class RetentionReport:
    """What a sweep expired (or, dry, would expire)."""

    # Threads looked at.
    threads_examined: int = 0
    # Threads left with no visible checkpoint.
    threads_emptied: int = 0
    # Visible checkpoints that expired: deleted, or hidden where a surviving
    # checkpoint's delta channels need them.
    checkpoints_expired: int = 0
    # Of those, the ones kept hidden.
    checkpoints_hidden: int = 0
    # Stored bytes deleted (checkpoints, channel values, pending writes,
    # before compression).
    bytes: int = 0
