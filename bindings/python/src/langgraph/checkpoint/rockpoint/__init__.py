"""langgraph-checkpoint-rockpoint: a LangGraph checkpoint saver on rockpoint.

from langgraph.checkpoint.rockpoint import RockpointSaver

with RockpointSaver.open("./checkpoints") as checkpointer:
    graph = builder.compile(checkpointer=checkpointer)

# A background sweeper deletes threads idle for 30 days:
checkpointer = RockpointSaver.open(
    "./checkpoints", retention=Retention(max_idle=timedelta(days=30))
)
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from langgraph.checkpoint.rockpoint.errors import (
    BusyError,
    ClosedError,
    CorruptionError,
    InvalidArgumentError,
    NotFoundError,
    NotSupportedError,
    RockpointError,
    StorageIOError,
)
from langgraph.checkpoint.rockpoint.retention import Retention, RetentionReport
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
    "NotSupportedError",
    "Retention",
    "RetentionReport",
    "RockpointError",
    "RockpointSaver",
    "StorageIOError",
    "__version__",
]
