"""Exceptions raised by RockpointSaver, one per engine status code.

Every message is the engine's own (it names the offending field or key).
"""

from __future__ import annotations


class RockpointError(Exception):
    """Base class of every error the rockpoint engine reports."""


class InvalidArgumentError(RockpointError, ValueError):
    """Bad input (a missing or oversized id, a malformed checkpoint...).

    Nothing was written.
    """


class NotFoundError(RockpointError, LookupError):
    """The addressed checkpoint does not exist."""


class BusyError(RockpointError):
    """The store is locked by another process (its RocksDB LOCK file)."""


class CorruptionError(RockpointError):
    """A stored record failed to decode; the message names its key."""


class StorageIOError(RockpointError, OSError):
    """The file system failed (disk full, permissions, ...)."""


class ClosedError(RockpointError):
    """The saver was closed."""


class NotSupportedError(RockpointError):
    """The store's backend has no such capability."""


__all__ = [
    "BusyError",
    "ClosedError",
    "CorruptionError",
    "InvalidArgumentError",
    "NotFoundError",
    "NotSupportedError",
    "RockpointError",
    "StorageIOError",
]
