"""langgraph-checkpoint-rockpoint: a LangGraph checkpoint saver on rockpoint.

from langgraph.checkpoint.rockpoint import RockpointSaver

with RockpointSaver.open("./checkpoints") as checkpointer:
    graph = builder.compile(checkpointer=checkpointer)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from langgraph.checkpoint.rockpoint.errors import (
    BusyError,
    ClosedError,
    CorruptionError,
    InvalidArgumentError,
    NotFoundError,
    RockpointError,
    StorageIOError,
)
from langgraph.checkpoint.rockpoint.saver import RockpointSaver

try:
    __version__ = version("langgraph-checkpoint-rockpoint")
except PackageNotFoundError:  # pragma: no cover - not installed
    __version__ = "0+unknown"

__all__ = [
    "BusyError",
    "ClosedError",
    "CorruptionError",
    "InvalidArgumentError",
    "NotFoundError",
    "RockpointError",
    "RockpointSaver",
    "StorageIOError",
    "__version__",
]
