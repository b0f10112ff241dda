"""End to end with langgraph on a RocksDB store: interrupts, history,
update_state, fork and replay, retries with pending writes, subgraphs,
durability modes, 50 concurrent threads, EncryptedSerializer."""

import asyncio
import operator
import os
from pathlib import Path
from typing import Annotated, Any

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.checkpoint.serde.encrypted import EncryptedSerializer
from langgraph.graph import END, START, StateGraph
from langgraph.types import Command, RetryPolicy, interrupt
from typing_extensions import TypedDict

from langgraph.checkpoint.rockpoint import RockpointSaver


class State(TypedDict):
    log: Annotated[list, operator.add]


def _cfg(thread: str) -> dict[str, Any]:
    return {"configurable": {"thread_id": thread}}


@pytest.fixture
def rocks(tmp_path: Path) -> Any:
    with RockpointSaver.open(str(tmp_path / "store")) as saver:
        yield saver


def _pipeline(checkpointer: Any) -> Any:
    builder = StateGraph(State)
    builder.add_node("a", lambda s: {"log": ["a"]})
    builder.add_node("b", lambda s: {"log": ["b"]})
    builder.add_node("c", lambda s: {"log": ["c"]})
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_edge("b", "c")
    return builder.compile(checkpointer=checkpointer)


def test_interrupt_and_resume(rocks: RockpointSaver) -> None:
    def ask(state: State) -> dict[str, Any]:
        answer = interrupt("what is your name?")
        return {"log": [f"hello {answer}"]}

    builder = StateGraph(State)
    builder.add_node("ask", ask)
    builder.add_edge(START, "ask")
    graph = builder.compile(checkpointer=rocks)
    out = graph.invoke({"log": ["start"]}, _cfg("i"))
    assert out["__interrupt__"][0].value == "what is your name?"
    assert graph.get_state(_cfg("i")).next == ("ask",)
    out = graph.invoke(Command(resume="ada"), _cfg("i"))
    assert out == {"log": ["start", "hello ada"]}


def test_history_update_fork_replay(rocks: RockpointSaver) -> None:
    graph = _pipeline(rocks)
    graph.invoke({"log": ["in"]}, _cfg("h"))
    history = list(graph.get_state_history(_cfg("h")))
    assert [len(s.values.get("log", [])) for s in history] == [4, 3, 2, 1, 0]
    # Replay from the checkpoint before "b": b and c run again.
    before_b = next(s for s in history if s.next == ("b",))
    replayed = graph.invoke(None, before_b.config)
    assert replayed["log"] == ["in", "a", "b", "c"]
    # Fork: change the state at that checkpoint, then continue.
    fork = graph.update_state(before_b.config, {"log": ["edited"]})
    forked = graph.invoke(None, fork)
    assert forked["log"] == ["in", "a", "edited", "b", "c"]
    assert graph.get_state(_cfg("h")).values["log"] == forked["log"]
    # The reference gives the same answers.
    ref = _pipeline(InMemorySaver())
    ref.invoke({"log": ["in"]}, _cfg("h"))
    ref_before_b = next(s for s in ref.get_state_history(_cfg("h")) if s.next == ("b",))
    assert (
        ref.invoke(None, ref.update_state(ref_before_b.config, {"log": ["edited"]}))
        == forked
    )


def test_failing_node_keeps_pending_writes(rocks: RockpointSaver) -> None:
    calls = {"ok": 0, "flaky": 0}

    def ok(state: State) -> dict[str, Any]:
        calls["ok"] += 1
        return {"log": ["ok"]}

    def flaky(state: State) -> dict[str, Any]:
        calls["flaky"] += 1
        if calls["flaky"] == 1:
            raise RuntimeError("transient")
        return {"log": ["flaky"]}

    builder = StateGraph(State)
    builder.add_node("ok", ok)
    builder.add_node("flaky", flaky)
    builder.add_edge(START, "ok")
    builder.add_edge(START, "flaky")
    graph = builder.compile(checkpointer=rocks)
    with pytest.raises(RuntimeError, match="transient"):
        graph.invoke({"log": []}, _cfg("r"))
    pending = rocks.get_tuple(_cfg("r")).pending_writes
    assert any(channel == "log" and value == ["ok"] for _, channel, value in pending)
    assert any(channel == "__error__" for _, channel, _ in pending)
    out = graph.invoke(None, _cfg("r"))
    assert sorted(out["log"]) == ["flaky", "ok"]
    assert calls == {"ok": 1, "flaky": 2}


