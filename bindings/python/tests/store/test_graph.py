"""A real graph: a memory agent (memory_agent.py) stores facts on thread 1;
a new process reopens the saver and the store and, on thread 2, recalls one
by semantic search. The saver and the store keep a directory each, or share
one (one open database, one lock)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from langgraph.checkpoint.rockpoint import RockpointSaver
from langgraph.store.rockpoint import RockpointStore

from .memory_agent import build, index, open_agent

HERE = Path(__file__).parent

FACTS = [
    "Ada's favourite colour is teal",
    "Ada works on optimizing compilers",
    "Ada has a cat named Pascal",
]


def _recall_in_child(saver_dir: Path, store_dir: Path, thread: str, query: str) -> str:
    child = subprocess.run(
        [
            sys.executable,
            str(HERE / "child_store.py"),
            "recall",
            str(saver_dir),
            str(store_dir),
            thread,
            query,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(HERE)},
    )
    assert child.returncode == 0, child.stderr
    return child.stdout.strip()


def _directories(tmp_path: Path, layout: str) -> tuple[Path, Path]:
    if layout == "one-directory":
        return tmp_path / "agent", tmp_path / "agent"
    return tmp_path / "checkpoints", tmp_path / "memory"


@pytest.mark.parametrize("layout", ["own-directories", "one-directory"])
def test_memory_agent_recalls_across_threads_and_processes(
    tmp_path: Path, layout: str
) -> None:
    saver_dir, store_dir = _directories(tmp_path, layout)
    user = {"user_id": "ada"}
    with open_agent(str(saver_dir), str(store_dir)) as agent:
        for fact in FACTS:
            out = agent.invoke(
                {"message": f"remember: {fact}"},
                {"configurable": {"thread_id": "1", **user}},
            )
            assert out["reply"] == f"noted: {fact}"
        # Thread 2 of the same process already sees the memories.
        out = agent.invoke(
            {"message": "recall: what colour does Ada like? teal"},
            {"configurable": {"thread_id": "1b", **user}},
        )
        assert out["reply"] == FACTS[0]

    # A new process: reopen both, recall on thread 2.
    reply = _recall_in_child(saver_dir, store_dir, "2", "a cat named Pascal")
    assert reply == FACTS[2]
    reply = _recall_in_child(saver_dir, store_dir, "2", "works on compilers")
    assert reply == FACTS[1]

    # What the child did is durable too: thread 2's checkpoints, and the
    # store still holds exactly the three memories.
    with (
        RockpointSaver.open(str(saver_dir)) as saver,
        RockpointStore.open(store_dir, index=index()) as store,
    ):
        graph = build(saver, store)
        state = graph.get_state({"configurable": {"thread_id": "2"}})
        assert state.values["reply"] == FACTS[1]
        history = list(graph.get_state_history({"configurable": {"thread_id": "1"}}))
        assert len(history) >= len(FACTS)
        memories = store.search(("memories", "ada"), limit=10)
        assert sorted(m.value["text"] for m in memories) == sorted(FACTS)
        assert store.list_namespaces() == [("memories", "ada")]
        # Another user's namespace holds nothing.
        other = graph.invoke(
            {"message": "recall: a cat named Pascal"},
            {"configurable": {"thread_id": "3", "user_id": "bob"}},
        )
        assert other["reply"] == "I don't know"


async def test_memory_agent_async(tmp_path: Path) -> None:
    saver_dir, store_dir = tmp_path / "checkpoints", tmp_path / "memory"
    async with (
        RockpointSaver.open(str(saver_dir)) as saver,
        RockpointStore.open(store_dir, index=index()) as store,
    ):
        graph = build(saver, store)
        for fact in FACTS:
            await graph.ainvoke(
                {"message": f"remember: {fact}"},
                {"configurable": {"thread_id": "1", "user_id": "ada"}},
            )
        out = await graph.ainvoke(
            {"message": "recall: a cat named Pascal"},
            {"configurable": {"thread_id": "2", "user_id": "ada"}},
        )
        assert out["reply"] == FACTS[2]
    reply = _recall_in_child(saver_dir, store_dir, "4", "favourite colour teal")
    assert reply == FACTS[0]
