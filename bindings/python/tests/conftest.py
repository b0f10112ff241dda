"""Shared fixtures: real RocksDB stores in fresh temporary directories."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from langgraph.checkpoint.rockpoint import RockpointSaver


@pytest.fixture
def store_path(tmp_path: Path) -> str:
    return str(tmp_path / "store")


@pytest.fixture(params=["rocksdb", "memory"])
def saver(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[RockpointSaver]:
    """A RockpointSaver on a fresh RocksDB store (fsync off) or in memory."""
    if request.param == "rocksdb":
        s = RockpointSaver.open(str(tmp_path / "store"), sync_writes=False)
    else:
        s = RockpointSaver.memory()
    with s:
        yield s