def test_retry_policy(rocks: RockpointSaver) -> None:
    attempts = []

    def flaky(state: State) -> dict[str, Any]:
        attempts.append(1)
        if len(attempts) < 3:
            raise ValueError("again")
        return {"log": ["done"]}

    builder = StateGraph(State)
    builder.add_node(
        "flaky",
        flaky,
        retry_policy=RetryPolicy(initial_interval=0.001, retry_on=ValueError),
    )
    builder.add_edge(START, "flaky")
    assert builder.compile(checkpointer=rocks).invoke({"log": []}, _cfg("p")) == {
        "log": ["done"]
    }


def _nested(checkpointer: Any) -> Any:
    def inner_ask(state: State) -> dict[str, Any]:
        return {"log": [f"inner {interrupt('continue?')}"]}

    sub = StateGraph(State)
    sub.add_node("inner_ask", inner_ask)
    sub.add_edge(START, "inner_ask")
    builder = StateGraph(State)
    builder.add_node("outer", lambda s: {"log": ["outer"]})
    builder.add_node("sub", sub.compile())
    builder.add_edge(START, "outer")
    builder.add_edge("outer", "sub")
    builder.add_edge("sub", END)
    return builder.compile(checkpointer=checkpointer)


def test_subgraph_namespaces(rocks: RockpointSaver) -> None:
    graph = _nested(rocks)
    graph.invoke({"log": []}, _cfg("s"))
    state = graph.get_state(_cfg("s"), subgraphs=True)
    (task,) = state.tasks
    assert task.state is not None and task.state.next == ("inner_ask",)
    namespaces = {
        t.config["configurable"]["checkpoint_ns"] for t in rocks.list(_cfg("s"))
    }
    assert "" in namespaces and any(ns.startswith("sub:") for ns in namespaces)
    out = graph.invoke(Command(resume="yes"), _cfg("s"))
    ref = _nested(InMemorySaver())
    ref.invoke({"log": []}, _cfg("s"))
    assert out == ref.invoke(Command(resume="yes"), _cfg("s"))
    assert "inner yes" in out["log"]


@pytest.mark.parametrize("durability", ["sync", "async", "exit"])
def test_durability_modes(rocks: RockpointSaver, durability: str) -> None:
    graph = _pipeline(rocks)
    out = graph.invoke({"log": ["in"]}, _cfg(durability), durability=durability)
    assert out["log"] == ["in", "a", "b", "c"]
    count = len(list(rocks.list(_cfg(durability))))
    assert count == (1 if durability == "exit" else 5)
    assert graph.get_state(_cfg(durability)).values == out


async def test_fifty_threads_concurrently(rocks: RockpointSaver) -> None:
    graph = _pipeline(rocks)

    async def run(n: int) -> dict[str, Any]:
        await graph.ainvoke({"log": [f"t{n}"]}, _cfg(f"c{n}"))
        return await graph.ainvoke({"log": ["again"]}, _cfg(f"c{n}"))

    results = await asyncio.gather(*(run(n) for n in range(50)))
    for n, out in enumerate(results):
        assert out["log"] == [f"t{n}", "a", "b", "c", "again", "a", "b", "c"]
        assert len([t async for t in rocks.alist(_cfg(f"c{n}"))]) == 10


def test_encrypted_serializer_stores_no_plaintext(tmp_path: Path) -> None:
    secret = "the launch code is 7781-SWORDFISH"
    serde = EncryptedSerializer.from_pycryptodome_aes(
        key=b"0123456789abcdef0123456789abcdef"
    )
    path = tmp_path / "store"
    with RockpointSaver.open(str(path), serde=serde) as saver:
        graph = _pipeline(saver)
        graph.invoke({"log": [secret]}, _cfg("e"))
        graph.invoke({"log": [secret]}, _cfg("e"))
        assert graph.get_state(_cfg("e")).values["log"][0] == secret
    needle = secret.encode()
    for root, _, files in os.walk(path):
        for name in files:
            assert needle not in Path(root, name).read_bytes(), name
    with RockpointSaver.open(str(path), serde=serde) as saver:
        assert _pipeline(saver).get_state(_cfg("e")).values["log"][0] == secret
