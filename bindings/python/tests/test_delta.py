"""DeltaChannel with the real runtime: RockpointSaver against InMemorySaver.

A TeeSaver (an InMemorySaver that also stores every put and put_writes in a
RockpointSaver, with the same ids) gives both stores identical contents, so
get_delta_channel_history can be compared exactly, checkpoint by checkpoint,
also after prune, delete_for_runs and copy_thread on the RocksDB store.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest
from graphs import chat_graph, expected_messages, turn_input
from langgraph.checkpoint.memory import InMemorySaver

from langgraph.checkpoint.rockpoint import RockpointSaver

TURNS = 300
HERE = Path(__file__).parent


class TeeSaver(InMemorySaver):
    def __init__(self, mirror: RockpointSaver) -> None:
        super().__init__()
        self.mirror = mirror

    def put(
        self, config: Any, checkpoint: Any, metadata: Any, new_versions: Any
    ) -> Any:
        out = super().put(config, checkpoint, metadata, new_versions)
        assert self.mirror.put(config, checkpoint, metadata, new_versions) == out
        return out

    def put_writes(
        self, config: Any, writes: Any, task_id: str, task_path: str = ""
    ) -> None:
        super().put_writes(config, writes, task_id, task_path)
        self.mirror.put_writes(config, writes, task_id, task_path)


def _history(
    saver: Any, config: dict[str, Any], channels: tuple[str, ...] = ("messages",)
) -> Any:
    """The history LangGraph asks for: the delta channels'."""
    return saver.get_delta_channel_history(config=config, channels=list(channels))


def _configs(saver: Any, thread: str) -> list[dict[str, Any]]:
    return [t.config for t in saver.list({"configurable": {"thread_id": thread}})]


def _run_turns(graph: Any, thread: str, turns: int, run_id: str | None = None) -> None:
    config: dict[str, Any] = {"configurable": {"thread_id": thread}}
    for i in range(turns):
        rid = run_id or str(uuid.uuid4())
        graph.invoke(
            turn_input(i), {**config, "run_id": rid, "metadata": {"run_id": rid}}
        )


