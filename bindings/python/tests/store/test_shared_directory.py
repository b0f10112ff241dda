"""The saver and the store in one directory: one open database (one lock)
in the process, whichever opens first; each closes on its own; a second
open of either is BusyError; an encrypted saver keeps the store out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.base import empty_checkpoint
from langgraph.checkpoint.rockpoint import (
    BusyError,
    InvalidArgumentError,
    RockpointSaver,
)
from langgraph.store.rockpoint import RockpointStore

CONFIG: dict[str, Any] = {"configurable": {"thread_id": "t", "checkpoint_ns": ""}}


def _put_checkpoint(saver: RockpointSaver, value: int) -> str:
    checkpoint = empty_checkpoint()
    checkpoint["channel_values"] = {"x": value}
    versions = {"x": saver.get_next_version(None, None)}
    checkpoint["channel_versions"] = versions
    stored = saver.put(CONFIG, checkpoint, {"step": value}, versions)
    return stored["configurable"]["checkpoint_id"]


def _latest_value(saver: RockpointSaver) -> Any:
    stored = saver.get_tuple(CONFIG)
    assert stored is not None
    return stored.checkpoint["channel_values"]["x"]


def test_each_closes_on_its_own_in_either_order(tmp_path: Path) -> None:
    path = str(tmp_path / "agent")
    saver = RockpointSaver.open(path)
    store = RockpointStore.open(path)
    _put_checkpoint(saver, 1)
    store.put(("users", "ada"), "prefs", {"theme": "dark"})
    saver.close()
    # The store keeps working, and the saver reopens beside it.
    store.put(("users", "ada"), "more", {"n": 1})
    saver = RockpointSaver.open(path)
    assert _latest_value(saver) == 1
    store.close()
    _put_checkpoint(saver, 2)
    saver.close()

    # The store first this time: the last close released the directory.
    with RockpointStore.open(path) as store, RockpointSaver.open(path) as saver:
        assert _latest_value(saver) == 2
        prefs = store.get(("users", "ada"), "prefs")
        assert prefs is not None and prefs.value == {"theme": "dark"}
        assert store.list_namespaces() == [("users", "ada")]


def test_a_second_open_of_either_is_busy(tmp_path: Path) -> None:
    path = str(tmp_path / "agent")
    with RockpointSaver.open(path) as saver, RockpointStore.open(path) as store:
        with pytest.raises(BusyError):
            RockpointStore.open(path)
        with pytest.raises(BusyError):
            RockpointSaver.open(path)
        # The refused opens changed nothing.
        _put_checkpoint(saver, 7)
        store.put(("n",), "k", {"v": 1})
        assert _latest_value(saver) == 7
        assert store.get(("n",), "k") is not None


def test_an_encrypted_saver_keeps_the_store_out(tmp_path: Path) -> None:
    path = str(tmp_path / "agent")
    with RockpointSaver.open(path, encryption_key=b"k" * 32) as saver:
        with pytest.raises(InvalidArgumentError, match="encrypted"):
            RockpointStore.open(path)
        _put_checkpoint(saver, 3)
    # The refusal changed nothing: the encrypted saver reopens with its data.
    with RockpointSaver.open(path, encryption_key=b"k" * 32) as saver:
        assert _latest_value(saver) == 3
    items_first = str(tmp_path / "items-first")
    with RockpointStore.open(items_first) as store:
        store.put(("n",), "k", {"v": 1})
    with pytest.raises(InvalidArgumentError, match="item store"):
        RockpointSaver.open(items_first, encryption_key=b"k" * 32)