@pytest.mark.parametrize("frequency", [3, None], ids=["snapshot3", "default"])
def test_state_after_reopen_in_child_equals_inmemory(
    tmp_path: Path, frequency: int | None
) -> None:
    store = str(tmp_path / "store")
    config = {"configurable": {"thread_id": "chat"}}
    with RockpointSaver.open(store, sync_writes=False) as saver:
        _run_turns(chat_graph(frequency, saver), "chat", TURNS)
    reference = chat_graph(frequency, InMemorySaver())
    _run_turns(reference, "chat", TURNS)
    expected = reference.get_state(config).values
    assert expected["messages"] == expected_messages(TURNS)
    child = subprocess.run(
        [
            sys.executable,
            str(HERE / "child.py"),
            "state",
            store,
            "chat",
            "default" if frequency is None else str(frequency),
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=HERE,
        env={**os.environ, "PYTHONPATH": str(HERE)},
    )
    assert json.loads(child.stdout) == expected


@pytest.fixture
def tee(tmp_path: Path) -> Any:
    with RockpointSaver.open(str(tmp_path / "store"), sync_writes=False) as mirror:
        yield TeeSaver(mirror)


def test_history_equals_inmemory_with_forks(tee: TeeSaver) -> None:
    graph = chat_graph(4, tee)
    _run_turns(graph, "t", 40)
    # Fork from an old checkpoint, twice, and continue both branches.
    history = list(graph.get_state_history({"configurable": {"thread_id": "t"}}))
    for old in (history[25], history[60]):
        forked = graph.update_state(old.config, {"messages": ["fork"]})
        graph.invoke(turn_input(99), forked)
        graph.invoke(turn_input(100), {"configurable": {"thread_id": "t"}})
    configs = _configs(tee, "t")
    assert len(configs) > 120
    for config in configs:
        assert _history(tee.mirror, config) == _history(tee, config), config
    # The whole state too, read through the RocksDB store alone.
    for config in configs[:: len(configs) // 10]:
        assert (
            chat_graph(4, tee.mirror).get_state(config).values
            == graph.get_state(config).values
        )


def test_history_after_prune_delete_for_runs_copy_thread(tee: TeeSaver) -> None:
    graph = chat_graph(5, tee)
    runs = [str(uuid.uuid4()) for _ in range(6)]
    for n, run_id in enumerate(runs):
        config = {
            "configurable": {"thread_id": "t"},
            "run_id": run_id,
            "metadata": {"run_id": run_id},
        }
        for i in range(5):
            graph.invoke(turn_input(n * 5 + i), config)
    _run_turns(graph, "other", 12)
    configs = {c["configurable"]["checkpoint_id"]: c for c in _configs(tee, "t")}
    reference = {cid: _history(tee, c) for cid, c in configs.items()}
    mirror = tee.mirror

    # copy_thread: every copied checkpoint has the source's history.
    mirror.copy_thread("t", "copy")
    for config in _configs(mirror, "copy"):
        cid = config["configurable"]["checkpoint_id"]
        assert _history(mirror, config) == reference[cid]

    # delete_for_runs: the survivors keep their histories.
    mirror.delete_for_runs([runs[1], runs[3]])
    survivors = _configs(mirror, "t")
    assert 0 < len(survivors) < len(configs)
    for config in survivors:
        cid = config["configurable"]["checkpoint_id"]
        assert _history(mirror, config) == reference[cid]
        assert mirror.get_tuple(config).metadata.get("run_id") not in (runs[1], runs[3])
    # The copy carries the same run ids, so it lost the same checkpoints.
    copies = len(_configs(mirror, "copy"))
    assert copies == len(survivors)

    # prune keep_latest: one visible checkpoint, same history, same state.
    latest = _configs(tee, "other")[0]
    other_reference = _history(tee, latest)
    mirror.prune(["t", "other"])
    assert len(_configs(mirror, "other")) == 1
    assert _history(mirror, latest) == other_reference
    assert (
        chat_graph(5, mirror).get_state({"configurable": {"thread_id": "other"}}).values
        == graph.get_state({"configurable": {"thread_id": "other"}}).values
    )
    (head,) = _configs(mirror, "t")
    assert _history(mirror, head) == reference[head["configurable"]["checkpoint_id"]]
    # The copy is untouched by the source's prune.
    assert len(_configs(mirror, "copy")) == copies


def test_history_fork_not_touching_a_delta_channel(tee: TeeSaver) -> None:
    graph = chat_graph(1, tee)  # every update of messages is a snapshot
    _run_turns(graph, "t", 3)
    old = list(graph.get_state_history({"configurable": {"thread_id": "t"}}))[2]
    forked = graph.update_state(old.config, {"turns": 10})
    graph.invoke(turn_input(7), forked)
    for config in _configs(tee, "t"):
        assert _history(tee.mirror, config) == _history(tee, config), config


@pytest.mark.xfail(
    strict=True,
    reason="known engine divergence, for channels that are not delta channels "
    "(LangGraph asks only for delta channels): an ancestor that shares its parent's "
    "version without storing the value itself (a fork by update_state) is no seed "
    "in the engine's walk, so the fork point's other-branch writes are replayed; "
    "InMemorySaver seeds there",
)
def test_history_of_a_plain_channel_across_a_fork(tee: TeeSaver) -> None:
    graph = chat_graph(4, tee)
    _run_turns(graph, "t", 40)
    old = list(graph.get_state_history({"configurable": {"thread_id": "t"}}))[25]
    graph.invoke(turn_input(99), graph.update_state(old.config, {"messages": ["fork"]}))
    for config in _configs(tee, "t"):
        assert _history(tee.mirror, config, ("turns",)) == _history(
            tee, config, ("turns",)
        ), config
